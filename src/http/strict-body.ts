// Request bodies are checked against their route's schema as sent, before Elysia normalizes them:
// Elysia's cleaning drops unknown fields and turns an array, string or number into `{}`, so its own
// check would pass a body the schema refuses. Here a body that is not the schema is a 422.
import { Type, type TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { detailOf, fieldErrors } from "./validation.ts";

interface RouteInfo {
  method: string;
  path: string;
  hooks?: { body?: unknown };
}

const isSchema = (v: unknown): v is TSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** A route that declares no body takes none: nothing, or an empty object. */
const NoBody = TypeCompiler.Compile(Type.Object({}, { additionalProperties: false }));

/** The compiled body check of every route, by `METHOD /path/:param`. */
function bodyChecks(routes: RouteInfo[]): Map<string, TypeCheck<TSchema>> {
  const checks = new Map<string, TypeCheck<TSchema>>();
  for (const r of routes) {
    const body = r.hooks?.body;
    checks.set(`${r.method.toUpperCase()} ${r.path}`, isSchema(body) ? TypeCompiler.Compile(body) : NoBody);
  }
  return checks;
}

/** Scoped to the instance that uses it (the JSON API): runs after parsing, before validation. */
export function strictBodies(routes: () => RouteInfo[]) {
  let checks: Map<string, TypeCheck<TSchema>> | undefined;
  return new Elysia({ name: "strict-bodies" }).onTransform({ as: "scoped" }, ({ request, route, body }) => {
    if (request.method !== "POST" && request.method !== "PUT" && request.method !== "PATCH") return;
    checks ??= bodyChecks(routes());
    const check = checks.get(`${request.method} ${route}`);
    if (!check || check.Check(body) || (check === NoBody && body === undefined)) return;
    const errors = fieldErrors("body", check.Errors(body));
    throw new AppError("validation_failed", detailOf(errors), { errors });
  });
}

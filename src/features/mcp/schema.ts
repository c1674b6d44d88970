// TypeBox schemas as MCP tool schemas: plain JSON Schema for clients, and the same TypeBox checks
// (defaults, strict integers, unknown fields refused, error paths) the HTTP API applies.
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FieldError } from "../../errors.ts";
import { fieldErrors } from "../../http/validation.ts";

type Json = Record<string, unknown>;

/** The JSON Schema a client sees (TypeBox's symbols dropped). */
export function toJsonSchema(schema: TSchema): Json & { type: "object" } {
  const json = JSON.parse(JSON.stringify(schema)) as Json;
  if (json.type !== "object") throw new Error("MCP tool schemas must be objects");
  return json as Json & { type: "object" };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Defaults, check, decode (query integers to numbers): what the HTTP API does for a body. */
export function checkArguments<T>(schema: TSchema, input: unknown): Checked<T> {
  const value = Value.Default(schema, structuredClone(input ?? {}));
  if (!Value.Check(schema, value)) return { ok: false, errors: fieldErrors("body", Value.Errors(schema, value)) };
  return { ok: true, value: Value.Decode(schema, value) as T };
}

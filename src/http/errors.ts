// One error path: every thrown error, framework error and unknown route becomes problem+json (or,
// on the web app's pages, the HTML page a renderer gives).
import type { TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { Elysia } from "elysia";
import { AppError, type ErrorCode, type FieldError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { metaOf } from "./context.ts";
import { routerPath } from "./path.ts";
import { problemResponse } from "./problem.ts";
import { detailOf, fieldErrors } from "./validation.ts";

interface ValidationErrorLike {
  type: string;
  value: unknown;
  validator?: { Errors?(value: unknown): Iterable<ValueError>; schema?: TSchema };
}

/** The TypeBox errors behind one of Elysia's validation errors, recomputed from its validator. */
function typeboxErrors(v: ValidationErrorLike): Iterable<ValueError> {
  const validator = v.validator;
  if (validator && typeof validator.Errors === "function") return validator.Errors(v.value);
  if (validator?.schema) return Value.Errors(validator.schema, v.value);
  return [];
}

type RouteMatcher = (method: string, path: string) => string[];

function allowedMethods(routes: { method: string; path: string }[]): RouteMatcher {
  const compiled = routes.map((r) => ({
    method: r.method.toUpperCase(),
    re: new RegExp(
      `^${r.path
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/:[^/]+/g, "[^/]+")
        .replace(/\*$/, ".*")}/?$`,
    ),
  }));
  return (_method, path) => [...new Set(compiled.filter((c) => c.re.test(path)).map((c) => c.method))];
}

/** Renders an error as a page instead of problem+json (the web app, outside the machine paths); undefined declines. */
export type ErrorPageRenderer = (
  request: Request,
  e: { code: ErrorCode; detail?: string; requestId: string; headers?: Record<string, string> },
) => Response | undefined | Promise<Response | undefined>;

export function errorPlugin(
  logger: Logger,
  routes: () => { method: string; path: string }[],
  opts: { page?: ErrorPageRenderer } = {},
) {
  let matcher: RouteMatcher | undefined;
  type Ctx = { code: string | number; error: unknown; request: Request; set: { headers?: Record<string, unknown> } };

  async function toProblem(ctx: Ctx): Promise<Response> {
    const { code, error, request, set } = ctx;
    const meta = metaOf(request);
    for (const cleanup of meta.onError?.splice(0) ?? []) {
      try {
        await cleanup();
      } catch (e) {
        logger.error("error cleanup failed", { request_id: meta.id, error: String(e) });
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(set.headers ?? {})) if (typeof v === "string") headers[k] = v;
    const render = async (c: ErrorCode, detail?: string, errors?: FieldError[], extra?: Record<string, string>) =>
      (await opts.page?.(request, { code: c, detail, requestId: meta.id, headers: { ...headers, ...extra } })) ??
      problemResponse({ code: c, detail, errors, requestId: meta.id, headers: { ...headers, ...extra } });

    if (error instanceof AppError) return render(error.code, error.detail, error.extra.errors, error.extra.headers);
    if (code === "VALIDATION") {
      const v = error as unknown as ValidationErrorLike;
      const location =
        v.type === "query" ? "query" : v.type === "params" ? "path" : v.type === "headers" ? "headers" : "body";
      const errors = fieldErrors(location, typeboxErrors(v));
      return render("validation_failed", detailOf(errors), errors);
    }
    if (code === "PARSE") return render("malformed_json", "The request body is not valid JSON");
    if (code === "NOT_FOUND") {
      const path = routerPath(request);
      matcher ??= allowedMethods(routes());
      const methods = matcher(request.method, path).filter((m) => m !== request.method);
      if (methods.length > 0 && !methods.includes(request.method)) {
        return render("method_not_allowed", `${request.method} is not allowed on ${path}`, undefined, {
          allow: methods.join(", "),
        });
      }
      return render("not_found", `No route for ${request.method} ${path}`);
    }
    if (code === "INVALID_COOKIE_SIGNATURE") return render("bad_request", "Invalid cookie");
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status === 413)
      return render("payload_too_large", "The request body is too large");
    if (error instanceof Error && /exceeded maxRequestBodySize/i.test(error.message))
      return render("payload_too_large", "The request body is too large");
    logger.error("unhandled error", {
      request_id: meta.id,
      method: request.method,
      path: routerPath(request),
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
    return render("internal_error", "Something went wrong on our side; the request id identifies it in our logs");
  }

  return new Elysia({ name: "errors" }).onError({ as: "global" }, async (ctx) => {
    try {
      return await toProblem(ctx);
    } catch (e) {
      // Rendering the error failed in turn: still answer problem+json with the request id.
      const meta = metaOf(ctx.request);
      logger.error("error rendering failed", {
        request_id: meta.id,
        error: e instanceof Error ? { message: e.message, stack: e.stack } : String(e),
      });
      return problemResponse({
        code: "internal_error",
        detail: "Something went wrong on our side; the request id identifies it in our logs",
        requestId: meta.id,
      });
    }
  });
}

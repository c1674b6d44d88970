// One error path: every thrown error, framework error and unknown route becomes problem+json (or,
// on the web app's pages, the HTML page a renderer gives).
import { Elysia } from "elysia";
import { AppError, type ErrorCode, type FieldError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { metaOf } from "./context.ts";
import { problemResponse } from "./problem.ts";

interface ValueErrorLike {
  path?: string;
  message?: string;
  summary?: string;
}

function pointerToPath(location: string, pointer: string): string {
  const parts = pointer.split("/").slice(1).map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  let out = location === "body" ? "" : location;
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || location;
}

export function validationErrors(location: string, all: ValueErrorLike[]): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const e of all) {
    const path = pointerToPath(location, e.path ?? "");
    const message = e.summary || e.message || "is invalid";
    const k = `${path}\u0000${message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    errors.push({ path, message });
  }
  // A union failure also lists each branch; the first few errors are the useful ones.
  return errors.slice(0, 20);
}

type RouteMatcher = (method: string, path: string) => string[];

function allowedMethods(routes: { method: string; path: string }[]): RouteMatcher {
  const compiled = routes.map((r) => ({
    method: r.method.toUpperCase(),
    re: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+").replace(/\*$/, ".*")}/?$`),
  }));
  return (_method, path) => [...new Set(compiled.filter((c) => c.re.test(path)).map((c) => c.method))];
}

/** Renders an error as a page instead of problem+json (the web app, outside the machine paths); undefined declines. */
export type ErrorPageRenderer = (
  request: Request,
  e: { code: ErrorCode; detail?: string; requestId: string; headers?: Record<string, string> },
) => Response | undefined;

export function errorPlugin(logger: Logger, routes: () => { method: string; path: string }[], opts: { page?: ErrorPageRenderer } = {}) {
  let matcher: RouteMatcher | undefined;
  return new Elysia({ name: "errors" }).onError({ as: "global" }, (ctx) => {
    const { code, error, request, set } = ctx;
    const meta = metaOf(request);
    for (const cleanup of meta.onError?.splice(0) ?? []) {
      try {
        cleanup();
      } catch (e) {
        logger.error("error cleanup failed", { request_id: meta.id, error: String(e) });
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(set.headers ?? {})) if (typeof v === "string") headers[k] = v;
    const render = (c: ErrorCode, detail?: string, errors?: FieldError[], extra?: Record<string, string>) =>
      opts.page?.(request, { code: c, detail, requestId: meta.id, headers: { ...headers, ...extra } }) ??
      problemResponse({ code: c, detail, errors, requestId: meta.id, headers: { ...headers, ...extra } });

    if (error instanceof AppError) return render(error.code, error.detail, error.extra.errors, error.extra.headers);
    if (code === "VALIDATION") {
      const v = error as unknown as { type: string; value: unknown; all: ValueErrorLike[] };
      let location = v.type === "query" ? "query" : v.type === "params" ? "path" : v.type === "headers" ? "headers" : "body";
      // Numeric query/path fields are decoded one by one and fail as "property" errors without
      // their name; find the parameter that carried the rejected value.
      if (v.type === "property") {
        const url = new URL(request.url);
        const key = [...url.searchParams.entries()].find(([, val]) => val === String(v.value))?.[0];
        location = key ? `query.${key}` : "query";
      }
      const errors = validationErrors(location, v.all ?? []);
      const first = errors[0];
      const detail = first ? `${first.path}: ${first.message}` : "The request is invalid";
      return render("validation_failed", detail, errors);
    }
    if (code === "PARSE") return render("malformed_json", "The request body is not valid JSON");
    if (code === "NOT_FOUND") {
      const url = new URL(request.url);
      matcher ??= allowedMethods(routes());
      const methods = matcher(request.method, url.pathname).filter((m) => m !== request.method);
      if (methods.length > 0 && !methods.includes(request.method)) {
        return render("method_not_allowed", `${request.method} is not allowed on ${url.pathname}`, undefined, {
          allow: methods.join(", "),
        });
      }
      return render("not_found", `No route for ${request.method} ${url.pathname}`);
    }
    if (code === "INVALID_COOKIE_SIGNATURE") return render("bad_request", "Invalid cookie");
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status === 413) return render("payload_too_large", "The request body is too large");
    logger.error("unhandled error", {
      request_id: meta.id,
      method: request.method,
      path: new URL(request.url).pathname,
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
    return render("internal_error", "Something went wrong on our side; the request id identifies it in our logs");
  });
}

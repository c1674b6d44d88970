// The outermost layer around the Elysia app: request id, body-size and content-type guards, the
// X-Request-Id response header and one JSON log line per request. Kept outside Elysia's hook
// chain on purpose: global onRequest/onAfterResponse hooks cost about a third of a cached request.
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { metaOf } from "./context.ts";
import type { ErrorPageRenderer } from "./errors.ts";
import { problemResponse } from "./problem.ts";

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export interface HttpApp {
  handle(request: Request): Promise<Response>;
}

/** Refuses bodies that are too large, or not JSON on the JSON API, before any parsing. */
function guard(request: Request, path: string, maxBodyBytes: number): AppError | undefined {
  if (!BODY_METHODS.has(request.method)) return;
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > maxBodyBytes && !path.startsWith("/api/webhooks/")) {
    return new AppError("payload_too_large", `The body is ${length} bytes; the limit is ${maxBodyBytes}`);
  }
  // The JSON API accepts JSON only; MCP, OAuth and the web app parse their own bodies.
  if (path.startsWith("/api/v1/") && (length > 0 || request.headers.has("transfer-encoding") || request.body !== null)) {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json" && !type.endsWith("+json")) {
      return new AppError("unsupported_media_type", `Send the body as application/json, not ${type || "an unlabelled body"}`);
    }
  }
}

export function withRequestHandling<A extends HttpApp>(
  app: A,
  opts: { logger: Logger; maxBodyBytes: number; apiAuth?: (request: Request) => Record<string, string>; page?: ErrorPageRenderer },
) {
  return async (request: Request): Promise<Response> => {
    const meta = metaOf(request);
    const sent = request.headers.get("x-request-id");
    if (sent && REQUEST_ID_RE.test(sent)) meta.id = sent;
    const url = request.url;
    const q = url.indexOf("?");
    const path = url.slice(url.indexOf("/", 8), q === -1 ? undefined : q);
    let extra: Record<string, string> | undefined;
    let res: Response;
    try {
      const refused = guard(request, path, opts.maxBodyBytes);
      if (refused) throw refused;
      if (opts.apiAuth && path.startsWith("/api/v1/")) extra = opts.apiAuth(request);
      res = await app.handle(request);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      res =
        opts.page?.(request, { code: e.code, detail: e.detail, requestId: meta.id, headers: e.extra.headers }) ??
        problemResponse({ code: e.code, detail: e.detail, errors: e.extra.errors, requestId: meta.id, headers: e.extra.headers });
    }
    try {
      res.headers.set("x-request-id", meta.id);
    } catch {
      // Some responses carry immutable headers; copy once in that rare case.
      res = new Response(res.body, res);
      res.headers.set("x-request-id", meta.id);
    }
    // Never sniffed: the web app's CSP admits same-origin scripts, so no response may pass as one.
    res.headers.set("x-content-type-options", "nosniff");
    if (extra) for (const k in extra) res.headers.set(k, extra[k]!);
    opts.logger.info("request", {
      request_id: meta.id,
      method: request.method,
      path,
      status: res.status,
      ms: Math.round((performance.now() - meta.start) * 100) / 100,
      user_id: meta.actor?.userId,
    });
    return res;
  };
}

// The outermost layer around the Elysia app: request id, header-size, authentication, body-size
// and content-type guards, the one JSON parser of the API, the X-Request-Id response header and
// one JSON log line per request. Kept outside Elysia's hook chain on purpose: global
// onRequest/onAfterResponse hooks cost about a third of a cached request.
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { declaredLength, decodeUtf8, parseJson, readBody, tooLarge } from "./body.ts";
import { adoptMeta, metaOf } from "./context.ts";
import type { ErrorPageRenderer } from "./errors.ts";
import { routerPathOf } from "./path.ts";
import { problemResponse } from "./problem.ts";
import { isJsonType, mediaType } from "../media-type.ts";

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export interface HttpApp {
  handle(request: Request): Promise<Response>;
}

export interface RequestLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
  maxHeaderBytes: number;
  /** The largest file an upload route (POST /api/v1/imports, multipart) takes; the form's own parts get 64 KiB more. */
  maxUploadBytes?: number;
  /** The largest `html` a saved page may carry (POST /api/v1/sources): that body's limit is raised to fit it. */
  maxCaptureHtmlBytes?: number;
}

/**
 * The routes that take a multipart file upload (the import API and its web page), and only from a
 * caller already known: an API key, or a session for the page.
 */
const UPLOAD_PATHS = new Set(["/api/v1/imports", "/settings/import-export"]);
const FORM_OVERHEAD = 64 * 1024;
/** The save that may carry the page's HTML. JSON escaping can double markup (quotes, newlines). */
const CAPTURE_PATH = "/api/v1/sources";

function jsonBodyLimit(request: Request, path: string, limits: RequestLimits): { max: number; capture: boolean } {
  const html = limits.maxCaptureHtmlBytes;
  if (html === undefined || request.method !== "POST" || path !== CAPTURE_PATH)
    return { max: limits.maxBodyBytes, capture: false };
  return { max: Math.max(limits.maxBodyBytes, 2 * html + FORM_OVERHEAD), capture: true };
}

/** A save too large to read: the html field is what makes a body that big, so the problem names it. */
function captureTooLarge(max: number, html: number): AppError {
  const message = `must be at most ${html} bytes of UTF-8 (CAPTURE_MAX_HTML_BYTES)`;
  return new AppError("payload_too_large", `The body is larger than the limit of ${max} bytes: html ${message}`, {
    errors: [{ path: "html", message }],
  });
}

/** About what the request line and headers took on the wire (Bun's own limit counts the same). */
function headBytes(request: Request, pathAndQuery: number): number {
  let n = request.method.length + pathAndQuery + 13;
  request.headers.forEach((value, name) => {
    n += name.length + value.length + 4;
  });
  return n;
}

/** Where the URL's own path starts (after "scheme://host"): the request target's length is the rest. */
function hostEnd(url: string): number {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start === -1 ? url.length : start;
}

const isJson = (request: Request) => {
  const type = mediaType(request.headers.get("content-type"));
  return { type, json: isJsonType(type) };
};

/**
 * Size and type checks of a body, before any route sees it. The JSON API's body is read and
 * parsed here (depth-checked first), and the route's parser is handed the value. Webhook
 * deliveries count their own bytes against their own limit, after the token is checked.
 */
async function prepareBody(
  request: Request,
  path: string,
  limits: RequestLimits,
  hasSession: ((request: Request) => Promise<boolean>) | undefined,
): Promise<Request> {
  if (path.startsWith("/api/webhooks/")) return request;
  if (
    request.method === "POST" &&
    UPLOAD_PATHS.has(path) &&
    isJson(request).type === "multipart/form-data" &&
    // The API's caller was authenticated before this; the web page's is checked here, before the
    // body: without a session the upload limit does not apply (the page answers "sign in first").
    (path.startsWith("/api/v1/") || (await hasSession?.(request)) === true)
  ) {
    // Checked against the upload limit and buffered within it, so the route's form parser cannot take more.
    const max = (limits.maxUploadBytes ?? limits.maxBodyBytes) + FORM_OVERHEAD;
    const size = declaredLength(request);
    if (size !== undefined && size > max) throw tooLarge(max, size);
    const copy = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: (await readBody(request, max)) as Uint8Array<ArrayBuffer>,
      signal: request.signal,
    });
    adoptMeta(copy, request);
    return copy;
  }
  const declared = declaredLength(request);
  const limit = jsonBodyLimit(request, path, limits);
  if (declared !== undefined && declared > limit.max)
    throw limit.capture ? captureTooLarge(limit.max, limits.maxCaptureHtmlBytes!) : tooLarge(limit.max, declared);
  const hasBody = declared !== undefined ? declared > 0 : request.body !== null;
  if (!BODY_METHODS.has(request.method)) return request;
  if (path.startsWith("/api/v1/")) {
    let value: unknown;
    if (hasBody) {
      // The JSON API accepts JSON only; MCP, OAuth and the web app parse their own bodies.
      const { type, json } = isJson(request);
      if (!json)
        throw new AppError(
          "unsupported_media_type",
          `Send the body as application/json, not ${type || "an unlabelled body"}`,
        );
      let bytes: Uint8Array;
      try {
        bytes = await readBody(request, limit.max);
      } catch (e) {
        if (limit.capture && e instanceof AppError && e.code === "payload_too_large")
          throw captureTooLarge(limit.max, limits.maxCaptureHtmlBytes!);
        throw e;
      }
      const text = decodeUtf8(bytes);
      // An empty body is no body: routes that take one say it is missing.
      if (text.trim() !== "") value = parseJson(text, limits.maxJsonDepth);
    }
    Object.defineProperty(request, "json", { value: () => Promise.resolve(value), configurable: true });
    return request;
  }
  if (!hasBody || declared !== undefined) return request;
  // A chunked body for a route that reads its own: buffered here within the limit, so no reader
  // downstream can take more than MAX_BODY_BYTES.
  const copy = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: (await readBody(request, limits.maxBodyBytes)) as Uint8Array<ArrayBuffer>,
    signal: request.signal,
  });
  adoptMeta(copy, request);
  return copy;
}

export function withRequestHandling<A extends HttpApp>(
  app: A,
  opts: {
    logger: Logger;
    limits: RequestLimits;
    apiAuth?: (request: Request) => Promise<Record<string, string>>;
    /** Whether a web request carries a valid session (the web upload's larger limit needs one). */
    hasSession?: (request: Request) => Promise<boolean>;
    page?: ErrorPageRenderer;
  },
) {
  const { logger, limits } = opts;
  return async (request: Request): Promise<Response> => {
    const meta = metaOf(request);
    const sent = request.headers.get("x-request-id");
    if (sent && REQUEST_ID_RE.test(sent)) meta.id = sent;
    const url = request.url;
    // The path the router will match, so no guard below judges a different one.
    const path = routerPathOf(url);
    let extra: Record<string, string> | undefined;
    let res: Response;
    try {
      if (headBytes(request, url.length - hostEnd(url)) > limits.maxHeaderBytes) {
        throw new AppError(
          "header_fields_too_large",
          `The request line and headers take more than ${limits.maxHeaderBytes} bytes`,
        );
      }
      // Who is calling comes first: without a valid key, nothing else about the request is judged.
      if (opts.apiAuth && path.startsWith("/api/v1/")) extra = await opts.apiAuth(request);
      res = await app.handle(await prepareBody(request, path, limits, opts.hasSession));
    } catch (e) {
      if (e instanceof AppError) {
        res =
          (await opts.page?.(request, {
            code: e.code,
            detail: e.detail,
            requestId: meta.id,
            headers: e.extra.headers,
          })) ??
          problemResponse({
            code: e.code,
            detail: e.detail,
            errors: e.extra.errors,
            requestId: meta.id,
            headers: e.extra.headers,
          });
      } else {
        // The error plugin answers for the app; this is the last resort if even that failed.
        logger.error("unhandled error outside the app", {
          request_id: meta.id,
          path,
          error: e instanceof Error ? { message: e.message, stack: e.stack } : String(e),
        });
        const detail = "Something went wrong on our side; the request id identifies it in our logs";
        res =
          (await opts.page?.(request, { code: "internal_error", detail, requestId: meta.id })) ??
          problemResponse({ code: "internal_error", detail, requestId: meta.id });
      }
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
    logger.info("request", {
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

// The request of one hop: built from the caller's URL, then rewritten by each redirect per the fetch rules.
import { FetchError } from "./errors.ts";

export type SafeBody = string | Uint8Array | URLSearchParams;

export interface HopRequest {
  url: URL;
  method: string;
  /** Lowercased names. */
  headers: Record<string, string>;
  body?: SafeBody;
}

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** The URL as reported and logged: never with user:password. */
export function publicHref(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

function checkProtocol(url: URL, what: string): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchError(
      "unsupported_protocol",
      `${what} ${url.protocol} URL refused: only http and https are fetched`,
      publicHref(url),
    );
  }
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    throw new FetchError(
      "invalid_url",
      `${base ? "redirect to an invalid URL" : "not an absolute URL"}: "${shown}"`,
      base?.href,
    );
  }
}

export function startRequest(
  raw: string,
  init: { method?: string; headers?: Record<string, string>; body?: SafeBody },
  userAgent: string,
): HopRequest {
  const url = parseUrl(raw);
  checkProtocol(url, "a");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  // The Host header is ours to set: it must name the host we checked.
  delete headers.host;
  headers["user-agent"] ??= userAgent;
  if (url.username || url.password) {
    // Credentials become a header so the cross-origin redirect rule strips them like any other.
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization ??= `Basic ${Buffer.from(pair, "utf8").toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  return { url, method: (init.method ?? "GET").toUpperCase(), headers, body: init.body };
}

/** The next URL when the response is a redirect to follow; null when it is the final response. */
export function redirectTarget(res: Response, base: URL): URL | null {
  if (!REDIRECT_STATUSES.has(res.status)) return null;
  const location = res.headers.get("location");
  if (location === null || location.trim() === "") return null;
  const next = parseUrl(location.trim(), base);
  checkProtocol(next, "redirect to a");
  next.username = "";
  next.password = "";
  return next;
}

export function redirected(req: HopRequest, status: number, next: URL): HopRequest {
  let { method, body } = req;
  const headers = { ...req.headers };
  const toGet =
    ((status === 301 || status === 302) && method === "POST") ||
    (status === 303 && method !== "GET" && method !== "HEAD");
  if (toGet) {
    method = "GET";
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  if (next.origin !== req.url.origin) {
    for (const name of CREDENTIAL_HEADERS) delete headers[name];
  }
  return { url: next, method, headers, body };
}

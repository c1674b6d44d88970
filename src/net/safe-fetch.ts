// safeFetch: the one way Commonplace reaches the network — SSRF checks, pinned connections, limits.
import { FetchError } from "./errors.ts";
import type { FetchPolicy } from "./fetch-policy.ts";
import { createHostPolicy, type LookupFn, type ResolvedHost } from "./policy.ts";
import {
  MAX_REDIRECTS,
  publicHref,
  redirected,
  redirectTarget,
  startRequest,
  type HopRequest,
  type SafeBody,
} from "./request.ts";
import { finishResponse, type SafeResponse } from "./response.ts";

export const DEFAULT_USER_AGENT = "Commonplace/1.0 (+self-hosted)";

export interface SafeFetchOptions {
  /** What may be fetched (ALLOW_PRIVATE_NETWORK, ALLOWED_HOSTS): the rule imports check URLs by too. */
  policy: FetchPolicy;
  maxBytes: number;
  /**
   * Whole call: every hop and redirect, the connection, the wait for the first byte and the body.
   * A slow server that answers within it is waited for.
   */
  timeoutMs: number;
  /** Per hop: the name lookup (DNS). Bun's fetch reports no "connected" moment, so nothing after it. */
  connectTimeoutMs: number;
  /** The settings the two limits come from, named in timeout errors (e.g. FETCH_TIMEOUT_MS). */
  limitNames?: { timeoutMs?: string; connectTimeoutMs?: string };
  userAgent?: string;
  lookup?: LookupFn;
  /** Trusted CA certificates (PEM) replacing the default store: for tests and private PKIs. */
  ca?: string | string[];
}

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: SafeBody;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  maxBytes?: number;
  /** Allowed content types of a 2xx response: "text/html", "text/*", "*\/*". */
  accept?: readonly string[];
  signal?: AbortSignal;
  /** Default true; false returns a 3xx response as it is. */
  followRedirects?: boolean;
}

export type SafeFetch = (url: string, init?: SafeFetchInit) => Promise<SafeResponse>;

/** "15 s", "1.5 s", "800 ms"; with the setting it comes from when the configured value is in force. */
function limitText(ms: number, setting: string | undefined): string {
  const amount = ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
  return setting ? `${amount} (${setting})` : amount;
}

function deadline(ms: number, reason: () => FetchError) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

// Failures where nothing was sent, so the next address of the same host can be tried safely.
const CONNECT_FAILURES = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "EAFNOSUPPORT",
  "ConnectionRefused",
]);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function networkError(err: unknown, url: URL): FetchError {
  const code = errorCode(err);
  const tls = code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/i.test(code);
  const why = code ?? (err instanceof Error ? err.message : String(err));
  const message = tls
    ? `TLS certificate check failed for ${url.hostname} (${why})`
    : `could not fetch from ${url.host} (${why})`;
  return new FetchError("network_error", message, publicHref(url), { cause: err });
}

/** Dials the checked address itself; the original host travels in Host and in TLS SNI/verification. */
function pinned(req: HopRequest, target: ResolvedHost, address: string, signal: AbortSignal, ca?: string | string[]) {
  const url = new URL(req.url.href);
  url.hostname = address.includes(":") ? `[${address}]` : address;
  url.hash = "";
  const headers = new Headers(req.headers);
  if (target.name) headers.set("host", req.url.host);
  const tls = {
    ...(target.name && url.protocol === "https:" ? { serverName: target.name } : {}),
    ...(ca ? { ca } : {}),
  };
  const init: BunFetchRequestInit = {
    method: req.method,
    headers,
    body: req.body as BodyInit | undefined,
    redirect: "manual",
    signal,
    // An environment proxy would be judged against the IP, not the host we checked; never use one.
    proxy: false,
    ...(Object.keys(tls).length > 0 ? { tls } : {}),
  };
  return fetch(url.href, init);
}

function nextHop(res: Response, base: URL): URL | null {
  try {
    return redirectTarget(res, base);
  } catch (err) {
    res.body?.cancel().catch(() => {});
    throw err;
  }
}

export function createSafeFetch(opts: SafeFetchOptions): SafeFetch {
  const policy = createHostPolicy(opts);
  const userAgent = opts.userAgent ?? DEFAULT_USER_AGENT;

  async function connect(req: HopRequest, target: ResolvedHost, signal: AbortSignal): Promise<Response> {
    let lastError: unknown;
    for (const address of target.addresses) {
      try {
        return await pinned(req, target, address, signal, opts.ca);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        lastError = err;
        if (!CONNECT_FAILURES.has(errorCode(err) ?? "")) break;
      }
    }
    throw networkError(lastError, req.url);
  }

  /** Checks and resolves the hop's host within the connect limit; the request itself runs on `outer` alone. */
  async function resolveHop(req: HopRequest, outer: AbortSignal, connectLimit: string, ms: number) {
    const href = publicHref(req.url);
    const timer = deadline(
      ms,
      () => new FetchError("connect_timeout", `could not look up ${req.url.hostname} within ${connectLimit}`, href),
    );
    const signal = AbortSignal.any([outer, timer.signal]);
    try {
      return await policy.resolve(req.url, href, signal);
    } catch (err) {
      throw signal.aborted ? signal.reason : err;
    } finally {
      timer.clear();
    }
  }

  async function sendHop(req: HopRequest, outer: AbortSignal, connectLimit: string, ms: number): Promise<Response> {
    const target = await resolveHop(req, outer, connectLimit, ms);
    // The connection and the wait for the first byte: until the whole call's deadline. A per-hop limit
    // here made a server that answers after 8 s fail at 5 s (FETCH_CONNECT_TIMEOUT_MS), retried twice.
    try {
      return await connect(req, target, outer);
    } catch (err) {
      throw outer.aborted ? outer.reason : err;
    }
  }

  return async function safeFetch(rawUrl, init = {}) {
    const first = startRequest(rawUrl, init, userAgent);
    const timeoutMs = init.timeoutMs ?? opts.timeoutMs;
    const connectTimeoutMs = init.connectTimeoutMs ?? opts.connectTimeoutMs;
    const totalLimit = limitText(timeoutMs, init.timeoutMs === undefined ? opts.limitNames?.timeoutMs : undefined);
    const connectLimit = limitText(
      connectTimeoutMs,
      init.connectTimeoutMs === undefined ? opts.limitNames?.connectTimeoutMs : undefined,
    );
    const maxBytes = init.maxBytes ?? opts.maxBytes;
    let req = first;
    // Which part of the call the whole-call deadline interrupts, so its error says what was missing.
    let reading = false;
    const total = deadline(
      timeoutMs,
      () =>
        new FetchError(
          "timeout",
          reading
            ? `the response from ${req.url.host} did not finish within ${totalLimit}`
            : `no response from ${req.url.host} within ${totalLimit}`,
          publicHref(req.url),
        ),
    );
    const signal = init.signal ? AbortSignal.any([init.signal, total.signal]) : total.signal;
    try {
      for (let redirects = 0; ; redirects++) {
        const res = await sendHop(req, signal, connectLimit, connectTimeoutMs);
        const next = init.followRedirects === false ? null : nextHop(res, req.url);
        if (!next) {
          reading = true;
          return await finishResponse(res, {
            url: publicHref(req.url),
            redirects,
            method: req.method,
            maxBytes,
            accept: init.accept,
          });
        }
        res.body?.cancel().catch(() => {});
        if (redirects >= MAX_REDIRECTS) {
          throw new FetchError("too_many_redirects", `more than ${MAX_REDIRECTS} redirects`, publicHref(req.url));
        }
        req = redirected(req, res.status, next);
      }
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof FetchError) throw err;
      throw networkError(err, req.url);
    } finally {
      total.clear();
    }
  };
}

// A small HTTP client for OpenAI-compatible model servers: JSON/binary POST, timeouts, retries, clear errors.
import { AppError } from "../errors.ts";

export type AIErrorCode = "ai_timeout" | "ai_http_error" | "ai_bad_response" | "ai_unreachable";

export class AIError extends Error {
  constructor(
    readonly code: AIErrorCode,
    message: string,
    /** The upstream HTTP status, when the server answered. */
    readonly status?: number,
    /** The upstream error message (from `{error: {message}}` or the body text), trimmed. */
    readonly upstreamMessage?: string,
  ) {
    super(message);
    this.name = "AIError";
  }
}

/** Anything shaped like `fetch`: the global one, or the SSRF-guarded one. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OpenAIClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per attempt, covering the whole response body. */
  timeoutMs: number;
  maxRetries?: number;
  fetch?: FetchLike;
  /** First backoff delay; doubles each retry (with jitter), capped by maxBackoffMs. */
  retryBaseMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails at once instead. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface OpenAIClient {
  readonly baseUrl: string;
  postJSON(path: string, body: unknown, opts?: RequestOptions): Promise<unknown>;
  postBinary(path: string, body: unknown, opts?: RequestOptions): Promise<{ contentType: string; body: Uint8Array }>;
}

const RETRYABLE_STATUS = (s: number) => s === 408 || s === 429 || s >= 500;
const MAX_MESSAGE = 300;

/**
 * Joins base URL and path. Callers pass `/v1/...`; a base that already ends in `/v1` (the usual
 * way OpenAI, Ollama and vLLM document theirs) is not given a second one.
 */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  const p = path.startsWith("/") ? path : `/${path}`;
  if (/\/v1$/.test(base) && p.startsWith("/v1/")) return base + p.slice(3);
  return base + p;
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function upstreamMessage(text: string): string {
  let msg = text;
  try {
    const j = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = j.error;
    if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string")
      msg = (e as { message: string }).message;
    else if (typeof e === "string") msg = e;
    else if (typeof j.message === "string") msg = j.message;
    else if (typeof j.detail === "string") msg = j.detail;
  } catch {
    // not JSON: the text itself is the message
  }
  msg = msg.replace(/\s+/g, " ").trim();
  return msg.length > MAX_MESSAGE ? `${msg.slice(0, MAX_MESSAGE)}…` : msg;
}

type Attempt =
  | { ok: true; res: Response; bytes: Uint8Array }
  | { ok: false; error: AIError; retryAfterMs: number | null; retry: boolean };

export function createOpenAIClient(opts: OpenAIClientOptions): OpenAIClient {
  const doFetch: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const maxRetries = opts.maxRetries ?? 3;
  const retryBaseMs = opts.retryBaseMs ?? 500;
  const maxBackoffMs = opts.maxBackoffMs ?? 8_000;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 30_000;
  const sleep = opts.sleep ?? ((ms: number) => Bun.sleep(ms));
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "commonplace" };
  if (opts.apiKey) headers["authorization"] = `Bearer ${opts.apiKey}`;

  async function attempt(url: string, body: string, accept: string, ro: RequestOptions): Promise<Attempt> {
    const timeoutMs = ro.timeoutMs ?? opts.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = ro.signal ? AbortSignal.any([timeout, ro.signal]) : timeout;
    const where = `POST ${new URL(url).pathname}`;
    try {
      const res = await doFetch(url, { method: "POST", headers: { ...headers, accept }, body, signal });
      // Reading the body is inside the same timeout: a server may send headers and then stall.
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.ok) return { ok: true, res, bytes };
      const message = upstreamMessage(new TextDecoder().decode(bytes));
      const error = new AIError(
        "ai_http_error",
        `${where}: model server answered ${res.status}${message ? `: ${message}` : ""}`,
        res.status,
        message,
      );
      return {
        ok: false,
        error,
        retry: RETRYABLE_STATUS(res.status),
        retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
      };
    } catch (err) {
      if (ro.signal?.aborted) throw err;
      if (timeout.aborted) {
        return {
          ok: false,
          error: new AIError("ai_timeout", `${where}: no answer from the model server within ${timeoutMs} ms`),
          retry: false,
          retryAfterMs: null,
        };
      }
      if (err instanceof AIError) throw err;
      const detail = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        error: new AIError("ai_unreachable", `${where}: model server unreachable: ${detail}`),
        retry: true,
        retryAfterMs: null,
      };
    }
  }

  /** Exponential backoff with jitter; a usable Retry-After wins. Timeouts are not retried. */
  async function send(path: string, body: unknown, accept: string, ro: RequestOptions = {}) {
    const url = joinUrl(opts.baseUrl, path);
    const payload = JSON.stringify(body);
    for (let n = 0; ; n++) {
      const a = await attempt(url, payload, accept, ro);
      if (a.ok) return a;
      if (!a.retry || n >= maxRetries) throw a.error;
      if (a.retryAfterMs !== null && a.retryAfterMs > maxRetryAfterMs) throw a.error;
      const backoff = Math.min(maxBackoffMs, retryBaseMs * 2 ** n) * (0.5 + Math.random() * 0.5);
      await sleep(a.retryAfterMs ?? backoff);
    }
  }

  return {
    baseUrl: opts.baseUrl,
    async postJSON(path, body, ro) {
      const { bytes } = await send(path, body, "application/json", ro);
      const text = new TextDecoder().decode(bytes);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new AIError(
          "ai_bad_response",
          `POST ${path}: model server sent a reply that is not JSON: ${upstreamMessage(text) || "(empty)"}`,
        );
      }
    },
    async postBinary(path, body, ro) {
      const { res, bytes } = await send(path, body, "*/*", ro);
      if (bytes.length === 0) throw new AIError("ai_bad_response", `POST ${path}: model server sent an empty body`);
      return { contentType: res.headers.get("content-type") ?? "application/octet-stream", body: bytes };
    },
  };
}

const PUBLIC_DETAIL: Record<AIErrorCode, string> = {
  ai_timeout: "The AI model server did not answer in time",
  ai_unreachable: "The AI model server could not be reached",
  ai_http_error: "The AI model server refused the request",
  ai_bad_response: "The AI model server sent an unusable reply",
};

/**
 * How an AI failure reaches an API caller: 503 when the server cannot be reached or is slow, 502
 * otherwise. Upstream messages stay out of the detail (they can echo keys); log the AIError instead.
 */
export function aiErrorToAppError(err: AIError): AppError {
  const code = err.code === "ai_unreachable" || err.code === "ai_timeout" ? "service_unavailable" : "upstream_error";
  return new AppError(code, err.status ? `${PUBLIC_DETAIL[err.code]} (HTTP ${err.status})` : PUBLIC_DETAIL[err.code]);
}

// Outgoing HTTP for workflows: request building, Standard Webhooks signing, failure classification.
import { isFetchError } from "../../../net/errors.ts";
import type { SafeResponse } from "../../../net/response.ts";
import { isPlainObject, toText } from "../templates.ts";
import { StepFailure } from "./types.ts";

/** Stored response bodies are cut here; the step output says so with `truncated: true`. */
export const STORED_BODY_LIMIT = 256 * 1024;
const RETRY_AFTER_CAP_MS = 60 * 60 * 1000;
const RETRYABLE_FETCH = new Set(["network_error", "connect_timeout", "timeout", "dns_failure"]);

/** A new Standard Webhooks secret: whsec_ + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;
}

/** The three Standard Webhooks headers for one attempt (the id stays the same across retries). */
export function signatureHeaders(
  secret: string,
  msgId: string,
  timestampSec: number,
  body: string,
): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const mac = new Bun.CryptoHasher("sha256", key).update(`${msgId}.${timestampSec}.${body}`).digest("base64");
  return { "webhook-id": msgId, "webhook-timestamp": String(timestampSec), "webhook-signature": `v1,${mac}` };
}

/** JSON text or a form-encoded body from the rendered `body`. */
export function encodeBody(body: unknown, type: "json" | "form"): { text: string; contentType: string } {
  if (type === "json") return { text: JSON.stringify(body ?? null), contentType: "application/json" };
  if (!isPlainObject(body)) throw new StepFailure("invalid_body", "a form body must be an object of fields");
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) for (const item of v) form.append(k, toText(item));
    else if (v !== undefined) form.append(k, toText(v));
  }
  return { text: form.toString(), contentType: "application/x-www-form-urlencoded" };
}

/** Seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A fetch that threw: network trouble is retried, a refused address or URL is not. */
export function fetchFailure(err: unknown): StepFailure {
  if (isFetchError(err)) return new StepFailure(err.code, err.message, { retryable: RETRYABLE_FETCH.has(err.code) });
  if (err instanceof StepFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StepFailure("network_error", message, { retryable: true });
}

/** Status, headers and body (parsed when JSON, else text), size-capped, for `store_response`. */
export function storedResponse(res: SafeResponse): Record<string, unknown> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const truncated = res.body.byteLength > STORED_BODY_LIMIT;
  const text = truncated ? new TextDecoder().decode(res.body.subarray(0, STORED_BODY_LIMIT)) : res.text();
  let body: unknown = text;
  if (!truncated && (res.contentType === "application/json" || res.contentType.endsWith("+json"))) {
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON after all: keep the text, the step still succeeds.
    }
  }
  return { status: res.status, headers, body, ...(truncated ? { truncated: true } : {}) };
}

export function statusFailure(res: SafeResponse, now: number): StepFailure {
  const snippet = res.text().slice(0, 300);
  const retryable = isRetryableStatus(res.status);
  const retryAfterMs = retryable ? parseRetryAfter(res.headers.get("retry-after"), now) : null;
  return new StepFailure(`http_${res.status}`, `the receiver answered ${res.status}${snippet ? `: ${snippet}` : ""}`, {
    retryable,
    ...(retryAfterMs !== null ? { retryAfterMs } : {}),
  });
}

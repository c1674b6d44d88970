// Per-request facts shared by the cross-cutting plugins (request id, start time, actor).
import type { Actor } from "../actor.ts";

/** true: every success shows a secret; a predicate: only responses it accepts do (e.g. a webhook_url present). */
export type SecretOnce = boolean | ((response: Record<string, unknown>) => boolean);

export interface RequestMeta {
  id: string;
  start: number;
  actor?: Actor;
  /** Run by the error plugin when the request fails (e.g. release an idempotency claim). */
  onError?: (() => void | Promise<void>)[];
  /** Set by the secret-once route trait: the response carries a secret shown once, never store it. */
  secretResponse?: SecretOnce;
  /** The TCP peer's address, when the server entry point knows it (app.handle alone does not). */
  peer?: string;
  /**
   * Sets this connection's idle timeout in seconds, when the request came through the server entry
   * point. Only a handler that has accepted the caller may lengthen it (an open event stream).
   */
  setIdleTimeout?: (seconds: number) => void;
}

const metas = new WeakMap<Request, RequestMeta>();
let idPrefix: string | undefined;
let idCounter = 0;

/** A random per-process prefix and a counter: unique, cheap, 32 hex digits like a UUID. */
function nextRequestId(): string {
  idPrefix ??= Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
  idCounter = (idCounter + 1) % 0x10000000000000;
  return `req_${idPrefix}${idCounter.toString(16).padStart(16, "0")}`;
}

/** A copy of a request (its body buffered) keeps the original's id, actor and peer. */
export function adoptMeta(copy: Request, original: Request): void {
  metas.set(copy, metaOf(original));
}

export function metaOf(request: Request): RequestMeta {
  let m = metas.get(request);
  if (!m) {
    m = { id: nextRequestId(), start: performance.now() };
    metas.set(request, m);
  }
  return m;
}

/** Lengthens (or shortens) the idle timeout of the connection a request arrived on, where known. */
export function setIdleTimeout(request: Request, seconds: number): void {
  metaOf(request).setIdleTimeout?.(seconds);
}

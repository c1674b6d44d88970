// Per-request facts shared by the cross-cutting plugins (request id, start time, actor).
import type { Actor } from "../features/accounts/actor.ts";

export interface RequestMeta {
  id: string;
  start: number;
  actor?: Actor;
  /** Run by the error plugin when the request fails (e.g. release an idempotency claim). */
  onError?: (() => void)[];
  /** The response carries a secret shown once (a new key or webhook URL): never store it. */
  secretResponse?: boolean;
}

const metas = new WeakMap<Request, RequestMeta>();

export function metaOf(request: Request): RequestMeta {
  let m = metas.get(request);
  if (!m) {
    m = { id: `req_${crypto.randomUUID().replaceAll("-", "")}`, start: performance.now() };
    metas.set(request, m);
  }
  return m;
}

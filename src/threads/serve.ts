// The thread side of a pool (src/threads/pool.ts): answers `ready` once loaded, then each request
// with the handler's result or its error (with the error's `code` when it has one).
import type { PoolReply, PoolRequest } from "./pool.ts";

export function serveThread<I, O>(
  self: Worker,
  handle: (input: I) => O | Promise<O>,
  /** Buffers of the result moved back to the pool rather than copied. */
  transfer?: (result: O) => Transferable[],
): void {
  // Normal priority, on purpose: a lowered one (nice 10) starved these threads behind other
  // processes on a busy machine, and the HTTP thread answered no faster for it (docs/decisions.md).
  self.onmessage = async (event: MessageEvent<PoolRequest<I>>) => {
    const { id, input } = event.data;
    let reply: PoolReply<O>;
    let moved: Transferable[] = [];
    try {
      const result = await handle(input);
      reply = { id, ok: true, result };
      moved = transfer?.(result) ?? [];
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      reply = {
        id,
        ok: false,
        code: typeof code === "string" ? code : undefined,
        error: err instanceof Error ? err.message : String(err),
      };
    }
    self.postMessage(reply, moved);
  };
  self.postMessage({ ready: true } satisfies PoolReply<O>);
}

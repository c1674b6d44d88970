// The worker-thread half of the request/reply protocol: one handler, failures sent back as replies.
import { errorReply, type WorkerRequest } from "./worker-protocol.ts";

declare var self: Worker;

export interface HandlerResult<R> {
  result: R;
  /** Buffers to move rather than copy back to the caller (e.g. sample arrays). */
  transfer?: Transferable[];
}

/** Call once at the top of a worker entry file. Requests arrive one at a time from the client. */
export function serveWorker<T, R>(handler: (payload: T) => Promise<HandlerResult<R>> | HandlerResult<R>): void {
  // Normal priority, on purpose: a lowered one (nice 10) made synthesis 8x slower on a machine busy
  // with other work, and the HTTP thread answered no faster for it (docs/decisions.md).
  self.onmessage = async (event: MessageEvent<WorkerRequest<T>>) => {
    const { id, payload } = event.data;
    try {
      const { result, transfer = [] } = await handler(payload);
      self.postMessage({ id, ok: true, result }, transfer);
    } catch (err) {
      self.postMessage(errorReply(id, err));
    }
  };
}

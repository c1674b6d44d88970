// Messages between a worker client and its worker thread: requests and replies matched by id.
import { AppError, isErrorCode } from "../../errors.ts";

export interface WorkerRequest<T> {
  id: number;
  payload: T;
}

export type WorkerReply<R> =
  | { id: number; ok: true; result: R }
  | { id: number; ok: false; error: string; code?: string };

/** What crosses the thread boundary for a failure: the message, plus the code of an AppError. */
export function errorReply(id: number, err: unknown): WorkerReply<never> {
  if (err instanceof AppError) return { id, ok: false, error: err.detail ?? err.message, code: err.code };
  return { id, ok: false, error: err instanceof Error ? err.message : String(err) };
}

/** Rebuilds the thrown error on the calling side, keeping AppError codes. */
export function replyError(reply: { error: string; code?: string }): Error {
  if (reply.code && isErrorCode(reply.code)) return new AppError(reply.code, reply.error);
  return new Error(reply.error);
}

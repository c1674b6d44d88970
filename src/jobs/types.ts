// Shapes shared by the queue, the runner and the features that register job handlers.
import type { Static, TSchema } from "@sinclair/typebox";
import type { Logger } from "../log.ts";

export type JobStatus = "queued" | "running" | "succeeded" | "failed";

export interface Job {
  id: string;
  type: string;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  /** null: the handler's limit (or the runner default) applies. */
  maxAttempts: number | null;
  runAt: number;
  leaseUntil: number | null;
  lockedBy: string | null;
  lastError: string | null;
  idempotencyKey: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface EnqueueOptions {
  /** Run no sooner than this many ms from now. */
  delayMs?: number;
  /** Absolute due time (ms epoch); wins over delayMs. */
  runAt?: number;
  /** Same (type, key) again returns the existing job instead of adding one. */
  idempotencyKey?: string;
  maxAttempts?: number;
}

/** Proof of ownership of a claimed job: a worker whose lease was taken over cannot overwrite it. */
export interface JobLock {
  workerId: string;
  attempt: number;
}

export interface JobContext {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the runner stops past its grace period or the lease was lost. */
  signal: AbortSignal;
  logger: Logger;
}

export interface JobHandler<S extends TSchema = TSchema> {
  /** Checked before handle() runs; a payload that does not match fails the job at once. */
  payload?: S;
  handle(payload: Static<S>, ctx: JobContext): Promise<void>;
  maxAttempts?: number;
  /** Delay before the next try, given the attempt that just failed (1-based). */
  backoff?: (attempt: number) => number;
  /**
   * A background lane: at most this many jobs of this type run at once in one runner, and they are
   * claimed only after every other due job, so bulk work (imports) never takes the slots of
   * interactive work.
   */
  maxConcurrent?: number;
}

/** Keeps the payload type tied to the schema when a feature declares its handler. */
export function defineJob<S extends TSchema>(handler: JobHandler<S>): JobHandler<S> {
  return handler;
}

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

/**
 * A job type as a typed handle: the producer enqueues it and the feature that handles it registers a
 * handler for it, both by importing the same constant, so "go to references" leads from every enqueue
 * to its handler. `type` is the name stored in the jobs table (never rename one: queued rows carry it);
 * `payload` types enqueue and is checked before the handler runs.
 */
export interface JobDef<S extends TSchema = TSchema> {
  readonly type: string;
  readonly payload: S;
}

export function defineJob<S extends TSchema>(type: string, payload: S): JobDef<S> {
  if (!type) throw new Error("job type is required");
  return Object.freeze({ type, payload });
}

/** A handler tied to its job handle: what a feature lists in `jobs` and the root registers. */
export interface JobRegistration {
  readonly job: JobDef;
  readonly handler: JobHandler<any>;
}

/** Declares the handler of `job`; its payload is the handle's schema, so the runner checks it. */
export function handleJob<S extends TSchema>(job: JobDef<S>, handler: Omit<JobHandler<S>, "payload">): JobRegistration {
  return { job, handler: { ...handler, payload: job.payload } };
}

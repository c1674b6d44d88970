// The durable job queue (over either engine's JobsRepo): enqueue joins the caller's transaction (outbox),
// claims use leases, and runners are woken after commit — in this process directly, in others by JobWakeups.
import type { Static, TSchema } from "@sinclair/typebox";
import type { Db } from "../db/port.ts";
import { newId } from "../ids.ts";
import { systemClock, type Clock } from "../time.ts";
import type { JobsRepo } from "./repo.ts";
import type { EnqueueOptions, Job, JobDef, JobLock, JobStatus } from "./types.ts";

/**
 * How queues in other processes hear of new jobs (PostgreSQL: NOTIFY inside the enqueueing transaction,
 * delivered at its commit, and LISTEN). Absent when one process owns the database (SQLite).
 */
export interface JobWakeups {
  announce(payload: string): Promise<void>;
  /** Calls fn for each announcement; onListen once subscribed and again after a dropped connection. */
  listen(fn: (payload: string) => void, onListen: () => void): Promise<void>;
}

export interface QueueDeps {
  /** Wake-ups in this process wait for the caller's commit. */
  db: Db;
  repo: JobsRepo;
  wakeups?: JobWakeups;
  clock?: Clock;
}

export type JobCounts = Record<JobStatus, number>;

const MAX_ERROR_CHARS = 4000;
const PRUNE_BATCH = 500;

export function createQueue(deps: QueueDeps) {
  const { repo, wakeups } = deps;
  const clock = deps.clock ?? systemClock;
  const listeners = new Set<(type: string | null) => void>();
  // Tells this queue's own NOTIFYs apart: local listeners were already called after the commit.
  const sender = crypto.randomUUID().slice(0, 8);
  let listening: Promise<void> | null = null;

  /** Subscribes once to other processes' announcements (when there are any), so their enqueues wake us too. */
  function listenForOthers(): Promise<void> {
    if (!wakeups) return Promise.resolve();
    listening ??= wakeups
      .listen(
        (payload) => {
          const space = payload.indexOf(" ");
          if (payload.slice(0, space) === sender) return;
          const type = payload.slice(space + 1);
          listeners.forEach((l) => l(type));
        },
        // Subscribed (again, after a dropped connection): anything may have been enqueued in the gap.
        () => listeners.forEach((l) => l(null)),
      )
      .catch((err: unknown) => {
        listening = null;
        throw err;
      });
    return listening;
  }

  /** The payload is typed by the job's handle; the stored row keeps only `job.type`. */
  async function enqueue<S extends TSchema>(
    job: JobDef<S>,
    payload: Static<S>,
    opts: EnqueueOptions = {},
  ): Promise<{ id: string; created: boolean }> {
    const type = job.type;
    if (!type) throw new Error("job type is required");
    if (opts.maxAttempts !== undefined && !(Number.isInteger(opts.maxAttempts) && opts.maxAttempts >= 1)) {
      throw new Error(`maxAttempts must be a whole number ≥ 1, got ${opts.maxAttempts}`);
    }
    const now = clock.now();
    const runAt = Math.round(opts.runAt ?? now + Math.max(0, opts.delayMs ?? 0));
    const key = opts.idempotencyKey ?? null;
    const id = await repo.insert({
      id: newId("job"),
      type,
      payload: JSON.stringify(payload ?? null),
      maxAttempts: opts.maxAttempts ?? null,
      runAt,
      idempotencyKey: key,
      now,
    });
    if (id === null) return { id: (await repo.idByKey(type, key!))!, created: false };
    // Listeners run once the caller's transaction has committed (never if it rolls back).
    if (listeners.size > 0) deps.db.afterCommit(() => listeners.forEach((l) => l(type)));
    // Other processes' runners: the announcement is delivered when the caller's transaction commits.
    if (wakeups) await wakeups.announce(`${sender} ${type}`);
    return { id, created: true };
  }

  return {
    enqueue,

    /** Atomically takes up to `limit` due jobs (queued and due, or running with an expired lease). */
    async claim(workerId: string, limit: number, leaseMs: number, types?: readonly string[]): Promise<Job[]> {
      if (limit <= 0 || (types && types.length === 0)) return [];
      const now = clock.now();
      return repo.claim({ workerId, limit, leaseUntil: now + leaseMs, now, types: types ? [...types] : null });
    },

    /** Marks a running job succeeded. With `lock`, only if this worker still holds it. */
    async complete(id: string, lock?: JobLock): Promise<boolean> {
      return repo.complete(id, lock, clock.now());
    },

    /** retryAt: queue again at that time; null/absent: final failure. */
    async fail(id: string, error: unknown, opts: { retryAt?: number | null; lock?: JobLock } = {}): Promise<boolean> {
      const message = errorText(error);
      const now = clock.now();
      if (opts.retryAt === undefined || opts.retryAt === null) return repo.fail(id, opts.lock, message, now);
      return repo.retry(id, opts.lock, message, Math.round(opts.retryAt), now);
    },

    /** Hands a running job back, due now, without counting the attempt (graceful shutdown). */
    async release(id: string, lock?: JobLock): Promise<boolean> {
      return repo.release(id, lock, clock.now());
    },

    /**
     * Whether `attempt` of the job still holds its lease. Called inside a transaction that records the
     * job's result, it keeps the job from being taken over until that commit (a lease that ran out while
     * a handler was stalled must not let two attempts both record a finished step).
     */
    async holdsLease(id: string, attempt: number): Promise<boolean> {
      return repo.holdsLease(id, attempt);
    },

    async extendLease(id: string, until: number, lock?: JobLock): Promise<boolean> {
      return repo.extendLease(id, lock, until, clock.now());
    },

    async get(id: string): Promise<Job | null> {
      return repo.get(id);
    },

    async counts(type?: string): Promise<JobCounts> {
      const out: JobCounts = { queued: 0, running: 0, succeeded: 0, failed: 0 };
      for (const r of await repo.counts(type ?? null)) out[r.status] = r.n;
      return out;
    },

    /** Deletes finished jobs older than the cut-offs (ms epoch), in small batches to keep write locks short. */
    async prune(opts: { succeededBefore: number; failedBefore?: number }): Promise<number> {
      let total = 0;
      const cuts: ["succeeded" | "failed", number | undefined][] = [
        ["succeeded", opts.succeededBefore],
        ["failed", opts.failedBefore],
      ];
      for (const [status, before] of cuts) {
        if (before === undefined) continue;
        let n: number;
        do {
          n = await repo.prune(status, before, PRUNE_BATCH);
          total += n;
        } while (n === PRUNE_BATCH);
      }
      return total;
    },

    /**
     * Called (asynchronously) after each new job — on PostgreSQL also for jobs enqueued by other
     * processes, and with null when jobs may have been missed (a re-established LISTEN connection).
     * The runner uses it to wake up. Returns an unsubscribe.
     */
    onEnqueue(listener: (type: string | null) => void): () => void {
      listeners.add(listener);
      listenForOthers().catch(() => {});
      return () => listeners.delete(listener);
    },

    /** Resolves once enqueues in other processes reach onEnqueue listeners (at once on SQLite). */
    listening(): Promise<void> {
      return listenForOthers();
    },

    now(): number {
      return clock.now();
    },
  };
}
export type Queue = ReturnType<typeof createQueue>;

export function errorText(error: unknown): string {
  let text: string;
  if (error instanceof Error)
    text = error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  else text = typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

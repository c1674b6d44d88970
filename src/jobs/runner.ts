// The job runner: a poll loop that claims due jobs up to a concurrency limit, plus drain() for tests.
import { hostname } from "node:os";
import type { TSchema } from "@sinclair/typebox";
import type { Logger } from "../log.ts";
import { silentLogger } from "../log.ts";
import type { Clock } from "../time.ts";
import { execute, type Execution, type Outcome } from "./execute.ts";
import { errorText, type Queue } from "./queue.ts";
import type { JobHandler } from "./types.ts";

export interface RunnerDeps {
  queue: Queue;
  handlers?: Record<string, JobHandler<any>>;
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  /** Defaults to the queue's clock. */
  clock?: Clock;
  logger?: Logger;
  /** How long finished jobs are kept before prune() removes them. */
  retention?: { succeededMs?: number; failedMs?: number };
  pruneEveryMs?: number;
  /**
   * For drain(): resolves when work begun outside the queue that may still enqueue jobs (listeners
   * told after a commit) has ended. Awaited before each claim, so drain() does not stop early.
   */
  settle?: () => Promise<void>;
}

export interface RunSummary {
  ran: number;
  succeeded: number;
  retried: number;
  failed: number;
}

const DAY = 24 * 60 * 60 * 1000;
// After aborting handlers at the end of the grace period, stop() waits at most this long (or graceMs) more.
const ABORT_SETTLE_MS = 1_000;

export function createRunner(deps: RunnerDeps) {
  const queue = deps.queue;
  const clock = deps.clock ?? { now: () => queue.now() };
  const logger = deps.logger ?? silentLogger;
  const concurrency = Math.max(1, deps.concurrency ?? 4);
  const leaseMs = deps.leaseMs ?? 60_000;
  const pollMs = deps.pollMs ?? 500;
  const retention = {
    succeededMs: deps.retention?.succeededMs ?? 7 * DAY,
    failedMs: deps.retention?.failedMs ?? 30 * DAY,
  };
  const pruneEveryMs = deps.pruneEveryMs ?? 60 * 60 * 1000;
  const workerId = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, JobHandler>(Object.entries(deps.handlers ?? {}));
  const inFlight = new Set<Execution>();
  let finished = 0; // executions ended so far: drain() compares it across a claim
  const execDeps = { queue, clock, logger, leaseMs };

  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  let lastPrune = -Infinity;

  function register<S extends TSchema>(type: string, handler: JobHandler<S>): void {
    if (handlers.has(type)) throw new Error(`a handler for job type "${type}" is already registered`);
    handlers.set(type, handler as JobHandler);
    wake();
  }

  let filling: Promise<unknown> = Promise.resolve();
  /**
   * Claims as many due jobs as there are free slots and starts them; never throws. Passes run one
   * after another, so two wake-ups never count the same free slot twice while a claim is awaited.
   */
  function fill(): Promise<Promise<Outcome>[]> {
    const pass = filling.then(fillNow, fillNow);
    filling = pass;
    return pass;
  }

  async function fillNow(): Promise<Promise<Outcome>[]> {
    let slots = concurrency - inFlight.size;
    if (slots <= 0 || handlers.size === 0) return [];
    const open: string[] = [];
    const lanes: [string, number][] = [];
    for (const [type, h] of handlers) {
      if (h.maxConcurrent === undefined) open.push(type);
      else lanes.push([type, h.maxConcurrent]);
    }
    const jobs: Execution["job"][] = [];
    try {
      // Ordinary jobs first; lane jobs only take what is left, and never more than their cap.
      if (open.length > 0) jobs.push(...(await queue.claim(workerId, slots, leaseMs, open)));
      slots -= jobs.length;
      for (const [type, cap] of lanes) {
        if (slots <= 0) break;
        let running = 0;
        for (const e of inFlight) if (e.job.type === type) running++;
        const take = Math.min(slots, cap - running);
        if (take <= 0) continue;
        const got = await queue.claim(workerId, take, leaseMs, [type]);
        jobs.push(...got);
        slots -= got.length;
      }
    } catch (err) {
      logger.error("claiming jobs failed", { error: errorText(err) });
    }
    return jobs.map((job) => launch(job));
  }

  function launch(job: Execution["job"]): Promise<Outcome> {
    const exec = {
      job,
      lock: { workerId, attempt: job.attempts },
      controller: new AbortController(),
      shutdown: false,
    } as Execution;
    inFlight.add(exec);
    exec.done = execute(execDeps, exec, handlers.get(job.type))
      .catch((err): Outcome => {
        // Only the queue's own writes can land here (e.g. the database is gone); the job's lease will run out.
        logger.error("recording a job outcome failed", { job_id: job.id, error: errorText(err) });
        return "lost";
      })
      .finally(() => {
        inFlight.delete(exec);
        finished++;
        if (running) wake();
      });
    return exec.done;
  }

  async function tick(): Promise<void> {
    timer = undefined;
    if (!running) return;
    await maybePrune();
    void fill(); // never rejects; awaiting it here would let a wake-up start a second timer
    timer = setTimeout(() => void tick(), pollMs);
  }

  async function maybePrune(): Promise<void> {
    const now = clock.now();
    if (now - lastPrune < pruneEveryMs) return;
    lastPrune = now;
    try {
      const removed = await queue.prune({
        succeededBefore: now - retention.succeededMs,
        failedBefore: now - retention.failedMs,
      });
      if (removed > 0) logger.info("pruned finished jobs", { removed });
    } catch (err) {
      logger.warn("pruning jobs failed", { error: errorText(err) });
    }
  }

  /** Look for work now instead of at the next poll (the queue calls this after each enqueue). */
  function wake(): void {
    if (!running) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void tick(), 0);
  }

  function start(): void {
    if (running) return;
    running = true;
    unsubscribe = queue.onEnqueue((type) => {
      if (type === null || handlers.has(type)) wake();
    });
    wake();
  }

  /** Stops claiming, waits up to graceMs for running handlers, then aborts them and hands their jobs back. */
  async function stop(opts: { graceMs?: number } = {}): Promise<void> {
    running = false;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    unsubscribe?.();
    unsubscribe = undefined;
    const graceMs = opts.graceMs ?? 30_000;
    await settleWithin(
      [...inFlight].map((e) => e.done),
      graceMs,
    );
    const left = [...inFlight];
    if (left.length === 0) return;
    logger.warn("aborting running jobs at shutdown", { jobs: left.map((e) => e.job.id) });
    for (const exec of left) {
      exec.shutdown = true;
      exec.controller.abort(new Error("job runner stopping"));
    }
    await settleWithin(
      left.map((e) => e.done),
      Math.min(graceMs, ABORT_SETTLE_MS),
    );
    // Handlers that ignore their signal: free their jobs now rather than when the lease runs out.
    for (const exec of left) {
      if (!inFlight.has(exec)) continue;
      try {
        await queue.release(exec.job.id, exec.lock);
      } catch (err) {
        logger.warn("releasing a job at shutdown failed", { job_id: exec.job.id, error: errorText(err) });
      }
    }
  }

  /** One pass: claims the jobs due now (up to the free slots), runs them, waits for them. */
  async function runDue(): Promise<RunSummary> {
    return summarize(await Promise.all(await fill()));
  }

  /**
   * For tests: runs due jobs, including ones their handlers enqueue, until none is due and none is
   * running. Jobs due in the future (delays, backoff) are not waited for. Rejects after timeoutMs.
   */
  async function drain(opts: { timeoutMs?: number } = {}): Promise<RunSummary> {
    const timeoutMs = opts.timeoutMs ?? 120_000;
    // Both a timer and a clock check: handlers that only ever await microtasks would starve the timer.
    const end = performance.now() + timeoutMs;
    const outcomes: Promise<Outcome>[] = [];
    let timedOut = false;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<void>((resolve) => {
      deadline = setTimeout(() => resolve(void (timedOut = true)), timeoutMs);
    });
    try {
      for (;;) {
        const before = finished;
        await deps.settle?.();
        const started = await fill();
        outcomes.push(...started);
        if (inFlight.size === 0) {
          // Done only if that claim began after the last job ended: a job that ended while the claim
          // was awaited may have enqueued work the claim's snapshot could not see.
          if (started.length === 0 && finished === before) break;
        } else {
          await Promise.race([expired, ...[...inFlight].map((e) => e.done)]);
        }
        if (timedOut || performance.now() > end) throw drainTimeout(timeoutMs);
      }
    } finally {
      clearTimeout(deadline);
    }
    return summarize(await Promise.all(outcomes));
  }

  function drainTimeout(timeoutMs: number): Error {
    const stuck = [...inFlight].map((e) => `${e.job.type}:${e.job.id}`);
    return new Error(`drain() timed out after ${timeoutMs} ms; still running: ${stuck.join(", ") || "none"}`);
  }

  /**
   * Resolves once no job of these types is running here, or after maxWaitMs at the latest: bulk work
   * (an import's record creation) calls it between its slices so interactive jobs go first.
   */
  async function quietFor(types: ReadonlySet<string>, maxWaitMs: number): Promise<void> {
    const end = performance.now() + maxWaitMs;
    for (;;) {
      const busy = [...inFlight].filter((e) => types.has(e.job.type)).map((e) => e.done);
      const left = end - performance.now();
      if (busy.length === 0 || left <= 0) return;
      let t: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([...busy, new Promise<void>((resolve) => (t = setTimeout(resolve, left)))]);
      clearTimeout(t);
    }
  }

  return {
    workerId,
    register,
    quietFor,
    start,
    stop,
    wake,
    runDue,
    drain,
    /** Handlers running right now. */
    active: () => inFlight.size,
    types: () => [...handlers.keys()],
  };
}
export type Runner = ReturnType<typeof createRunner>;

async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let t: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => (t = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), limit]);
  clearTimeout(t);
}

function summarize(outcomes: Outcome[]): RunSummary {
  const s: RunSummary = { ran: outcomes.length, succeeded: 0, retried: 0, failed: 0 };
  for (const o of outcomes) if (o === "succeeded" || o === "retried" || o === "failed") s[o]++;
  return s;
}

// A pool of worker threads for parsers of outside data (pages, PDFs, import files): a wall-clock limit
// per job and a bound on the memory one job may add. A thread that overruns is terminated and
// replaced and its job fails with the error its pool names, so one hostile input never stalls the
// thread that answers requests. Each pool has its own worker script speaking the protocol below.
import type { Logger } from "../log.ts";
import { createMemoryGuard } from "./memory-guard.ts";

/** What the pool sends a thread, and what the thread answers (`ready` once, when loaded). */
export interface PoolRequest<I> {
  id: number;
  input: I;
}
export type PoolReply<O> =
  | { ready: true }
  | { id: number; ok: true; result: O }
  | { id: number; ok: false; code?: string; error: string };

export interface ThreadPoolOptions<I> {
  /** The worker script. */
  url: URL | string;
  /** Threads at most (≥ 1). */
  size: number;
  timeoutMs: number;
  /** Growth of the process's RSS one job may cause before it is stopped; 0 = unbounded. */
  maxMemoryMb: number;
  /** An idle thread is stopped after this long, returning its memory (default 60 s). */
  idleMs?: number;
  /** How often RSS is read while jobs run (default 100 ms). */
  sampleMs?: number;
  logger?: Logger;
  /** What the pool is called in log lines and crash messages ("extraction", "import parsing"). */
  name: string;
  /** The errors a job fails with when its thread is stopped, and when the thread reports one. */
  errors: {
    timeout(ms: number): Error;
    memory(limitMb: number, grownMb: number): Error;
    fromReply(code: string | undefined, message: string): Error;
  };
  /** What a log line names about a job's input (its URL, its format); nothing by default. */
  describe?(input: I): Record<string, unknown>;
  /** Byte buffers moved to the thread rather than copied (the input is not used after it is sent). */
  transfer?(input: I): Transferable[];
}

export interface ThreadPoolStats {
  threads: number;
  /** Jobs handed to a thread (some may wait for the thread to start). */
  busy: number;
  /** Jobs running in a started thread, their limits counting. */
  running: number;
  queued: number;
  /** Threads terminated for a timeout or the memory bound, or that crashed. */
  replaced: number;
}

export interface ThreadPool<I, O> {
  /** `background`: bulk work; waits behind every interactive job queued. */
  run(input: I, opts?: { background?: boolean }): Promise<O>;
  /** Fails what is pending and stops every thread; a later call starts new ones. */
  close(): Promise<void>;
  stats(): ThreadPoolStats;
}

interface Job<I, O> {
  id: number;
  input: I;
  background: boolean;
  resolve(value: O): void;
  reject(err: unknown): void;
}

interface Slot<I, O> {
  worker: Worker & { ref?(): void; unref?(): void };
  ready: boolean;
  job?: Job<I, O>;
  /** Set once the job runs in a ready thread: the limits count from then, not from thread start. */
  startedAt: number;
  rssAtStart: number;
  timer?: ReturnType<typeof setTimeout>;
  idleTimer?: ReturnType<typeof setTimeout>;
}

// Loading a thread's modules takes well under a second; this only catches a thread that never starts.
const STARTUP_MS = 30_000;

export function createThreadPool<I, O>(opts: ThreadPoolOptions<I>): ThreadPool<I, O> {
  const idleMs = opts.idleMs ?? 60_000;
  const slots: Slot<I, O>[] = [];
  const queue: Job<I, O>[] = [];
  let nextId = 1;
  let replaced = 0;

  const running = () => slots.filter((s) => s.job && s.ready);
  const guard = createMemoryGuard({
    maxGrowthBytes: opts.maxMemoryMb * 1024 * 1024,
    sampleMs: opts.sampleMs ?? 100,
    running,
    overrun: (slot, grown) => kill(slot, opts.errors.memory(opts.maxMemoryMb, Math.round(grown / 1048576))),
  });

  const clearTimers = (slot: Slot<I, O>) => {
    clearTimeout(slot.timer);
    clearTimeout(slot.idleTimer);
    slot.timer = slot.idleTimer = undefined;
  };

  /** Removes a thread for good: its job (if any) fails with `err`, and the queue moves on. */
  const kill = (slot: Slot<I, O>, err: Error) => {
    const at = slots.indexOf(slot);
    if (at < 0) return; // already gone
    slots.splice(at, 1);
    clearTimers(slot);
    slot.worker.terminate();
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      replaced++;
      opts.logger?.warn(`${opts.name} worker stopped`, {
        reason: err.message,
        code: (err as { code?: unknown }).code,
        ...opts.describe?.(job.input),
      });
      job.reject(err);
    }
    pump();
  };

  const spawn = (): Slot<I, O> => {
    const worker: Slot<I, O>["worker"] = new Worker(opts.url);
    const slot: Slot<I, O> = { worker, ready: false, startedAt: 0, rssAtStart: 0 };
    worker.onmessage = (event: MessageEvent<PoolReply<O>>) => onReply(slot, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      kill(slot, new Error(`the ${opts.name} worker crashed: ${event.message || "uncaught error"}`));
    };
    worker.addEventListener("close", () => kill(slot, new Error(`the ${opts.name} worker exited`)));
    slots.push(slot);
    return slot;
  };

  const arm = (slot: Slot<I, O>) => {
    slot.startedAt = performance.now();
    slot.rssAtStart = guard.rss();
    slot.timer = setTimeout(() => kill(slot, opts.errors.timeout(opts.timeoutMs)), opts.timeoutMs);
    guard.wake();
  };

  const onReply = (slot: Slot<I, O>, reply: PoolReply<O>) => {
    if (!slots.includes(slot)) return; // a late word from a thread already stopped
    if ("ready" in reply) {
      slot.ready = true;
      clearTimeout(slot.timer);
      if (slot.job) arm(slot);
      return;
    }
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (reply.ok) job.resolve(reply.result);
    else job.reject(opts.errors.fromReply(reply.code, reply.error));
    pump();
  };

  const idle = (slot: Slot<I, O>) => {
    // An idle thread must not keep the process alive, and after a while gives its memory back.
    slot.worker.unref?.();
    slot.idleTimer ??= setTimeout(() => {
      if (!slot.job) kill(slot, new Error("idle"));
    }, idleMs);
    (slot.idleTimer as { unref?: () => void }).unref?.();
  };

  const pump = () => {
    while (queue.length > 0) {
      let slot = slots.find((s) => !s.job);
      if (!slot) {
        if (slots.length >= opts.size) break;
        slot = spawn();
      }
      const job = queue.shift()!;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      slot.job = job;
      slot.worker.ref?.();
      const message: PoolRequest<I> = { id: job.id, input: job.input };
      slot.worker.postMessage(message, opts.transfer?.(job.input) ?? []);
      if (slot.ready) arm(slot);
      else {
        const starting = slot;
        starting.timer = setTimeout(
          () => kill(starting, new Error(`the ${opts.name} worker did not start`)),
          Math.max(STARTUP_MS, opts.timeoutMs),
        );
      }
    }
    for (const slot of slots) if (!slot.job) idle(slot);
  };

  return {
    run(input, o) {
      return new Promise<O>((resolve, reject) => {
        const job: Job<I, O> = { id: nextId++, input, background: o?.background === true, resolve, reject };
        // An interactive job goes ahead of every background one still waiting (FIFO within each kind).
        const at = job.background ? -1 : queue.findIndex((j) => j.background);
        if (at < 0) queue.push(job);
        else queue.splice(at, 0, job);
        pump();
      });
    },
    async close() {
      guard.stop();
      for (const job of queue.splice(0)) job.reject(new Error(`the ${opts.name} pool was closed`));
      for (const slot of slots.splice(0)) {
        clearTimers(slot);
        slot.job?.reject(new Error(`the ${opts.name} pool was closed`));
        slot.job = undefined;
        slot.worker.terminate();
      }
    },
    stats: () => ({
      threads: slots.length,
      busy: slots.filter((s) => s.job).length,
      running: running().length,
      queued: queue.length,
      replaced,
    }),
  };
}

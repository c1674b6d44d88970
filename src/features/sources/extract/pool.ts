// The extraction pool: HTML and PDF extraction in worker threads with a wall-clock limit per job and
// a bound on memory growth. A worker that overruns is terminated and replaced; its job fails with
// `extraction_timeout` or `too_complex`, so one hostile page never stalls the server.
import { workerUrl } from "../../../ai/speech/worker-client.ts";
import type { Logger } from "../../../log.ts";
import { extract, extractableType } from "./index.ts";
import { createMemoryGuard } from "./memory-guard.ts";
import type { ExtractReply, ExtractRequest } from "./pool-protocol.ts";
import {
  EXTRACT_ERROR_CODES,
  ExtractError,
  type ExtractErrorCode,
  type ExtractInput,
  type ExtractLimits,
  type Extracted,
} from "./types.ts";

export interface ExtractPoolOptions {
  /** Worker threads at most; 0 extracts on the calling thread (no time or memory bound). */
  size: number;
  timeoutMs: number;
  /** Growth of the process's RSS one job may cause before it is stopped; 0 = unbounded. */
  maxMemoryMb: number;
  limits: ExtractLimits;
  logger?: Logger;
  /** Where the worker entry lives; the default finds it both in development and in a compiled binary. */
  workerUrl?: URL | string;
  /** An idle thread is stopped after this long, returning its memory (default 60 s). */
  idleMs?: number;
  /** How often RSS is read while jobs run (default 100 ms). */
  sampleMs?: number;
}

export interface ExtractorStats {
  threads: number;
  /** Jobs handed to a thread (some may wait for the thread to start). */
  busy: number;
  /** Jobs running in a started thread, their limits counting. */
  running: number;
  queued: number;
  /** Threads terminated for a timeout or the memory bound, or that crashed. */
  replaced: number;
}

export interface Extractor {
  /** `background`: bulk work (an imported page); waits behind every interactive job queued. */
  extract(input: ExtractInput, opts?: { background?: boolean }): Promise<Extracted>;
  /** Fails what is pending and stops every thread; a later call starts new ones. */
  close(): Promise<void>;
  stats(): ExtractorStats;
}

interface Job {
  id: number;
  input: ExtractInput;
  background: boolean;
  resolve(value: Extracted): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker & { ref?(): void; unref?(): void };
  ready: boolean;
  job?: Job;
  /** Set once the job runs in a ready thread: the limits count from then, not from thread start. */
  startedAt: number;
  rssAtStart: number;
  timer?: ReturnType<typeof setTimeout>;
  idleTimer?: ReturnType<typeof setTimeout>;
}

export function defaultExtractWorkerUrl(): URL {
  return workerUrl("./worker.ts", import.meta.url, "features/sources/extract/worker.ts");
}

// Loading a thread's modules takes well under a second; this only catches a thread that never starts.
const STARTUP_MS = 30_000;

const isCode = (code: unknown): code is ExtractErrorCode => EXTRACT_ERROR_CODES.includes(code as ExtractErrorCode);

/** The pool, or with `size: 0` extraction on the calling thread behind the same interface. */
export function createExtractor(opts: ExtractPoolOptions): Extractor {
  if (opts.size > 0) return createExtractPool(opts);
  return {
    extract: (input) => extract(input, opts.limits),
    close: async () => undefined,
    stats: () => ({ threads: 0, busy: 0, running: 0, queued: 0, replaced: 0 }),
  };
}

export function createExtractPool(opts: ExtractPoolOptions): Extractor {
  const url = opts.workerUrl ?? defaultExtractWorkerUrl();
  const idleMs = opts.idleMs ?? 60_000;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let replaced = 0;

  const running = () => slots.filter((s) => s.job && s.ready);
  const guard = createMemoryGuard({
    maxGrowthBytes: opts.maxMemoryMb * 1024 * 1024,
    sampleMs: opts.sampleMs ?? 100,
    running,
    overrun: (slot, grown) =>
      kill(
        slot,
        new ExtractError(
          "too_complex",
          `extraction used more than ${opts.maxMemoryMb} MB of memory (${Math.round(grown / 1048576)} MB) and was stopped`,
        ),
      ),
  });

  const clearTimers = (slot: Slot) => {
    clearTimeout(slot.timer);
    clearTimeout(slot.idleTimer);
    slot.timer = slot.idleTimer = undefined;
  };

  /** Removes a thread for good: its job (if any) fails with `err`, and the queue moves on. */
  const kill = (slot: Slot, err: Error) => {
    const at = slots.indexOf(slot);
    if (at < 0) return; // already gone
    slots.splice(at, 1);
    clearTimers(slot);
    slot.worker.terminate();
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      replaced++;
      opts.logger?.warn("extraction worker stopped", {
        reason: err.message,
        code: (err as ExtractError).code,
        url: job.input.url,
      });
      job.reject(err);
    }
    pump();
  };

  const spawn = (): Slot => {
    const worker: Slot["worker"] = new Worker(url);
    const slot: Slot = { worker, ready: false, startedAt: 0, rssAtStart: 0 };
    worker.onmessage = (event: MessageEvent<ExtractReply>) => onReply(slot, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      kill(slot, new Error(`the extraction worker crashed: ${event.message || "uncaught error"}`));
    };
    worker.addEventListener("close", () => kill(slot, new Error("the extraction worker exited")));
    slots.push(slot);
    return slot;
  };

  const arm = (slot: Slot) => {
    slot.startedAt = performance.now();
    slot.rssAtStart = guard.rss();
    slot.timer = setTimeout(
      () =>
        kill(
          slot,
          new ExtractError("extraction_timeout", `extraction took longer than ${opts.timeoutMs} ms and was stopped`),
        ),
      opts.timeoutMs,
    );
    guard.wake();
  };

  const onReply = (slot: Slot, reply: ExtractReply) => {
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
    else job.reject(isCode(reply.code) ? new ExtractError(reply.code, reply.error) : new Error(reply.error));
    pump();
  };

  const idle = (slot: Slot) => {
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
      slot.worker.postMessage({ id: job.id, input: job.input, limits: opts.limits } satisfies ExtractRequest);
      if (slot.ready) arm(slot);
      else
        slot.timer = setTimeout(
          () => kill(slot, new Error("the extraction worker did not start")),
          Math.max(STARTUP_MS, opts.timeoutMs),
        );
    }
    for (const slot of slots) if (!slot.job) idle(slot);
  };

  return {
    extract(input, o) {
      // Types no handler reads fail at once, without copying the body to a thread.
      if (!extractableType(input.contentType)) return extract(input, opts.limits);
      return new Promise<Extracted>((resolve, reject) => {
        const job: Job = { id: nextId++, input, background: o?.background === true, resolve, reject };
        // An interactive page goes ahead of every background one still waiting (FIFO within each kind).
        const at = job.background ? -1 : queue.findIndex((j) => j.background);
        if (at < 0) queue.push(job);
        else queue.splice(at, 0, job);
        pump();
      });
    },
    async close() {
      guard.stop();
      for (const job of queue.splice(0)) job.reject(new Error("the extraction pool was closed"));
      for (const slot of slots.splice(0)) {
        clearTimers(slot);
        slot.job?.reject(new Error("the extraction pool was closed"));
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

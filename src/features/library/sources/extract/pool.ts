// The extraction pool: HTML and PDF extraction in worker threads (src/threads/pool.ts) with a
// wall-clock limit per job and a bound on memory growth. A worker that overruns is terminated and
// replaced; its job fails with `extraction_timeout` or `too_complex`, so one hostile page never
// stalls the server.
import { workerUrl } from "../../../../ai/speech/worker-client.ts";
import type { Logger } from "../../../../log.ts";
import { createThreadPool, type ThreadPoolStats } from "../../../../threads/pool.ts";
import { extract, extractableType } from "./index.ts";
import type { ExtractTask } from "./pool-protocol.ts";
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

export type ExtractorStats = ThreadPoolStats;

export interface Extractor {
  /** `background`: bulk work (an imported page); waits behind every interactive job queued. */
  extract(input: ExtractInput, opts?: { background?: boolean }): Promise<Extracted>;
  /** Fails what is pending and stops every thread; a later call starts new ones. */
  close(): Promise<void>;
  stats(): ExtractorStats;
}

export function defaultExtractWorkerUrl(): URL {
  return workerUrl("./worker.ts", import.meta.url, "features/library/sources/extract/worker.ts");
}

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
  const pool = createThreadPool<ExtractTask, Extracted>({
    url: opts.workerUrl ?? defaultExtractWorkerUrl(),
    size: opts.size,
    timeoutMs: opts.timeoutMs,
    maxMemoryMb: opts.maxMemoryMb,
    idleMs: opts.idleMs,
    sampleMs: opts.sampleMs,
    logger: opts.logger,
    name: "extraction",
    errors: {
      timeout: (ms) => new ExtractError("extraction_timeout", `extraction took longer than ${ms} ms and was stopped`),
      memory: (limit, grown) =>
        new ExtractError(
          "too_complex",
          `extraction used more than ${limit} MB of memory (${grown} MB) and was stopped`,
        ),
      fromReply: (code, message) => (isCode(code) ? new ExtractError(code, message) : new Error(message)),
    },
    describe: (task) => ({ url: task.input.url }),
  });
  return {
    extract(input, o) {
      // Types no handler reads fail at once, without copying the body to a thread.
      if (!extractableType(input.contentType)) return extract(input, opts.limits);
      return pool.run({ input, limits: opts.limits }, o);
    },
    close: () => pool.close(),
    stats: () => pool.stats(),
  };
}

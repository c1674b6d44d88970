// Calls a long-lived worker thread: requests queued and sent one at a time, matched by id, restart on crash.
import { replyError, type WorkerReply } from "./worker-protocol.ts";

export interface CallOptions {
  /** Buffers to move into the worker instead of copying. */
  transfer?: Transferable[];
  signal?: AbortSignal;
  /** Goes ahead of queued calls (not of the one running): e.g. a search query behind a backlog of documents. */
  urgent?: boolean;
}

export interface WorkerClient<T, R> {
  call(payload: T, opts?: CallOptions): Promise<R>;
  /** Rejects whatever is pending and stops the thread; a later call starts a new one. */
  close(): Promise<void>;
  /** How many times the thread died and was replaced. */
  readonly crashes: number;
}

interface Job<T, R> {
  id: number;
  payload: T;
  opts: CallOptions;
  resolve(value: R): void;
  reject(err: unknown): void;
  settled: boolean;
  onAbort?: () => void;
}

type Refable = Worker & { ref?(): void; unref?(): void };

/** Resolves a worker file next to `base` in development, or inside a `bun build --compile` binary. */
export function workerUrl(relative: string, base: string, pathFromSrc: string): URL {
  // A compiled binary bundles every module under the executable's own URL in Bun's embedded
  // filesystem; extra entrypoints keep their path relative to the common root (src/).
  const compiled = base.includes("/$bunfs/") || base.includes("~BUN");
  return compiled ? new URL(`./${pathFromSrc}`, base) : new URL(relative, base);
}

export function createWorkerClient<T, R>(url: URL | string, name: string): WorkerClient<T, R> {
  let worker: Refable | undefined;
  let current: Job<T, R> | undefined;
  const queue: Job<T, R>[] = [];
  let nextId = 1;
  let crashes = 0;

  const settle = (job: Job<T, R>, ok: boolean, value: unknown) => {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort) job.opts.signal?.removeEventListener("abort", job.onAbort);
    if (ok) job.resolve(value as R);
    else job.reject(value);
  };

  const start = (): Refable => {
    const w: Refable = new Worker(url);
    w.onmessage = (event: MessageEvent<WorkerReply<R>>) => onReply(w, event.data);
    w.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      onCrash(w, event.message || "uncaught error");
    };
    w.addEventListener("close", () => onCrash(w, "thread exited"));
    return w;
  };

  const onReply = (w: Refable, reply: WorkerReply<R>) => {
    if (w !== worker || !current || reply.id !== current.id) return;
    const job = current;
    current = undefined;
    if (reply.ok) settle(job, true, reply.result);
    else settle(job, false, replyError(reply));
    pump();
  };

  const onCrash = (w: Refable, why: string) => {
    if (w !== worker) return; // an old thread we already replaced or closed
    worker = undefined;
    crashes++;
    w.terminate();
    const job = current;
    current = undefined;
    if (job) settle(job, false, new Error(`${name} worker crashed: ${why}`));
    pump();
  };

  const pump = () => {
    if (current) return;
    let job = queue.shift();
    while (job?.settled) job = queue.shift();
    if (!job) {
      worker?.unref?.(); // an idle thread must not keep the process alive
      return;
    }
    worker ??= start();
    worker.ref?.();
    current = job;
    worker.postMessage({ id: job.id, payload: job.payload }, job.opts.transfer ?? []);
  };

  const call = (payload: T, opts: CallOptions = {}) =>
    new Promise<R>((resolve, reject) => {
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      const job: Job<T, R> = { id: nextId++, payload, opts, resolve, reject, settled: false };
      if (opts.signal) {
        // A job already running cannot be interrupted; its late reply is simply dropped.
        job.onAbort = () => settle(job, false, opts.signal!.reason);
        opts.signal.addEventListener("abort", job.onAbort, { once: true });
      }
      if (opts.urgent) queue.unshift(job);
      else queue.push(job);
      pump();
    });

  const close = async () => {
    const w = worker;
    worker = undefined;
    const pending = [...(current ? [current] : []), ...queue.splice(0)];
    current = undefined;
    for (const job of pending) settle(job, false, new Error(`${name} worker closed`));
    w?.terminate();
  };

  return {
    call,
    close,
    get crashes() {
      return crashes;
    },
  };
}

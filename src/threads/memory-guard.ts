// The memory bound of a thread pool (src/threads/pool.ts): samples the process's RSS while jobs run and names the
// job to stop when memory grew too far since it started. Bun's workers take no heap limit of their
// own (worker_threads' resourceLimits is ignored), and a busy worker cannot report its heap (its
// event loop is as starved as the main thread's would have been), so the process's RSS, read from
// the main thread, is the one measure that is always there.

export interface GuardedJob {
  /** performance.now() when the job started running in its worker. */
  startedAt: number;
  /** Process RSS in bytes when the job started. */
  rssAtStart: number;
}

export interface MemoryGuardOptions<J extends GuardedJob> {
  maxGrowthBytes: number;
  sampleMs: number;
  /** The jobs running now. */
  running(): J[];
  /** Called with the job to stop; the guard pauses a while so the freed memory shows. */
  overrun(job: J, grownBytes: number): void;
  rss?: () => number;
}

export interface MemoryGuard {
  /** Process RSS now, in bytes (what a job records when it starts). */
  rss(): number;
  /** Starts sampling if not already; it stops by itself when no job runs. */
  wake(): void;
  stop(): void;
}

/**
 * Growth is counted per job from its own start, so slow growth of the rest of the process over a
 * long busy stretch is not charged to a page that took a few milliseconds. When several jobs are
 * over the bound the one running longest is stopped: normal pages take milliseconds.
 */
export function createMemoryGuard<J extends GuardedJob>(opts: MemoryGuardOptions<J>): MemoryGuard {
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const cooldownMs = Math.max(500, opts.sampleMs * 5);
  let timer: ReturnType<typeof setInterval> | undefined;
  let quietUntil = 0;

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  const sample = () => {
    const jobs = opts.running();
    if (jobs.length === 0) return stop();
    if (opts.maxGrowthBytes <= 0 || performance.now() < quietUntil) return;
    const now = rss();
    let worst: J | undefined;
    for (const job of jobs) {
      if (now - job.rssAtStart <= opts.maxGrowthBytes) continue;
      if (!worst || job.startedAt < worst.startedAt) worst = job;
    }
    if (!worst) return;
    quietUntil = performance.now() + cooldownMs;
    opts.overrun(worst, now - worst.rssAtStart);
  };

  return {
    rss,
    wake() {
      if (timer || opts.maxGrowthBytes <= 0) return;
      timer = setInterval(sample, opts.sampleMs);
      // A sampler must never keep the process alive by itself.
      (timer as { unref?: () => void }).unref?.();
    },
    stop,
  };
}

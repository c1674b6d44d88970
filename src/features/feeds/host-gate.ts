// Politeness: requests to one host start at least `spacingMs` apart, across all watches in this process.

export interface HostGate {
  /** Resolves when a request to `host` may start, and books that slot. */
  wait(host: string, signal?: AbortSignal): Promise<void>;
}

const SWEEP_AT = 1024;

export function createHostGate(spacingMs: number, now: () => number = () => performance.now()): HostGate {
  const nextFree = new Map<string, number>();

  function sweep(t: number): void {
    if (nextFree.size < SWEEP_AT) return;
    for (const [host, at] of nextFree) if (at <= t) nextFree.delete(host);
  }

  return {
    async wait(host, signal) {
      if (spacingMs <= 0) return;
      const t = now();
      sweep(t);
      const start = Math.max(t, nextFree.get(host) ?? 0);
      nextFree.set(host, start + spacingMs);
      const delay = start - t;
      if (delay <= 0) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
  };
}

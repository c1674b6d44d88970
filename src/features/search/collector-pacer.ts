// Keeps a search process's memory near its live size. JavaScriptCore paces its collector by heap
// size and counts the owner's binary codes held in memory (ArrayBuffers, ~86 MB at 100k chunks)
// towards it, so the ordinary garbage of each search (rows, snippets, about half a megabyte) piled
// up for hundreds of searches: 100k chunks peaked at ~680 MB where ~260 MB is live. Every `every`
// searches, when the resident size has grown by more than `growthBytes` since the last collection,
// one full collection is scheduled for after the current request (a timer, off the request path):
// about 30 ms at that size, at most once per 32 searches (docs/performance.md, bench:search).
export function createCollectorPacer(
  opts: { every?: number; growthBytes?: number; rss?: () => number; collect?: () => void } = {},
) {
  const every = opts.every ?? 32;
  const growth = opts.growthBytes ?? 32 * 1024 * 1024;
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = opts.collect ?? (() => Bun.gc(true));
  let searches = 0;
  let base = rss();
  let pending = false;
  return {
    /** Called once per search: may schedule a collection. */
    searched(): void {
      if (++searches % every !== 0 || pending) return;
      if (rss() - base < growth) return;
      pending = true;
      setTimeout(() => {
        collect();
        base = rss();
        pending = false;
      }, 0);
    },
  };
}
export type CollectorPacer = ReturnType<typeof createCollectorPacer>;

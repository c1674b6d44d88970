// Linearity checks for parsers of outside data: the cost of an input eight times larger is compared
// with the cost of the smaller one in the same test, so a busy host slows both and the ratio holds
// (a time limit in milliseconds does not; speed itself is measured by the benchmarks).
import { expect } from "bun:test";

/** The fastest of `runs` calls, in ms: the one least disturbed by other work on the host. */
function fastest(run: () => unknown, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * Asserts that `work(scale)` costs no more than linearly in `scale`: at 8× the input the time may
 * grow by at most 24× (linear is 8×, n·log n about 9×, quadratic 64×). `work(1)` should take a few
 * millisecond, or timer resolution and stray pauses dominate the ratio.
 */
export function expectLinearGrowth(work: (scale: number) => () => unknown, runs = 3): void {
  const small = work(1);
  const big = work(8);
  small(); // warm the code paths before either is timed
  const ratio = fastest(big, runs) / Math.max(fastest(small, runs), 0.01);
  expect(ratio).toBeLessThan(24);
}

// Hybrid ordering: a hit found only by vector never ranks above a text hit at least as similar.
import { describe, expect, test } from "bun:test";
import { keepTextAhead, rrf } from "./service.ts";

describe("keepTextAhead", () => {
  // Text ranking: 1…5. Vector ranking: 9 (found by vector only), then 1.
  const text = [1, 2, 3, 4, 5].map((rowid) => ({ rowid, score: 10 - rowid }));
  const vector = [
    { rowid: 9, score: 0.3 },
    { rowid: 1, score: 0.25 },
  ];
  const fused = rrf([text, vector]);
  const ids = (rs: { rowid: number }[]) => rs.map((r) => r.rowid);

  test("a vector-only hit less similar than a text hit goes after it", () => {
    // RRF alone puts 9 (vector rank 1) right after 1, ahead of text hits 2…5.
    expect(ids(fused)).toEqual([1, 9, 2, 3, 4, 5]);
    const cos = new Map([
      [1, 0.25],
      [2, 0.2],
      [3, 0.35],
      [4, 0.1],
      [5, 0.1],
      [9, 0.3],
    ]);
    const out = keepTextAhead(fused, new Set([1, 2, 3, 4, 5]), cos);
    expect(ids(out)).toEqual([1, 2, 3, 9, 4, 5]);
    // scores never rise down the list
    out.slice(1).forEach((r, i) => expect(r.score).toBeLessThanOrEqual(out[i]!.score));
  });

  test("a vector-only hit more similar than every text hit keeps its RRF place", () => {
    const cos = new Map([
      [1, 0.25],
      [2, 0.2],
      [3, 0.2],
      [4, 0.1],
      [5, 0.1],
      [9, 0.6],
    ]);
    expect(ids(keepTextAhead(fused, new Set([1, 2, 3, 4, 5]), cos))).toEqual(ids(fused));
  });

  test("text hits not embedded yet stay ahead of vector-only hits", () => {
    const cos = new Map([[9, 0.9]]);
    expect(ids(keepTextAhead(fused, new Set([1, 2, 3, 4, 5]), cos)).at(-1)).toBe(9);
  });
});

import { describe, expect, test } from "bun:test";
import { exactMatch, shingleMatch, summarize, tokenize } from "./shingle-score.ts";

describe("the benchmark's shingle metric", () => {
  test("tokens are \\w+ runs in any script, case kept, marks and punctuation splitting", () => {
    expect(tokenize("Don't panic: 42 élans, snake_case — 東京!")).toEqual([
      "Don",
      "t",
      "panic",
      "42",
      "élans",
      "snake_case",
      "東京",
    ]);
  });

  test("identical texts are all true positives; disjoint texts are all errors", () => {
    expect(shingleMatch("a b c d e", "a b c d e")).toEqual([1, 0, 0]);
    const [tp, fp, fn] = shingleMatch("a b c d e", "v w x y z");
    expect(tp).toBe(0);
    expect(fp).toBeCloseTo(0.5);
    expect(fn).toBeCloseTo(0.5);
  });

  test("counts are per shingle, scaled to sum to 1 per page", () => {
    // truth shingles: abcd, bcde; predicted: abcd, bcde, cdef → tp 2, fp 1, fn 0.
    const [tp, fp, fn] = shingleMatch("a b c d e", "a b c d e f");
    expect(tp).toBeCloseTo(2 / 3);
    expect(fp).toBeCloseTo(1 / 3);
    expect(fn).toBe(0);
  });

  test("a text shorter than four tokens is one short shingle, and an empty one has none", () => {
    expect(shingleMatch("a b", "a b")).toEqual([1, 0, 0]);
    expect(shingleMatch("a b c d", "")).toEqual([0, 0, 1]);
    expect(shingleMatch("", "")).toEqual([0, 0, 0]);
  });

  test("precision skips pages that produced nothing; recall skips pages with no truth; F1 from the means", () => {
    const pages = [shingleMatch("a b c d e", "a b c d e f"), shingleMatch("a b c d", ""), shingleMatch("", "x y z w")];
    const m = summarize(pages);
    // precision: page 1 = 2/3, page 3 = 0 (page 2 produced nothing); recall: page 1 = 1, page 2 = 0.
    expect(m.precision).toBeCloseTo(1 / 3);
    expect(m.recall).toBeCloseTo(0.5);
    expect(m.f1).toBeCloseTo(0.4);
  });

  test("accuracy is an exact token match; case counts unless asked not to", () => {
    expect(exactMatch("Hello, world!", "Hello world")).toBe(true);
    expect(exactMatch("Hello world", "hello world")).toBe(false);
    expect(exactMatch("Hello world", "hello world", true)).toBe(true);
    expect(shingleMatch("The Tide Turns Today", "the tide turns today", true)).toEqual([1, 0, 0]);
  });
});

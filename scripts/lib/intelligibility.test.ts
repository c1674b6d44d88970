// The word error rate arithmetic behind bench:podcast's intelligibility figure.
import { expect, test } from "bun:test";
import { editDistance, WER_SENTENCES } from "./intelligibility.ts";

test("word edit distance counts substitutions, insertions and deletions", () => {
  expect(editDistance(["green", "roofs", "cool", "buildings"], ["green", "roofs", "school", "buildings"])).toBe(1);
  expect(editDistance(["a", "b", "c"], ["a", "c"])).toBe(1);
  expect(editDistance(["a", "b"], ["a", "x", "b", "y"])).toBe(2);
  expect(editDistance([], ["a"])).toBe(1);
});

test("the test sentences hold no digits, which a recogniser would spell differently", () => {
  expect(WER_SENTENCES.length).toBeGreaterThanOrEqual(20);
  for (const s of WER_SENTENCES) expect(s).not.toMatch(/\d/);
});

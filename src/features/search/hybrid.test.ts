// The score-aware fusion and the one relevance floor (service.ts fuse / gateVector), on hand-made evidence.
import { describe, expect, test } from "bun:test";
import { FUSION, fuse, gateVector, termCoverage } from "./service.ts";

const ids = (r: { rowid: number }[]) => r.map((x) => x.rowid);
const FLOOR = 0.27;

describe("fuse", () => {
  test("strong text evidence outranks a slightly closer vector neighbour", () => {
    const cos = new Map([
      [1, 0.4],
      [2, 0.43],
    ]);
    const out = fuse([{ rowid: 1, score: 30 }], cos, FLOOR, FUSION, new Map([[1, 1]]));
    expect(ids(out)).toEqual([1, 2]);
    expect(out[0]!.score).toBeCloseTo(
      0.4 + ((FUSION.textWeight + FUSION.coverageWeight) * 30) / (30 + FUSION.textSaturation),
      9,
    );
  });

  test("text moves the order more for a chunk holding more of the query's words", () => {
    const cos = new Map([
      [1, 0.3],
      [2, 0.85],
    ]);
    // The same BM25 score, with two of three query words: the much closer vector neighbour stays first.
    expect(ids(fuse([{ rowid: 1, score: 30 }], cos, FLOOR, FUSION, new Map([[1, 2 / 3]])))).toEqual([2, 1]);
    expect(ids(fuse([{ rowid: 1, score: 30 }], cos, FLOOR, FUSION, new Map([[1, 1]])))).toEqual([1, 2]);
  });

  test("a weak text match (one common word) does not overturn the vector ranking", () => {
    const cos = new Map([
      [1, 0.3],
      [2, 0.45],
    ]);
    expect(ids(fuse([{ rowid: 1, score: 1 }], cos, FLOOR, FUSION, new Map([[1, 0.25]])))).toEqual([2, 1]);
  });

  test("nothing relevant: cosines under the floor and text covering little of the query give nothing", () => {
    const cos = new Map([
      [1, 0.2],
      [2, 0.22],
    ]);
    expect(fuse([{ rowid: 1, score: 8 }], cos, FLOOR, FUSION, new Map([[1, 0.25]]))).toEqual([]);
  });

  test("a text hit holding the whole query clears the floor though its cosine does not", () => {
    const cos = new Map([
      [1, 0.2],
      [2, 0.22],
    ]);
    const out = fuse([{ rowid: 1, score: 20 }], cos, FLOOR, FUSION, new Map([[1, 1]]));
    expect(ids(out)).toEqual([1]);
  });

  test("no padding: chunks under the floor stay out of a relevant answer", () => {
    const cos = new Map([
      [1, 0.5],
      [2, 0.1],
    ]);
    expect(ids(fuse([], cos, FLOOR))).toEqual([1]);
  });

  test("text hits not embedded yet stay findable", () => {
    const out = fuse([{ rowid: 7, score: 5 }], new Map([[1, 0.1]]), FLOOR);
    expect(ids(out)).toEqual([7]);
  });
});

describe("gateVector", () => {
  test("nothing when the best cosine is not above the floor", () => {
    expect(gateVector([{ rowid: 1, score: 0.27 }], FLOOR, 0)).toEqual([]);
  });
  test("only hits above the floor, in order", () => {
    const hits = [
      { rowid: 1, score: 0.5 },
      { rowid: 2, score: 0.3 },
      { rowid: 3, score: 0.2 },
    ];
    expect(ids(gateVector(hits, FLOOR, 0))).toEqual([1, 2]);
  });
});

describe("termCoverage", () => {
  test("share of the query's content words, stemmed, stopwords left out", () => {
    expect(termCoverage("What causes volcanic eruptions in Iceland?", "Iceland beat Hungary.")).toBeCloseTo(0.25, 9);
    expect(termCoverage("dying sea stars", "Millions of sea stars died along the coast.")).toBeGreaterThanOrEqual(
      2 / 3,
    );
  });
});

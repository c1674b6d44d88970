// Citation verification: unknown markers dropped, renumbering, marker lists, verbatim quotes.
import { describe, expect, test } from "bun:test";
import type { ChunkRow } from "./chunks-repo.ts";
import { bestQuote, verifyCitations } from "./citations.ts";

const row = (n: number, text: string): ChunkRow => ({
  rowid: n,
  chunkId: `chk_${n}`,
  userId: "usr_1",
  docType: "note",
  docId: `note_${n}`,
  idx: 0,
  title: `Doc ${n}`,
  heading: null,
  text,
  start: 0,
  end: text.length,
});

const passages = [
  { n: 1, row: row(1, "# Bread\n\nFeed the starter twice a day. It doubles within six hours at room temperature.") },
  { n: 2, row: row(2, "Sea stars grip the rock with tube feet. Anemones fold their tentacles inward.") },
  { n: 3, row: row(3, "Kepler described planetary motion. Newton explained it with gravity.") },
];

describe("verifyCitations", () => {
  test("keeps valid markers, renumbers them in order of first use", () => {
    const v = verifyCitations(
      "Anemones fold their tentacles [2]. Planets follow Kepler's laws [3]. Sea stars use tube feet [2].",
      passages,
    );
    expect(v.answer).toBe(
      "Anemones fold their tentacles [1]. Planets follow Kepler's laws [2]. Sea stars use tube feet [1].",
    );
    expect(v.citations.map((c) => [c.n, c.row.chunkId])).toEqual([
      [1, "chk_2"],
      [2, "chk_3"],
    ]);
  });

  test("drops markers that point at no passage, with the space before them", () => {
    const v = verifyCitations("It doubles in six hours [9]. Feed it twice a day [1][0]. Gravity [4, 3].", passages);
    expect(v.answer).toBe("It doubles in six hours. Feed it twice a day [1]. Gravity [2].");
    expect(v.citations.map((c) => c.row.chunkId)).toEqual(["chk_1", "chk_3"]);
  });

  test("an answer citing nothing valid keeps its text and has no citations", () => {
    const v = verifyCitations("I do not know [12].", passages);
    expect(v).toEqual({ answer: "I do not know.", citations: [] });
  });

  test("marker lists are split and de-duplicated", () => {
    const v = verifyCitations("Both are true [1,2] and [2, 1, 2].", passages);
    expect(v.answer).toBe("Both are true [1][2] and [2][1].");
  });

  test("paragraph breaks survive", () => {
    const v = verifyCitations("First point [1].\n\nSecond point [2].", passages);
    expect(v.answer).toBe("First point [1].\n\nSecond point [2].");
  });

  test("each quote is the sentence of the chunk that supports the claim, verbatim", () => {
    const v = verifyCitations(
      "It takes about six hours for the starter to double [1]. Tentacles fold inward [2].",
      passages,
    );
    expect(v.citations[0]!.quote).toBe("It doubles within six hours at room temperature.");
    expect(v.citations[1]!.quote).toBe("Anemones fold their tentacles inward.");
    for (const c of v.citations) expect(c.row.text).toContain(c.quote);
  });

  test("a marker placed after the period supports the sentence before it", () => {
    const v = verifyCitations("Newton explained planetary motion with gravity. [3] Sea stars hold on. [2]", passages);
    expect(v.citations[0]!.quote).toBe("Newton explained it with gravity.");
    expect(v.citations[1]!.quote).toBe("Sea stars grip the rock with tube feet.");
  });
});

describe("bestQuote", () => {
  test("never returns a heading and falls back to the start of the text", () => {
    expect(bestQuote("# Bread\n\nFeed the starter twice a day.", "bread")).toBe("Feed the starter twice a day.");
    expect(bestQuote("Short.", "nothing in common")).toBe("Short.");
  });
});

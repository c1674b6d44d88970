// Known-item queries: titles, headings and paraphrased first sentences, deterministic for a seed;
// recall computed per mode and kind on a case small enough to check by hand.
import { describe, expect, test } from "bun:test";
import {
  firstSentence,
  headingCandidates,
  knownItemQueries,
  paraphrase,
  plainText,
  randomFor,
  shuffled,
  type KnownItemQuery,
} from "./queries.ts";
import { seededRandom } from "../../random.ts";
import { summarise, type Outcome } from "./report.ts";

const ARTICLE = `# Baking sourdough bread

Photo: the author.

A sourdough starter is a living culture of flour and water that leavens the dough without commercial yeast.
Feed the starter twice a day.

## Feeding the starter

- keep it warm

## The **bake**

Bake the loaf in a preheated Dutch oven.`;

describe("known-item queries", () => {
  test("the first sentence of running text: headings, lists and short lines skipped, Markdown marks removed", () => {
    expect(firstSentence(ARTICLE)).toBe(
      "A sourdough starter is a living culture of flour and water that leavens the dough without commercial yeast.",
    );
    expect(firstSentence("# Only a title\n\nToo short here.")).toBeNull();
    expect(plainText("Read [the *guide*](https://x.example/a) at https://x.example now")).toBe("Read the guide at now");
  });

  test("headings: not the title again, Markdown removed, at least two words", () => {
    expect(headingCandidates(ARTICLE, "Baking sourdough bread")).toEqual(["Feeding the starter", "The bake"]);
    expect(headingCandidates("# One\n\n## Two words", null)).toEqual(["Two words"]);
  });

  test("a paraphrase drops the rarest third of the content words and keeps the others in order", () => {
    const sentence = "The quick brown fox jumps over the lazy dog near the riverbank";
    // Content words: quick brown fox jumps lazy dog near riverbank (8) → the 3 rarest go.
    const df: Record<string, number> = { quick: 5, brown: 5, fox: 1, jumps: 4, lazy: 5, dog: 2, near: 5, riverbank: 1 };
    const p = paraphrase(sentence, (w) => df[w] ?? 0, seededRandom(1))!;
    const words = p.split(" ");
    expect(words).not.toContain("fox");
    expect(words).not.toContain("riverbank");
    expect(words).not.toContain("dog");
    expect(words.filter((w) => !["The", "over", "the"].includes(w))).toEqual([
      "quick",
      "brown",
      "jumps",
      "lazy",
      "near",
    ]);
    // The function words are the same ones, in shuffled places.
    expect(words.filter((w) => ["The", "over", "the"].includes(w)).sort()).toEqual(
      ["The", "over", "the", "the"].sort(),
    );
    expect(words).toHaveLength(12 - 3);
  });

  test("ties in rarity drop the longer word first", () => {
    const p = paraphrase("alpha bb ccc dddd eeeee ffffff", () => 1, seededRandom(3))!;
    expect(p).toBe("alpha bb ccc dddd");
  });

  test("the same seed gives the same queries; each source has its own generator", () => {
    const src = { id: "src_A", title: "Baking sourdough bread", content: ARTICLE };
    const df = () => 1;
    const a = knownItemQueries(src, 42, df);
    expect(knownItemQueries(src, 42, df)).toEqual(a);
    expect(a.map((q) => q.kind)).toEqual(["title", "heading", "paraphrase"]);
    expect(a[0]!.text).toBe("Baking sourdough bread");
    expect(["Feeding the starter", "The bake"]).toContain(a[1]!.text);
    expect(randomFor(42, "src_A")()).not.toBe(randomFor(42, "src_B")());
    expect(shuffled([1, 2, 3, 4, 5], seededRandom(7))).toEqual(shuffled([1, 2, 3, 4, 5], seededRandom(7)));
  });

  test("a source without title, headings or text gives no query", () => {
    expect(knownItemQueries({ id: "src_B", title: null, content: "Short." }, 1, () => 1)).toEqual([]);
  });
});

describe("recall per mode and kind", () => {
  test("a hand-checkable case", () => {
    const q = (kind: KnownItemQuery["kind"], id: string): KnownItemQuery => ({
      kind,
      text: `${kind} ${id}`,
      sourceId: id,
    });
    const t1 = q("title", "a");
    const t2 = q("title", "b");
    const p1 = q("paraphrase", "a");
    const p2 = q("paraphrase", "b");
    const outcomes: Outcome[] = [
      // text: titles first and third; paraphrases missed and second.
      { query: t1, mode: "text", rank: 0 },
      { query: t2, mode: "text", rank: 2 },
      { query: p1, mode: "text", rank: null },
      { query: p2, mode: "text", rank: 1 },
      // vector: everything first except one failure (not counted).
      { query: t1, mode: "vector", rank: 0 },
      { query: t2, mode: "vector", rank: 0 },
      { query: p1, mode: "vector", rank: 0 },
      { query: p2, mode: "vector", rank: null, error: "the embedding server did not answer" },
      // hybrid: nothing found.
      ...[t1, t2, p1, p2].map((query): Outcome => ({ query, mode: "hybrid", rank: null })),
    ];
    const [text, vector, hybrid] = summarise(outcomes);
    expect(text).toMatchObject({ mode: "text", queries: 4, recall_at_1: 0.25, recall_at_5: 0.75, errors: 0 });
    expect(text!.kinds).toEqual([
      { kind: "title", queries: 2, recall_at_1: 0.5, recall_at_5: 1 },
      { kind: "heading", queries: 0, recall_at_1: null, recall_at_5: null },
      { kind: "paraphrase", queries: 2, recall_at_1: 0, recall_at_5: 0.5 },
    ]);
    expect(vector).toMatchObject({ queries: 3, recall_at_1: 1, recall_at_5: 1, errors: 1 });
    expect(vector!.error).toBe("the embedding server did not answer");
    expect(vector!.kinds[2]).toEqual({ kind: "paraphrase", queries: 1, recall_at_1: 1, recall_at_5: 1 });
    expect(hybrid).toMatchObject({ queries: 4, recall_at_1: 0, recall_at_5: 0, errors: 0, error: null });
  });

  test("recall is rounded to three decimals", () => {
    const q: KnownItemQuery = { kind: "title", text: "x", sourceId: "a" };
    const [text] = summarise([0, null, null].map((rank): Outcome => ({ query: q, mode: "text", rank })));
    expect(text!.recall_at_1).toBe(0.333);
  });
});

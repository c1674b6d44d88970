// The builtin extractive chat model: picks the passages' sentences that answer, cites them, invents nothing.
import { describe, expect, test } from "bun:test";
import { createBuiltinChat, scoreSentences } from "./builtin.ts";

const passages = [
  {
    n: 1,
    title: "Bread",
    text: "# Bread\n\nFeed the starter twice a day with flour and water. A healthy starter doubles within six hours. Bake at 250 degrees.",
  },
  {
    n: 2,
    title: "Pools",
    text: "Tide pools are small worlds left behind by the ocean. Anemones fold their tentacles inward to keep moisture in.",
  },
  { n: 3, title: "Copy", text: "Feed the starter twice a day with flour and water, always." },
];

const sentencesOf = (answer: string) => answer.split(/\s*\[\d+\]\s*/).filter(Boolean);

describe("builtin chat", () => {
  test("answers with the best matching sentences, each marked with its passage", async () => {
    const chat = createBuiltinChat();
    expect(chat).toMatchObject({ id: "builtin-extractive", extractive: true });
    const answer = await chat.answer("How quickly does a healthy starter double?", passages);
    expect(answer).toContain("A healthy starter doubles within six hours. [1]");
    expect(answer).not.toContain("Anemones");
  });

  test("every sentence of the answer is verbatim from the passage it cites", async () => {
    const answer = await createBuiltinChat().answer(
      "What do anemones and starters need: flour, water, moisture?",
      passages,
    );
    const parts = [...answer.matchAll(/(.+?)\s\[(\d+)\]/g)].map((m) => ({ text: m[1]!.trim(), n: Number(m[2]) }));
    expect(parts.length).toBeGreaterThan(0);
    for (const p of parts) expect(passages.find((x) => x.n === p.n)!.text).toContain(p.text);
  });

  test("at most three sentences, near-duplicates left out, headings and short fragments never used", async () => {
    const answer = await createBuiltinChat().answer("feed the starter flour water twice day", passages);
    const sentences = sentencesOf(answer);
    expect(sentences.length).toBeLessThanOrEqual(3);
    expect(answer.match(/Feed the starter twice a day/g)).toHaveLength(1);
    expect(answer).not.toContain("# Bread");
    expect(answer).not.toContain("Bake at 250 degrees");
  });

  test("nothing in common with the question: an empty answer", async () => {
    expect(await createBuiltinChat().answer("Who won the chess championship?", passages)).toBe("");
    expect(await createBuiltinChat().answer("the of and", passages)).toBe("");
    expect(await createBuiltinChat().answer("bread", [])).toBe("");
  });

  test("sentences are scored by BM25, ties kept in retrieval order", () => {
    const scored = scoreSentences("tentacles moisture", passages);
    expect(scored[0]!.text).toBe("Anemones fold their tentacles inward to keep moisture in.");
    const same = "Feed the starter twice a day, every day.";
    expect(
      scoreSentences("feed starter twice", [
        { n: 5, title: null, text: same },
        { n: 6, title: null, text: same },
      ])[0]!.n,
    ).toBe(5);
    expect(
      scoreSentences("feed starter twice", [
        { n: 6, title: null, text: same },
        { n: 5, title: null, text: same },
      ])[0]!.n,
    ).toBe(6);
  });
});

// Sentence splitting and chunk packing for speech, and the text folding Flite needs.
import { describe, expect, test } from "bun:test";
import { chunkText, splitSentences } from "./chunk.ts";
import { textForFlite } from "./flite-wasi.ts";

describe("chunking text for speech", () => {
  test("splits on sentence ends, keeping closing quotes with their sentence", () => {
    expect(splitSentences('He said "stop." Then   left! Did he?\n\nYes')).toEqual([
      'He said "stop."',
      "Then left!",
      "Did he?",
      "Yes",
    ]);
  });

  test("packs whole sentences up to the limit", () => {
    const text = "One two three. Four five six. Seven eight nine. Ten.";
    const chunks = chunkText(text, 30);
    expect(chunks).toEqual(["One two three. Four five six.", "Seven eight nine. Ten."]);
  });

  test("cuts an overlong sentence at commas or spaces, never mid-word, without losing words", () => {
    const sentence = `${Array.from({ length: 60 }, (_, i) => `word${i}${i % 7 === 6 ? "," : ""}`).join(" ")}.`;
    const chunks = chunkText(sentence, 80);
    expect(chunks.every((c) => c.length <= 80)).toBe(true);
    expect(chunks.join(" ").split(" ")).toEqual(sentence.split(" "));
  });

  test("empty or blank text gives no chunks", () => {
    expect(chunkText("   \n ", 100)).toEqual([]);
  });

  test("folds text Flite cannot read into plain ASCII", () => {
    expect(textForFlite("Caf\u00e9 \u201cquotes\u201d \u2014 it\u2019s\u2026 \u4e2d")).toBe('Cafe "quotes", it\'s...');
  });
});

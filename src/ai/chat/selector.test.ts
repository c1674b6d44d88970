// The learned sentence selector: its weights match its features, the answer-type-beside-subject
// feature, and what the selection does with it (the answering sentence first, nothing appended that
// does not address the question).
import { describe, expect, test } from "bun:test";
import { stem } from "../embedder/builtin.ts";
import { contentStems } from "../text.ts";
import { createBuiltinChat, rankSentences } from "./builtin.ts";
import { FEATURES, learnedScores } from "./selector.ts";
import { SELECTOR } from "./selector-weights.ts";
import { questionType, typedNearQuestion } from "./sentence-filter.ts";

const near = (sentence: string, question: string) =>
  typedNearQuestion(sentence, questionType(question), question, new Set(contentStems(question)), stem);

describe("selector", () => {
  test("the shipped weights were fitted on the current features, with a spread for each", () => {
    expect([...SELECTOR.features]).toEqual([...FEATURES]);
    expect(SELECTOR.weights).toHaveLength(FEATURES.length);
    expect(SELECTOR.scale.every((s) => s > 0)).toBe(true);
    expect(SELECTOR.followMargin).toBeGreaterThan(0);
  });

  test("weights for other features are refused, not silently misread", () => {
    const stale = { ...SELECTOR, features: FEATURES.slice(1) };
    expect(() => learnedScores([FEATURES.map(() => 0)], stale)).toThrow(/fit-answerer/);
  });

  test("the asked-for number beside the question's word counts; one elsewhere in the sentence does not", () => {
    const q = "How many airbags does the new Sentra offer?";
    expect(near("These include 10 airbags, rear door alert and lane assist.", q)).toBe(true);
    expect(near("With more than 6 million vehicles sold, the Sentra offers refinement and airbags.", q)).toBe(false);
    expect(near("It puts out 151 PS along with 197 Nm of torque.", "How much torque does the engine produce?")).toBe(
      true,
    );
    // A question that asks for no particular kind of thing has no such sentence.
    expect(near("These include 10 airbags.", "Why are airbags useful?")).toBe(false);
  });

  test("the sentence holding the asked-for number next to its subject is ranked first", async () => {
    const text =
      "With more than 6 million Sentra vehicles sold, the all-new Sentra will reach new heights in safety and quality. These include 10 airbags, rear door alert and intelligent forward collision warning.";
    const { ranked } = await rankSentences("How many airbags does the 2020 Sentra offer?", [
      { n: 1, title: "2020 Nissan Sentra", text },
    ]);
    expect(ranked[0]!.text).toStartWith("These include 10 airbags");
  });

  test("a further sentence that does not address the question is not appended", async () => {
    const chat = createBuiltinChat();
    const text = [
      "Stadia, Google's streaming gaming platform, launches today with 22 games.",
      "Players need a fast connection of at least 10 megabits per second.",
      "Meanwhile, the company's new phone sold out in two days in Japan.",
    ].join(" ");
    const answer = await chat.answer("What is Stadia?", [{ n: 1, title: "Stadia launch", text }]);
    expect(answer).toStartWith("Stadia, Google's streaming gaming platform, launches today");
    expect(answer).not.toContain("phone");
  });
});

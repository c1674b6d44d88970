// The held-out set stays honest: every gold phrase is in its page, the splits are the seeded halves,
// and no absent-subject question names a word the pages hold as a subject. Skipped without the pages.
import { describe, expect, test } from "bun:test";
import { loadHeldOut } from "./eval-heldout.ts";

const loaded = loadHeldOut();

describe.skipIf(!loaded)("held-out questions on the extraction benchmark pages", () => {
  const { set, bodies } = loaded!;
  test("every gold answer is a verbatim phrase of its own page", () => {
    const missing = set.articles.flatMap((a) =>
      a.questions.filter((q) => !bodies.get(a.id)?.includes(q.answer)).map((q) => `${a.id}: ${q.answer}`),
    );
    expect(missing).toEqual([]);
  });
  test("dev and test split the 181 pages into halves with questions on both", () => {
    const dev = set.articles.filter((a) => a.split === "dev");
    const held = set.articles.filter((a) => a.split === "test");
    expect(dev.length + held.length).toBe(bodies.size);
    expect(Math.abs(dev.length - held.length)).toBeLessThanOrEqual(1);
    for (const s of [dev, held]) expect(s.reduce((n, a) => n + a.questions.length, 0)).toBeGreaterThan(80);
    expect(set.absent.dev.length).toBeGreaterThanOrEqual(10);
    expect(set.absent.test.length).toBeGreaterThanOrEqual(10);
  });
});

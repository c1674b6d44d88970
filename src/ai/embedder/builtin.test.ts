// The builtin embedder: deterministic, unit-length, and lexically sensible on paraphrases and the evaluation set.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chunkMarkdown } from "../../features/search/chunker.ts";
import { createBuiltinEmbedder, stem } from "./builtin.ts";
import { dot } from "./port.ts";

const FIXTURES = join(import.meta.dir, "../../../test/fixtures/search");
const embedder = createBuiltinEmbedder();
const one = async (text: string) => (await embedder.embed([text]))[0]!;
const sim = async (a: string, b: string) => dot(await one(a), await one(b));

describe("createBuiltinEmbedder", () => {
  test("names its vector space and size", () => {
    expect(embedder.id).toBe("builtin-hash-v1");
    expect(embedder.dimensions).toBe(384);
    expect(createBuiltinEmbedder({ dimensions: 64 })).toMatchObject({ id: "builtin-hash-v1-64", dimensions: 64 });
    expect(() => createBuiltinEmbedder({ dimensions: 3 })).toThrow(RangeError);
  });

  test("is deterministic across instances and calls", async () => {
    const text = "The Gulf Stream carries warm water across the Atlantic.";
    const [a] = await embedder.embed([text]);
    const [b] = await createBuiltinEmbedder().embed([text]);
    expect(Array.from(b!)).toEqual(Array.from(a!));
    expect(Array.from((await embedder.embed([text], "query"))[0]!)).toEqual(Array.from(a!));
  });

  test("returns unit-length vectors in input order; text with no content words is all zeros", async () => {
    const texts = ["Honeybees dance to share where flowers are.", "Index funds track the market.", "", "the and of"];
    const vs = await embedder.embed(texts);
    expect(vs).toHaveLength(4);
    expect(dot(vs[0]!, vs[0]!)).toBeCloseTo(1, 5);
    expect(dot(vs[1]!, vs[1]!)).toBeCloseTo(1, 5);
    expect(vs[2]!.every((x) => x === 0)).toBe(true);
    expect(vs[3]!.every((x) => x === 0)).toBe(true);
    expect(dot(vs[0]!, await one(texts[0]!))).toBeCloseTo(1, 5);
  });

  test("paraphrases sharing stems score well above unrelated text", async () => {
    const cases: [string, string, string][] = [
      [
        "How do plants turn sunlight into energy?",
        "Photosynthesis lets a plant convert the light of the sun into chemical energy.",
        "The central bank raised interest rates to fight inflation.",
      ],
      [
        "baking bread with a sourdough starter",
        "She bakes sourdough breads using her starter.",
        "The offside rule confuses many football fans.",
      ],
      [
        "Which astronomer found the first exoplanet?",
        "Astronomers discovered the first exoplanets in 1995.",
        "Knead the pasta dough for ten minutes.",
      ],
      [
        "indexing columns in a database",
        "A database index on two columns speeds up queries.",
        "Jazz musicians improvise over chord changes.",
      ],
    ];
    for (const [q, close, far] of cases) {
      const near = await sim(q, close);
      const unrelated = await sim(q, far);
      expect(near).toBeGreaterThan(unrelated + 0.15);
    }
  });

  test("morphological variants meet through stems and character grams", async () => {
    expect(await sim("running marathons", "she ran a marathon and keeps running")).toBeGreaterThan(0.4);
    expect(await sim("photosynthetic organisms", "photosynthesis in organisms")).toBeGreaterThan(
      await sim("photosynthetic organisms", "organised sports"),
    );
  });

  test("stem folds plurals, -ing, -ed and a final e", () => {
    expect(["bake", "bakes", "baking", "baked"].map(stem)).toEqual(["bak", "bak", "bak", "bak"]);
    expect(["glasses", "glass", "analysis", "cities", "city", "stopped", "stop"].map(stem)).toEqual([
      "glass",
      "glass",
      "analysis",
      "city",
      "city",
      "stop",
      "stop",
    ]);
  });

  test("retrieves the expected article for most evaluation questions", async () => {
    const chunks: { slug: string; v: Float32Array }[] = [];
    for (const f of readdirSync(join(FIXTURES, "articles"))) {
      const texts = chunkMarkdown(readFileSync(join(FIXTURES, "articles", f), "utf8")).map((c) => c.text);
      const vs = await embedder.embed(texts);
      for (const v of vs) chunks.push({ slug: f.replace(/\.md$/, ""), v });
    }
    const questions = JSON.parse(readFileSync(join(FIXTURES, "questions.json"), "utf8")) as {
      question: string;
      expected: string;
    }[];
    let top1 = 0;
    let top5 = 0;
    for (const q of questions) {
      const qv = await one(q.question);
      const ranked = chunks.map((c) => ({ slug: c.slug, s: dot(qv, c.v) })).sort((a, b) => b.s - a.s);
      const slugs = [...new Set(ranked.map((r) => r.slug))];
      const rank = slugs.indexOf(q.expected);
      if (rank === 0) top1++;
      if (rank >= 0 && rank < 5) top5++;
    }
    // Measured: 0.81 at rank 1 and 0.98 in the top 5 (103 questions); the margin only guards regressions.
    expect(top1 / questions.length).toBeGreaterThan(0.7);
    expect(top5 / questions.length).toBeGreaterThan(0.9);
  });
});

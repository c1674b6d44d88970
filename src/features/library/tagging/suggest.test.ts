// Tag suggestions: the library's own tags first (named in the text, or carried by the nearest sources),
// a couple of new ones from repeated phrases, never a tag the source has; and merge proposals.
import { describe, expect, test } from "bun:test";
import { createBuiltinEmbedder } from "../../../ai/embedder/builtin.ts";
import { expectLinearGrowth } from "../../../../test/linear.ts";
import { createSuggester, keyPhrases, MAX_NEW, similarTags, tagKey } from "./suggest.ts";

const embedder = createBuiltinEmbedder();

const ARTICLE = {
  title: "Sea star wasting returns to the Pacific coast",
  text: [
    "Sea star wasting disease is back along the Pacific coast. Divers counted thousands of dying sea stars in tide pools.",
    "Marine biologists say the sea star wasting outbreak follows warmer water. The disease turns sea stars to mush within days.",
    "Researchers at the marine lab sampled tide pools every week. Warmer water and the outbreak appear linked, marine biologists said.",
    "Kelp forests suffer when sea stars vanish, because urchins they eat multiply. Kelp forests are a nursery for fish.",
  ].join("\n\n"),
};

describe("keyPhrases", () => {
  test("repeated phrases in their usual spelling, pairs before the words inside them", () => {
    const labels = keyPhrases(ARTICLE.title, ARTICLE.text).map((p) => p.label);
    expect(tagKey(labels[0]!)).toBe(tagKey("sea star"));
    expect(labels).toContain("tide pools");
    expect(labels).toContain("Kelp forests");
    // "star" alone adds nothing once "sea star" is kept.
    expect(labels).not.toContain("star");
  });

  test("stays linear: a megabyte of text is read only up to its opening", () => {
    // From 25,000 to 200,000 words the cost may not grow faster than the text.
    expectLinearGrowth((n) => {
      const huge = "word ".repeat(25_000 * n);
      return () => keyPhrases("t", huge);
    });
  }, 30_000);
});

describe("suggestions", () => {
  test("an existing tag the text names comes first, spelled as in the library; at most two new ones", async () => {
    const s = createSuggester({ embedder });
    const tags = await s.suggest({ ...ARTICLE, existing: ["Kelp-Forests", "cooking", "Tide pools"], current: [] });
    expect(tags.slice(0, 2).sort()).toEqual(["Kelp-Forests", "Tide pools"].sort());
    expect(tags).not.toContain("cooking");
    expect(tags.length).toBeLessThanOrEqual(5);
    expect(tags.filter((t) => !["Kelp-Forests", "Tide pools"].includes(t)).length).toBeLessThanOrEqual(MAX_NEW);
  });

  test("a new phrase that is an existing tag in other words is snapped onto it, not added beside it", async () => {
    const s = createSuggester({ embedder });
    const tags = await s.suggest({ ...ARTICLE, existing: ["sea-stars"], current: [] });
    expect(tags).toContain("sea-stars");
    expect(tags.map(tagKey).filter((k) => k === tagKey("sea stars"))).toHaveLength(1);
  });

  test("tags of the nearest sources are suggested though the text never names them", async () => {
    const s = createSuggester({
      embedder,
      neighbours: async () => [
        { tags: ["oceans", "climate"], score: 0.6 },
        { tags: ["oceans"], score: 0.5 },
        { tags: ["recipes"], score: 0.1 },
      ],
    });
    const tags = await s.suggest({ ...ARTICLE, existing: ["oceans", "climate", "recipes"], current: [] });
    expect(tags[0]).toBe("oceans");
    expect(tags).not.toContain("recipes");
  });

  test("never suggests what the source already carries; nothing at all for an empty text", async () => {
    const s = createSuggester({ embedder });
    const tags = await s.suggest({ ...ARTICLE, existing: ["tide pools"], current: ["Tide Pools", "sea star"] });
    expect(tags.map(tagKey)).not.toContain(tagKey("tide pools"));
    expect(tags.map(tagKey)).not.toContain(tagKey("sea star"));
    expect(await s.suggest({ title: "", text: "", existing: ["x"], current: [] })).toEqual([]);
  });
});

describe("similar tags", () => {
  test("the same words spelled twice, and tags nearly always put together, are proposed as merges", async () => {
    const tagged = [
      ["Rust", "ml"],
      ["rust", "ml", "machine-learning"],
      ["Rust", "ml", "machine-learning"],
      ["ml", "machine-learning"],
      ["web-dev"],
      ["web dev", "cooking"],
    ];
    const pairs = await similarTags(embedder, tagged);
    expect(pairs).toContainEqual({ keep: "Rust", merge: "rust", reason: "spelling", similarity: 1 });
    expect(pairs).toContainEqual({ keep: "web dev", merge: "web-dev", reason: "spelling", similarity: 1 });
    expect(pairs).toContainEqual({ keep: "ml", merge: "machine-learning", reason: "together", similarity: 1 });
    expect(pairs.some((p) => [p.keep, p.merge].includes("cooking"))).toBe(false);
  });
});

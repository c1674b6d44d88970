// Sentence segmentation: URLs, abbreviations, decimals, wrapped PDF lines, lists and Markdown.
import { describe, expect, test } from "bun:test";
import { segmentSentences } from "./sentences.ts";

const texts = (t: string) => segmentSentences(t).map((s) => s.text);

describe("segmentSentences", () => {
  test("a URL is never split at its dots or colon", () => {
    const t = "Read more at http://127.0.0.1:47400/articles/sourdough-microbiology). Lactobacilli make the acid.";
    const s = texts(t);
    expect(s).toEqual([
      "Read more at http://127.0.0.1:47400/articles/sourdough-microbiology).",
      "Lactobacilli make the acid.",
    ]);
    expect(s.some((x) => x.startsWith("1:47400"))).toBe(false);
  });

  test("abbreviations and initials do not end a sentence", () => {
    expect(
      texts("Dr. Ana Silva met Prof. J. R. Okonjo in St. Louis on Jan. 5. They talked about bees, e.g. their dance."),
    ).toEqual([
      "Dr. Ana Silva met Prof. J. R. Okonjo in St. Louis on Jan. 5.",
      "They talked about bees, e.g. their dance.",
    ]);
    expect(texts("The U.S. Geological Survey logs quakes. In the U.S. The count rose.")).toEqual([
      "The U.S. Geological Survey logs quakes.",
      "In the U.S.",
      "The count rose.",
    ]);
  });

  test("decimals and version numbers stay whole", () => {
    expect(texts("The dough rises 3.5 times in 2.25 hours. Bun 1.4.5 was used.")).toEqual([
      "The dough rises 3.5 times in 2.25 hours.",
      "Bun 1.4.5 was used.",
    ]);
  });

  test("PDF-wrapped lines are joined into one sentence, offsets still exact", () => {
    const t =
      "A well-built heap reaches 60 degrees at its centre, hot enough to kill most weed\nseeds and pathogens. The pile should feel like a\nwrung-out sponge when squeezed.\n\n## Turning";
    const segs = segmentSentences(t);
    expect(segs.map((s) => s.text)).toEqual([
      "A well-built heap reaches 60 degrees at its centre, hot enough to kill most weed\nseeds and pathogens.",
      "The pile should feel like a\nwrung-out sponge when squeezed.",
      "## Turning",
    ]);
    for (const s of segs) expect(t.slice(s.start, s.end)).toBe(s.text);
    expect(segs[2]!.kind).toBe("heading");
  });

  test("a short title line above a paragraph stays its own sentence", () => {
    expect(texts("Field notes\nCurlews probe the mud for worms.")).toEqual([
      "Field notes",
      "Curlews probe the mud for worms.",
    ]);
  });

  test("list items are sentences without their markers; headings keep theirs", () => {
    const t =
      "# Tips\n\n- Keep the pile moist\n- Turn it weekly. Add browns.\n1. Chop scraps small\n> Quoted wisdom here.";
    const segs = segmentSentences(t);
    expect(segs.map((s) => [s.kind, s.text])).toEqual([
      ["heading", "# Tips"],
      ["item", "Keep the pile moist"],
      ["item", "Turn it weekly."],
      ["item", "Add browns."],
      ["item", "Chop scraps small"],
      ["quote", "Quoted wisdom here."],
    ]);
    for (const s of segs) expect(t.slice(s.start, s.end)).toBe(s.text);
  });

  test("Markdown links and closing quotes stay inside their sentence", () => {
    expect(
      texts('She wrote "the hive decides." Then [the study](https://example.org/a.b?c=1) showed 2.5x more dances.'),
    ).toEqual([
      'She wrote "the hive decides."',
      "Then [the study](https://example.org/a.b?c=1) showed 2.5x more dances.",
    ]);
  });
});

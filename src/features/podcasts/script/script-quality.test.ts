// Script quality over realistic articles: no page furniture, no dangling openings, no repeated host
// questions, debate sides quoting their own side, critique keeping claims apart from objections, a short brief.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jaccard } from "../../../ai/text.ts";
import { ARTICLES, type ArticleFixture } from "../fixtures/articles.ts";
import { FORMATS, PODCAST_FORMATS, WORDS_PER_MINUTE, type PodcastFormat } from "../formats.ts";
import { LONG_ARTICLE } from "../testdata.ts";
import { createBuiltinScriptWriter } from "./builtin.ts";
import { isClutter, isDangling, stripDateline } from "./clean.ts";
import { speakable } from "./material.ts";
import { phrasesFor } from "./phrases.ts";
import type { Turn } from "./port.ts";
import { cueStance, paragraphStances } from "./stance.ts";
import { rankSentences, sectionsOf } from "./text.ts";

const fromRepo = (name: string): ArticleFixture => {
  const markdown = readFileSync(join(import.meta.dir, "../../../../test/fixtures/search/articles", name), "utf8");
  return { title: /^# (.*)$/m.exec(markdown)![1]!, markdown };
};
const CORPUS: ArticleFixture[] = [
  ...ARTICLES,
  { title: "The quiet revolution on city rooftops", markdown: LONG_ARTICLE },
  fromRepo("index-funds-vs-active-management.md"),
  fromRepo("honeybee-colonies.md"),
];
const writer = createBuiltinScriptWriter();
const write = (a: ArticleFixture, format: PodcastFormat) =>
  writer.write({
    spec: FORMATS[format],
    title: a.title,
    language: "en",
    documents: [{ id: "s", title: a.title, markdown: a.markdown }],
  });
const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
const EN = phrasesFor("en");
/** What a host says around a quote ("Point 2: ", "Against that: "), so the quote itself can be checked. */
const PREFIXES = [
  EN.crClaim,
  EN.crAlso,
  EN.crStrength,
  EN.crCentral,
  EN.crHedge,
  EN.crNoEvidence,
  EN.crObjection,
  EN.crAnswered,
  EN.crVerdict,
  EN.crOpen,
  EN.crStrongest,
  EN.dbConcede,
  EN.dbCounter,
  EN.dbCloseFor,
  EN.ddInShort,
  EN.summary,
  EN.example,
];
const quoteOf = (text: string) => {
  let rest = text.replace(/^(First|Second|Third|Fourth|Fifth|Sixth|Point \d+|Part \d+: [^.]*\.): ?/, "");
  for (const p of PREFIXES) if (rest.startsWith(p)) rest = rest.slice(p.length);
  return rest.trim();
};

/** Furniture as a reader would spot it, independent of the writer's own filter. */
const CLUTTER =
  /filed under|\bmin read\b|^by [A-Z]|\btags?:|share (on|this)|\bphoto:|image credit|\bcredit:|reporting by|editing by|\(reuters\)|advertisement|^published\b|^updated\b|^caption\b|^related:/im;
/** Cue words a reader uses to spot a reported objection, independent of the writer's stance rules. */
const OBJECTION_CUE =
  /\b(critics?|opponents?|sceptic\w*|skeptic\w*|warn\w*|disagree\w*|objections?|ranchers say|installers report|cannot cope|concerns?|mocked)\b/i;

describe.each(CORPUS.map((a) => [a.title, a] as const))("%s", (_title, article) => {
  const sectionOf = (quote: string) => {
    const sections = sectionsOf(article.markdown);
    return sections.find((s) => s.paragraphs.some((p) => p.includes(quote.slice(0, 40))));
  };
  /**
   * A quote reports an objection when its words say so, when an earlier sentence of its paragraph
   * does ("Critics called it… The fund raised only…"), or when it sits under a heading that does.
   */
  const reportsObjection = (quote: string) => {
    const section = sectionOf(quote);
    const paragraph = section?.paragraphs.find((p) => p.includes(quote.slice(1, 41))) ?? "";
    const before = paragraph.slice(0, Math.max(0, paragraph.indexOf(quote.slice(1, 41))));
    return (
      OBJECTION_CUE.test(quote) ||
      OBJECTION_CUE.test(before) ||
      /against|critic|objection|concern/i.test(section?.heading ?? "")
    );
  };
  const all = new Map<PodcastFormat, Turn[]>();
  const turns = async (f: PodcastFormat) => all.get(f) ?? all.set(f, await write(article, f)).get(f)!;

  test("no format reads page furniture, and none quotes a sentence that dangles", async () => {
    const body = sectionsOf(article.markdown)
      .flatMap((s) => s.paragraphs)
      .join(" ");
    for (const format of PODCAST_FORMATS) {
      for (const t of await turns(format)) {
        expect(t.text).not.toMatch(CLUTTER);
        const quote = quoteOf(t.text);
        const quoted = body.includes(quote.slice(1, 31));
        if (format !== "unabridged" && quoted)
          expect({ format, dangling: isDangling(quote), text: t.text }).toEqual({
            format,
            dangling: false,
            text: t.text,
          });
      }
    }
  });

  test("deep_dive: questions about the passage that follows, never the same question template twice", async () => {
    const dd = await turns("deep_dive");
    const questions = dd.filter(
      (t) =>
        t.speaker === "Maya" &&
        t.text.endsWith("?") &&
        t !== dd[0] &&
        t !== dd[dd.length - 1] &&
        t.text !== EN.ddTakeaway,
    );
    expect(questions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(questions.map((q) => q.text)).size).toBe(questions.length);
    const templates = [...EN.ddAsks, ...EN.ddFollows].map(
      (tpl) => new RegExp(`^${tpl.replace(/[.?*+()[\]^$|\\]/g, "\\$&").replace(/\{\w+\}/g, ".+")}$`),
    );
    for (const re of templates) expect(questions.filter((q) => re.test(q.text)).length).toBeLessThanOrEqual(1);
    expect(dd.map((t) => t.text).join("\n")).not.toMatch(/What else stands out|both turn on/);
    // Every question names something the answer then talks about.
    const fixed = new Set(
      [...EN.ddAsks, ...EN.ddFollows]
        .join(" ")
        .toLowerCase()
        .match(/[a-z']{4,}/g),
    );
    const headingWords = new Set(
      sectionsOf(article.markdown).flatMap((s) => s.heading?.toLowerCase().match(/[a-z']{4,}/g) ?? []),
    );
    for (const q of questions) {
      const answer = dd[dd.indexOf(q) + 1]!.text.toLowerCase();
      const asked = (q.text.toLowerCase().match(/[a-z']{4,}/g) ?? []).filter(
        (w) => !fixed.has(w) && !headingWords.has(w),
      );
      if (asked.length > 0)
        expect({ q: q.text, answered: asked.some((w) => answer.includes(w.slice(0, 4))) }).toEqual({
          q: q.text,
          answered: true,
        });
    }
  });

  test("brief: three to five distinct takeaways from across the article, under two minutes", async () => {
    const brief = await turns("brief");
    expect(brief.reduce((n, t) => n + words(t.text), 0) / WORDS_PER_MINUTE).toBeLessThan(2);
    const takeaways = brief.slice(1, -1).map((t) => quoteOf(t.text));
    expect(takeaways.length).toBeGreaterThanOrEqual(3);
    const sets = takeaways.map((t) => new Set(t.toLowerCase().split(/\W+/)));
    sets.forEach((a, i) => sets.slice(i + 1).forEach((b) => expect(jaccard(a, b)).toBeLessThan(0.5)));
    const sections = new Set(takeaways.map((t) => sectionOf(t)?.heading ?? "lead"));
    expect(sections.size).toBeGreaterThanOrEqual(Math.min(3, sectionsOf(article.markdown).length));
  });

  test("debate: the side for never quotes an objection; the side against quotes only objections (or the text's own admitted limits)", async () => {
    const db = await turns("debate");
    const forSide = db
      .filter((t) => t.speaker === "Maya" && (t.text.startsWith("Point") || t.text.startsWith(EN.dbCloseFor)))
      .map((t) => quoteOf(t.text));
    expect(forSide.length).toBeGreaterThanOrEqual(2);
    for (const q of forSide) expect(reportsObjection(q)).toBe(false);
    const counters = db
      .filter((t) => t.speaker === "Theo" && t.text.startsWith(EN.dbCounter))
      .map((t) => quoteOf(t.text));
    for (const q of counters) expect(reportsObjection(q)).toBe(true);
  });

  test("critique: the claim is the article's, never an objection it reports; objections are named as such and weighed", async () => {
    const cr = await turns("critique");
    const claim = cr.find((t) => t.text.startsWith(EN.crClaim))!;
    expect(reportsObjection(quoteOf(claim.text))).toBe(false);
    const objections = cr.filter((t) => t.text.startsWith(EN.crObjection));
    for (const o of objections) {
      expect(quoteOf(o.text)).not.toBe(quoteOf(claim.text));
      const reply = cr[cr.indexOf(o) + 1]!;
      expect(reply.text.startsWith(EN.crAnswered) || reply.text === EN.crUnanswered).toBe(true);
    }
  });

  test("unabridged reads the article's text and none of its furniture", async () => {
    const spoken = (await turns("unabridged")).map((t) => t.text).join("\n");
    expect(spoken).not.toMatch(CLUTTER);
    const body = sectionsOf(article.markdown).flatMap((s) => s.paragraphs);
    for (const p of body) expect(spoken).toContain(p);
  });
});

test("every fixture with critics yields objections in critique and counters in debate", async () => {
  for (const article of ARTICLES) {
    expect((await write(article, "critique")).some((t) => t.text.startsWith(EN.crObjection))).toBe(true);
    expect((await write(article, "debate")).some((t) => t.text.startsWith(EN.dbCounter))).toBe(true);
  }
});

describe("the rules behind the checks", () => {
  test.each([
    "By Tomas Ferreira · 2024-06-01 · 7 min read",
    "By Lena Okafor, Environment correspondent",
    "Published March 3, 2025, Updated March 4, 2025",
    "June 12, 2024 · 5 min read",
    "OSLO — 14 January 2025",
    "Filed under: Nature.",
    "Tags: baking, bread, fermentation",
    "Share on Twitter · Share on Facebook · Email",
    "Share: Facebook Twitter LinkedIn Email",
    "Workers leave an office in central London on a Thursday afternoon. Photo: Jane Doe/Reuters",
    "Image credit: National Park Service",
    "Reporting by Tomas Ferreira; editing by Alex Smith",
    "Related: How to shape a boule · The best flour for bread",
    "Advertisement",
  ])("furniture: %s", (line) => expect(isClutter(line)).toBe(true));

  test.each([
    "By the end of the decade, most new roofs in the city were planted.",
    "Share prices fell by a third after the announcement in June.",
    "Photosynthesis turns light, water and carbon dioxide into sugar.",
    "On June 1, 2024, sixty companies reported that revenue stayed flat while sick days fell.",
  ])("text, not furniture: %s", (line) => expect(isClutter(line)).toBe(false));

  test("a news dateline is cut from the front of the first sentence", () => {
    expect(stripDateline("LONDON, June 1 (Reuters) - Sixty British companies cut their week.")).toBe(
      "Sixty British companies cut their week.",
    );
    expect(stripDateline("NASA said on Monday that the probe was healthy.")).toBe(
      "NASA said on Monday that the probe was healthy.",
    );
  });

  test("dangling openings are recognised, and repaired with the sentence before them or dropped", () => {
    for (const s of [
      "They point to the survey.",
      "This means the results differ.",
      "Treat it like one, feed it regularly and it will keep growing.",
    ])
      expect(isDangling(s)).toBe(true);
    for (const s of ["Theories of sleep differ.", "Thistles grow on dry ground.", "Itineraries change often."])
      expect(isDangling(s)).toBe(false);
    const ranked = rankSentences(
      sectionsOf(
        "Supporters argue that the plan pays for itself over ten years. They point to the survey of two thousand workers.\n\nTreat it like one, feed it regularly and it will keep growing.",
      ),
    );
    const [supporters, they, treat] = ranked;
    expect(speakable([they!])).toEqual([
      "Supporters argue that the plan pays for itself over ten years. They point to the survey of two thousand workers.",
    ]);
    expect(speakable([supporters!, they!])).toEqual([
      "Supporters argue that the plan pays for itself over ten years. They point to the survey of two thousand workers.",
    ]);
    expect(speakable([treat!])).toEqual([]);
  });

  test("stance: cue words, negation, a paragraph's running side, 'however' and headings", () => {
    expect(cueStance("Critics argue that the trial firms volunteered.")).toBe("against");
    expect(cueStance("Supporters argue that the week pays for itself.")).toBe("for");
    expect(cueStance("There is no evidence of any benefit to workers.")).toBe("against");
    expect(cueStance("Revenue stayed broadly flat.")).toBe("neutral");
    expect(
      paragraphStances(
        [
          "Critics called it a folly.",
          "The fund raised only eleven million dollars.",
          "However, it now holds trillions.",
        ],
        null,
      ),
    ).toEqual(["against", "against", "for"]);
    expect(paragraphStances(["Ranchers lose cattle every winter."], "What critics say")).toEqual(["against"]);
    expect(paragraphStances(["Tourism has grown."], "The case for")).toEqual(["for"]);
    expect(paragraphStances(["Bees store food for winter."], "A home for bees")).toEqual(["neutral"]);
  });
});

// The builtin script writer per format, Markdown clean-up, and the checks on model replies.
import { describe, expect, test } from "bun:test";
import { FORMATS, PODCAST_FORMATS, WORDS_PER_MINUTE } from "../formats.ts";
import { LONG_ARTICLE, SHORT_ARTICLE } from "../testdata.ts";
import { createBuiltinScriptWriter } from "./builtin.ts";
import { ScriptError, type ScriptRequest } from "./port.ts";
import { sectionsOf } from "./text.ts";
import { parseOutline, parseTurns, ReplyError } from "./validate.ts";

const writer = createBuiltinScriptWriter();
const TITLE = "The quiet revolution on city rooftops";
const request = (format: keyof typeof FORMATS, markdown = LONG_ARTICLE, language = "en"): ScriptRequest => ({
  spec: FORMATS[format],
  title: TITLE,
  language,
  documents: [{ id: "src_1", title: TITLE, markdown }],
});
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const squash = (s: string) => s.replace(/\s+/g, " ");

describe("builtin script writer", () => {
  test.each(PODCAST_FORMATS)(
    "%s: turns by the format's speakers only, and two-host formats use both",
    async (format) => {
      const turns = await writer.write(request(format));
      const names = FORMATS[format].speakers.map((s) => s.name);
      expect(turns.length).toBeGreaterThan(2);
      expect(turns.every((t) => names.includes(t.speaker) && t.text.trim().length > 0)).toBe(true);
      expect(new Set(turns.map((t) => t.speaker)).size).toBe(names.length);
    },
  );

  test("brief: a handful of takeaways taken verbatim from the text, under two minutes", async () => {
    const turns = await writer.write(request("brief"));
    const total = turns.reduce((n, t) => n + words(t.text), 0);
    expect(total / WORDS_PER_MINUTE).toBeLessThan(2);
    const takeaways = turns.slice(1, -1).map((t) => t.text.replace(/^\w+: /, ""));
    expect(takeaways.length).toBeGreaterThanOrEqual(3);
    for (const sentence of takeaways) expect(squash(LONG_ARTICLE)).toContain(sentence);
  });

  test("brief: a sentence the article repeats (a pull quote) is read once", async () => {
    const quote = "Rooftop gardens cut a building's cooling bill by a fifth in the first summer.";
    const repeated = LONG_ARTICLE.split(/\n\n/)
      .flatMap((p, i) => (i % 3 === 1 ? [p, `> ${quote}`, `${quote} Residents noticed.`] : [p]))
      .join("\n\n");
    const turns = await writer.write(request("brief", `${quote}\n\n${repeated}`));
    const takeaways = turns.slice(1, -1).map((t) => t.text.replace(/^\w+: /, ""));
    const keys = takeaways.map((t) => new Set(t.toLowerCase().match(/[a-z]+/g)));
    const dup = keys.some((a, i) =>
      keys.some((b, j) => j > i && [...a].filter((w) => b.has(w)).length / new Set([...a, ...b]).size > 0.5),
    );
    expect(takeaways.length).toBeGreaterThanOrEqual(2);
    expect(dup).toBe(false);
  });

  test("summaries stay near their target length and shorter than the source", async () => {
    for (const format of ["solo_expert", "deep_dive", "critique", "debate"] as const) {
      const total = (await writer.write(request(format))).reduce((n, t) => n + words(t.text), 0);
      expect(total).toBeLessThan(words(LONG_ARTICLE));
      expect(total).toBeLessThanOrEqual(FORMATS[format].targetWords! * 1.1);
      expect(total).toBeGreaterThan(150);
    }
  });

  test("deep_dive asks about each section by its heading and answers from it", async () => {
    const turns = await writer.write(request("deep_dive"));
    const headings = sectionsOf(LONG_ARTICLE).flatMap((s) => (s.heading ? [s.heading.toLowerCase()] : []));
    const questions = turns.filter(
      (t) => t.speaker === "Maya" && headings.some((h) => t.text.toLowerCase().includes(h)),
    );
    expect(questions.length).toBeGreaterThanOrEqual(4);
    const measured = questions.find((q) => q.text.toLowerCase().includes("what the measurements show"))!;
    const answer = turns[turns.indexOf(measured) + 1]!;
    expect(answer.speaker).toBe("Theo");
    expect(answer.text).toMatch(/Toronto|storm|percent|degrees/);
  });

  test("unabridged: every paragraph and heading, in order, nothing summarised away", async () => {
    const turns = await writer.write(request("unabridged"));
    const spoken = squash(turns.map((t) => t.text).join(" "));
    for (const section of sectionsOf(LONG_ARTICLE)) {
      for (const paragraph of section.paragraphs) expect(spoken).toContain(paragraph);
    }
    expect(spoken.indexOf("Why cities are turning")).toBeLessThan(spoken.indexOf("What comes next"));
    expect(words(spoken)).toBeGreaterThanOrEqual(words(LONG_ARTICLE) - 30);
  });

  test("critique and debate draw their objections from the text's own limits", async () => {
    const critique = (await writer.write(request("critique"))).map((t) => t.text).join("\n");
    expect(critique).toContain("The text itself flags a limit: Green roofs are not a cure");
    const debate = await writer.write(request("debate"));
    expect(debate.filter((t) => t.text.startsWith("But the text itself concedes:")).length).toBeGreaterThanOrEqual(2);
  });

  test("the requested language is used for the programme's own words", async () => {
    const fr = await writer.write(request("deep_dive", SHORT_ARTICLE, "fr-CA"));
    expect(fr[0]!.text).toContain("Bienvenue");
    const unknown = await writer.write(request("brief", SHORT_ARTICLE, "xx"));
    expect(unknown[0]!.text).toContain("the brief");
  });

  test("several sources become sections named by their titles", async () => {
    const turns = await writer.write({
      ...request("solo_expert"),
      documents: [
        { id: "a", title: "Tide pools", markdown: SHORT_ARTICLE.replace(/^## .*$/gm, "") },
        {
          id: "b",
          title: "Rooftops",
          markdown: "Green roofs cool buildings in summer and hold back storm water in heavy rain.",
        },
      ],
    });
    expect(turns[0]!.text).toContain("Tide pools and Rooftops");
  });

  test("a text with no sentences is a no_content error", async () => {
    const err = await writer.write(request("deep_dive", "# Only a heading\n\n![img](x.png)")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScriptError);
    expect((err as ScriptError).code).toBe("no_content");
  });
});

describe("Markdown to speakable text", () => {
  test("links keep their words; images, code and markup go; list items become sentences", () => {
    const md =
      "Intro with a [link](https://x.example) and **bold** and `code`.\n\n![alt](a.png)\n\n- first item\n- second item\n\n```js\nlet x = 1;\n```\n\n## Next part\nMore text here";
    const s = sectionsOf(md);
    expect(s[0]!.paragraphs).toEqual([
      "Intro with a link and bold and code.",
      "first item.",
      "second item.",
      "A code sample follows in the text; it is not read aloud.",
    ]);
    expect(s[1]).toEqual({ heading: "Next part", paragraphs: ["More text here."] });
  });
});

describe("model reply checks", () => {
  test("turns: bare arrays, wrapped arrays and code fences are accepted; names are matched without case", () => {
    expect(parseTurns('[{"speaker":"maya","text":"Hi"}]', ["Maya", "Theo"])).toEqual([{ speaker: "Maya", text: "Hi" }]);
    expect(
      parseTurns('```json\n{"turns":[{"speaker":"Theo","text":" Hello \\n there "}]}\n```', ["Maya", "Theo"]),
    ).toEqual([{ speaker: "Theo", text: "Hello there" }]);
  });

  test.each([
    ["not json", /not valid JSON/],
    ['{"foo": 1}', /"turns" array/],
    ["[]", /no turns/],
    ['[{"speaker":"Bob","text":"Hi"}]', /speaker "Bob", but the only speakers are "Maya" and "Theo"/],
    ['[{"speaker":"Maya","text":""}]', /turn 1 has no "text"/],
    ['[{"speaker":"Maya"}, 5]', /turn 1 has no "text"/],
  ])("%s is refused with a reason the model can act on", (reply, message) => {
    expect(() => parseTurns(reply, ["Maya", "Theo"])).toThrow(ReplyError);
    expect(() => parseTurns(reply, ["Maya", "Theo"])).toThrow(message);
  });

  test("outline: segments with titles, capped", () => {
    const reply = JSON.stringify({
      segments: Array.from({ length: 9 }, (_, i) => ({ title: `S${i}`, points: ["p", 3] })),
    });
    const out = parseOutline(reply, 6);
    expect(out).toHaveLength(6);
    expect(out[0]).toEqual({ title: "S0", points: ["p"] });
    expect(() => parseOutline('{"segments":[{"points":[]}]}', 6)).toThrow(/segment 1 has no "title"/);
  });
});

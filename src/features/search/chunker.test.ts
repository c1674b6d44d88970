// Chunker properties: exact offsets, size limits, paragraph integrity, headings and overlap.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chunkMarkdown, estimateTokens, type Chunk } from "./chunker.ts";

const ARTICLES = join(import.meta.dir, "../../../test/fixtures/search/articles");

/** A small seeded PRNG so the generated documents are the same on every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = "the river carried salt and stories north while traders argued over prices in the busy harbour".split(
  " ",
);

function sentence(r: () => number): string {
  const n = 4 + Math.floor(r() * 14);
  const ws = Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]!);
  return ws.join(" ").replace(/^./, (c) => c.toUpperCase()) + [".", "!", "?", "."][Math.floor(r() * 4)];
}

function paragraph(r: () => number, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(r)).join(" ");
}

/** A varied Markdown document: headings, prose, lists, fences, long paragraphs, odd line ends. */
function generate(seed: number): string {
  const r = rng(seed);
  const nl = r() < 0.4 ? "\r\n" : "\n";
  const parts: string[] = [`# Document ${seed}`];
  const blocks = 5 + Math.floor(r() * 40);
  for (let i = 0; i < blocks; i++) {
    const p = r();
    if (p < 0.15) parts.push(`${"#".repeat(2 + Math.floor(r() * 3))} Part ${i}`);
    else if (p < 0.25) parts.push(Array.from({ length: 3 + Math.floor(r() * 6) }, () => `- ${sentence(r)}`).join(nl));
    else if (p < 0.33) parts.push(["```ts", "const x = 1;", "", "function f() {", "  return x;", "}", "```"].join(nl));
    else if (p < 0.38) parts.push(paragraph(r, 60 + Math.floor(r() * 80)));
    else if (p < 0.4) parts.push("z".repeat(3000 + Math.floor(r() * 5000)));
    else parts.push(paragraph(r, 1 + Math.floor(r() * 8)));
  }
  return parts.join(nl + nl + (r() < 0.2 ? `  ${nl}` : ""));
}

function checkInvariants(md: string, chunks: Chunk[], max = 512) {
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(md.slice(c.start, c.end)).toBe(c.text);
    expect(c.text.trim()).toBe(c.text);
    expect(c.text.length).toBeGreaterThan(0);
    expect(c.tokenCount).toBe(estimateTokens(c.text));
    expect(c.tokenCount).toBeLessThanOrEqual(max);
    if (i > 0) {
      // Chunks move forward; overlap never swallows a whole previous chunk.
      expect(c.start).toBeGreaterThan(chunks[i - 1]!.start);
      expect(c.end).toBeGreaterThan(chunks[i - 1]!.end);
    }
  });
  // Every non-space character of the document is in some chunk.
  let covered = 0;
  for (const c of chunks) {
    if (c.start > covered) expect(md.slice(covered, c.start).trim()).toBe("");
    covered = Math.max(covered, c.end);
  }
  expect(md.slice(covered).trim()).toBe("");
}

describe("chunkMarkdown", () => {
  test("empty and blank input give no chunks", () => {
    expect(chunkMarkdown("")).toEqual([]);
    expect(chunkMarkdown(" \r\n\n\t \n")).toEqual([]);
  });

  test("a short document is one chunk carrying its title as heading", () => {
    const md = "# Bread\n\nFlour, water, salt and time.\n";
    const [c, ...rest] = chunkMarkdown(md);
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ index: 0, start: 0, end: md.length - 1, heading: "Bread" });
    expect(c!.text).toBe(md.trimEnd());
  });

  test("offsets hold on generated documents (CRLF, fences, lists, long paragraphs, huge words)", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const md = generate(seed);
      checkInvariants(md, chunkMarkdown(md));
      checkInvariants(md, chunkMarkdown(md, { targetTokens: 60, maxTokens: 80, overlapRatio: 0.3 }), 80);
    }
  });

  test("offsets hold on the evaluation articles", () => {
    for (const f of readdirSync(ARTICLES)) {
      const md = readFileSync(join(ARTICLES, f), "utf8");
      const chunks = chunkMarkdown(md, { targetTokens: 120, maxTokens: 160 });
      checkInvariants(md, chunks, 160);
      expect(chunks[0]!.heading).toBe(md.split("\n")[0]!.replace(/^# /, ""));
    }
  });

  test("a single huge word is cut into pieces within maxTokens", () => {
    const md = "a".repeat(10_000);
    const chunks = chunkMarkdown(md);
    checkInvariants(md, chunks);
    expect(chunks.length).toBeGreaterThan(4);
  });

  test("paragraphs stay whole when they fit", () => {
    const r = rng(7);
    const paras = Array.from({ length: 30 }, () => paragraph(r, 3 + Math.floor(r() * 4)));
    const md = paras.join("\n\n");
    const chunks = chunkMarkdown(md, { targetTokens: 150, maxTokens: 200 });
    expect(chunks.length).toBeGreaterThan(3);
    const starts = new Set(paras.map((p) => md.indexOf(p)));
    const ends = new Set(paras.map((p) => md.indexOf(p) + p.length));
    chunks.forEach((c, i) => {
      expect(ends.has(c.end)).toBe(true);
      // New material begins at a paragraph start; only the overlap copied from before may not.
      const freshStart = i === 0 ? c.start : md.slice(chunks[i - 1]!.end).search(/\S/) + chunks[i - 1]!.end;
      expect(starts.has(freshStart)).toBe(true);
    });
  });

  test("chunks aim at the target size", () => {
    const r = rng(11);
    const md = Array.from({ length: 80 }, () => paragraph(r, 3)).join("\n\n");
    const chunks = chunkMarkdown(md);
    for (const c of chunks.slice(0, -1)) expect(c.tokenCount).toBeGreaterThan(250);
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(512);
  });

  test("an oversized paragraph is cut at sentence ends", () => {
    const r = rng(3);
    const md = paragraph(r, 200);
    const chunks = chunkMarkdown(md);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.text).toMatch(/^[A-Z]/);
      expect(c.text).toMatch(/[.!?]$/);
    }
  });

  test("consecutive chunks overlap by whole trailing paragraphs or sentences", () => {
    const r = rng(5);
    const md = Array.from({ length: 60 }, () => paragraph(r, 2)).join("\n\n");
    const chunks = chunkMarkdown(md);
    let overlapping = 0;
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const cur = chunks[i]!;
      if (cur.start < prev.end) {
        overlapping++;
        const shared = md.slice(cur.start, prev.end);
        expect(estimateTokens(shared)).toBeLessThanOrEqual(60);
        expect(md.slice(0, cur.start)).toMatch(/[.!?]\s+$/);
      }
    }
    expect(overlapping).toBe(chunks.length - 1);
  });

  test("a heading starts a new chunk when its section would not fit, and is never left dangling", () => {
    const r = rng(9);
    const section = (n: number) =>
      `## Section ${n}\n\n${Array.from({ length: 6 }, () => paragraph(r, 4)).join("\n\n")}`;
    const md = `# Guide\n\n${[1, 2, 3, 4, 5].map(section).join("\n\n")}`;
    const chunks = chunkMarkdown(md, { targetTokens: 200, maxTokens: 260 });
    checkInvariants(md, chunks, 260);
    for (const c of chunks) expect(c.text).not.toMatch(/#[^\n]*$/);
    for (const n of [2, 3, 4, 5]) {
      const c = chunks.find((x) => x.text.startsWith(`## Section ${n}`));
      expect(c?.heading).toBe(`Section ${n}`);
    }
    const inside = chunks.filter(
      (c) => !c.text.startsWith("#") && c.start > md.indexOf("## Section 3") && c.start < md.indexOf("## Section 4"),
    );
    for (const c of inside) expect(c.heading).toBe("Section 3");
  });

  test("headings inside code fences are not headings; closing heading marks are dropped", () => {
    const md = "## Setup ##\n\n```sh\n# not a heading\n\necho hi\n```\n\nDone.";
    const [c] = chunkMarkdown(md);
    expect(c!.heading).toBe("Setup");
    expect(c!.text).toBe(md);
  });

  test("setext headings are recognised", () => {
    const md = "Intro\n=====\n\nSome text here.";
    expect(chunkMarkdown(md)[0]!.heading).toBe("Intro");
  });

  test("estimateTokens uses the larger of the word and character estimates", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("one two three four five six seven eight nine ten")).toBe(13);
    expect(estimateTokens("x".repeat(400))).toBe(100);
  });
});

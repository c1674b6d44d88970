// Turns extracted Markdown into speakable sections and paragraphs, and ranks sentences by centrality.
import { contentStems, jaccard, splitSentences } from "../../../ai/text.ts";
import { isClutter, isDangling, stripDateline } from "./clean.ts";
import { paragraphStances, type Stance } from "./stance.ts";

export interface Section {
  heading: string | null;
  paragraphs: string[];
}

export interface RankedSentence {
  text: string;
  section: number;
  /** Position in the whole document, for putting picks back in reading order. */
  order: number;
  words: number;
  stems: string[];
  score: number;
  /** Whose side it speaks for: the text's case, the objections it reports, or neither. */
  stance: Stance;
  /** The sentence just before it in the same paragraph, to repair a dangling opening; null at a paragraph's start. */
  lead: string | null;
}

/** Inline Markdown to plain speakable text: links keep their words, images and markup go. */
export function plainInline(md: string): string {
  return md
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[\^[^\]]+\]/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/<https?:[^>]+>/g, "")
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** Ends a line with punctuation so a speech engine pauses and falls in pitch there. */
export function closeSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  return /[.!?…:;"'”’)]$/.test(t) ? t : `${t}.`;
}

const CODE_NOTICE = "A code sample follows in the text; it is not read aloud.";

/** Splits Markdown into sections at headings; list items and table rows become their own paragraphs. */
export function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [{ heading: null, paragraphs: [] }];
  let buffer: string[] = [];
  let inCode = false;
  const current = () => sections[sections.length - 1]!;
  const flush = () => {
    const text = stripDateline(closeSentence(plainInline(buffer.join(" "))));
    // Furniture left in the body (or in sources saved before extraction learnt to strip it) is never read.
    if (text && !isClutter(text)) current().paragraphs.push(text);
    buffer = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      flush();
      if (!inCode) current().paragraphs.push(CODE_NOTICE);
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      flush();
      const text = plainInline(heading[1]!);
      if (text && !isClutter(text)) sections.push({ heading: text, paragraphs: [] });
      continue;
    }
    if (line === "" || /^([-*_]\s*){3,}$/.test(line) || /^\|?[\s:|-]+\|[\s:|-]*$/.test(line)) {
      flush();
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      buffer.push(item[1]!);
      flush();
      continue;
    }
    const text = line.replace(/^>\s?/, "");
    if (text.includes("|")) {
      flush();
      buffer.push(
        text
          .split("|")
          .map((c) => c.trim())
          .filter(Boolean)
          .join(", "),
      );
      flush();
      continue;
    }
    buffer.push(text);
  }
  flush();
  return sections.filter((s) => s.paragraphs.length > 0 || s.heading !== null);
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * Scores each sentence by TF-IDF cosine similarity to the whole text (how much of the text it
 * speaks for), with a small bonus for leading sentences of a section, where writers state points.
 */
export function rankSentences(
  sections: Section[],
  opts: { minWords?: number; minStems?: number } = {},
): RankedSentence[] {
  const minWords = opts.minWords ?? 5;
  const minStems = opts.minStems ?? 3;
  const out: RankedSentence[] = [];
  sections.forEach((s, section) => {
    s.paragraphs.forEach((p, pi) => {
      if (p === CODE_NOTICE) return;
      const sentences = splitSentences(p).map((x) => x.text);
      const stances = paragraphStances(sentences, s.heading);
      sentences.forEach((text, si) => {
        const words = wordCount(text);
        const stems = contentStems(text);
        if (words < minWords || words > 70 || stems.length < minStems || isClutter(text)) return;
        const lead = si > 0 ? closeSentence(sentences[si - 1]!) : null;
        out.push({
          text: closeSentence(text),
          section,
          order: out.length,
          words,
          stems,
          score: pi === 0 && si === 0 ? 0.05 : 0,
          stance: stances[si]!,
          lead,
        });
      });
    });
  });
  const df = new Map<string, number>();
  for (const s of out) for (const t of new Set(s.stems)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log((out.length + 1) / ((df.get(t) ?? 0) + 0.5));
  const vec = (stems: string[]) => {
    const v = new Map<string, number>();
    for (const t of stems) v.set(t, (v.get(t) ?? 0) + idf(t));
    return v;
  };
  const centroid = vec(out.flatMap((s) => s.stems));
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((n, x) => n + x * x, 0)) || 1;
  const cNorm = norm(centroid);
  for (const s of out) {
    const v = vec(s.stems);
    let dot = 0;
    for (const [t, x] of v) dot += x * (centroid.get(t) ?? 0);
    s.score += dot / (norm(v) * cNorm);
    if (isDangling(s.text)) s.score *= 0.6;
  }
  return out;
}

/** The best sentences within a word budget, near-duplicates skipped, back in reading order. */
export function pickSentences(
  ranked: RankedSentence[],
  budgetWords: number,
  opts: { max?: number; exclude?: Set<number> } = {},
): RankedSentence[] {
  const picked: RankedSentence[] = [];
  let words = 0;
  for (const s of [...ranked].sort((a, b) => b.score - a.score)) {
    if (opts.exclude?.has(s.order)) continue;
    if (picked.length >= (opts.max ?? Infinity)) break;
    if (picked.length > 0 && words + s.words > budgetWords) continue;
    const set = new Set(s.stems);
    if (picked.some((p) => jaccard(new Set(p.stems), set) > 0.5)) continue;
    picked.push(s);
    words += s.words;
  }
  return picked.sort((a, b) => a.order - b.order);
}

/** The most telling words of a text, as they are written (for questions when there are no headings). */
export function keyTerms(ranked: RankedSentence[], n: number): string[] {
  const weight = new Map<string, number>();
  for (const s of ranked) for (const t of s.stems) weight.set(t, (weight.get(t) ?? 0) + s.score);
  const surface = new Map<string, Map<string, number>>();
  for (const s of ranked) {
    for (const m of s.text.matchAll(/[\p{L}][\p{L}\p{N}'-]+/gu)) {
      const [stem] = contentStems(m[0]);
      if (!stem || !weight.has(stem)) continue;
      const forms = surface.get(stem) ?? new Map<string, number>();
      forms.set(m[0].toLowerCase(), (forms.get(m[0].toLowerCase()) ?? 0) + 1);
      surface.set(stem, forms);
    }
  }
  return [...weight.entries()]
    .filter(([t]) => t.length > 3 && surface.has(t))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([t]) => [...surface.get(t)!.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
}

const NUMBER_WORDS =
  "two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|hundreds?|thousands?|millions?|twice|half|percent|per cent|dozens?";
const EVIDENCE = new RegExp(
  `\\d|\\b(${NUMBER_WORDS}|study|studies|research(ers)?|data|survey|found|finds|measured|measurements?|evidence|according to|reported)\\b`,
  "i",
);
const HEDGE =
  /^(but|yet|still)\b|\b(however|although|though|despite|whereas|unclear|uncertain|unknown|not yet|limits?|limited|limitations?|risks?|critics?|worr(y|ies|ied)|preliminary|mixed|difficult|not a cure|may not|might not|cannot)\b/i;
const EXAMPLE = /\b(for example|for instance|such as|e\.g\.|imagine|consider)\b|\d/i;

export const hasEvidence = (s: string) => EVIDENCE.test(s);
export const isHedge = (s: string) => HEDGE.test(s);
export const isExample = (s: string) => EXAMPLE.test(s);

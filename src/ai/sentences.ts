// Sentence segmentation for extractive answers and citation quotes: every sentence is an exact
// substring of its text (offsets kept), and splitting survives URLs, abbreviations, decimals,
// hard-wrapped (PDF) lines, Markdown headings and list items.
import type { Sentence } from "./text.ts";

export type SentenceKind = "text" | "heading" | "item" | "quote" | "table";

export interface Segment extends Sentence {
  kind: SentenceKind;
}

// Words that end with a dot without ending the sentence (compared lower-case, without the dot).
const ABBREVIATIONS = new Set(
  "dr mr mrs ms mx prof st sr jr vs etc eg ie cf al approx ca no nos fig figs vol vols pp ed eds inc ltd co corp mt ft rev gen col lt sgt capt jan feb mar apr jun jul aug sep sept oct nov dec est dept univ min max ave blvd".split(
    " ",
  ),
);

const BLOCK_START = /^(?:#{1,6}\s|[-*+•]\s|\d{1,3}[.)]\s|>\s?|\|)/;
const TERMINAL = /[.!?…]["'”’)\]]*$/;

/** Splits text into blocks: a line break is hard unless it only wraps a running sentence (PDF, soft Markdown wrap). */
function blocks(text: string): { start: number; end: number; kind: SentenceKind }[] {
  const lines: { start: number; end: number }[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    lines.push({ start: at, end: at + line.length });
    at += line.length + 1;
  }
  const out: { start: number; end: number; kind: SentenceKind }[] = [];
  let cur: { start: number; end: number; kind: SentenceKind } | null = null;
  for (const l of lines) {
    const body = text.slice(l.start, l.end).trim();
    if (!body) {
      cur = null;
      continue;
    }
    const marker = BLOCK_START.exec(body);
    const prev = cur ? text.slice(cur.start, cur.end).trim() : "";
    // A wrapped line continues the previous one: no block marker, the previous line did not end
    // its sentence, and either this one starts in lower case or the previous line was long (a
    // wrapped paragraph rather than a short title standing on its own).
    const continues =
      cur !== null &&
      cur.kind !== "heading" &&
      cur.kind !== "table" &&
      !marker &&
      !TERMINAL.test(prev) &&
      (/^[\p{Ll}\d(]/u.test(body) || prev.length >= 50);
    if (continues) {
      cur!.end = l.end;
      continue;
    }
    const kind: SentenceKind = !marker
      ? "text"
      : marker[0].startsWith("#")
        ? "heading"
        : marker[0].startsWith(">")
          ? "quote"
          : marker[0].startsWith("|")
            ? "table"
            : "item";
    cur = { start: l.start, end: l.end, kind };
    out.push(cur);
  }
  return out;
}

/** True when the dot at `i` ends an abbreviation, an initial, a decimal or a dotted name rather than a sentence. */
function dotIsNotEnd(text: string, i: number, blockStart: number): boolean {
  const before = text.slice(blockStart, i);
  const word = /([\p{L}\p{N}.]+)$/u.exec(before)?.[1] ?? "";
  if (!word) return false;
  const lower = word.toLowerCase();
  if (ABBREVIATIONS.has(lower.replace(/\./g, ""))) return true;
  if (/^\p{Lu}$/u.test(word)) return true; // an initial: "J. Smith"
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word)) {
    // U.S., e.g., i.e.: end the sentence only before a capitalised word that is not a name-like continuation.
    const next = /^\s+(\S+)/.exec(text.slice(i + 1))?.[1] ?? "";
    return !/^(?:The|This|These|That|It|In|A|An|They|We|He|She|But|And|So|However)\b/.test(next);
  }
  return false;
}

/** Sentences of a text, each an exact substring with its offsets and the kind of block it came from. */
export function segmentSentences(text: string): Segment[] {
  const out: Segment[] = [];
  for (const b of blocks(text)) {
    let from = b.start;
    const raw = text.slice(b.start, b.end);
    // List and quote markers are not part of the sentence; heading markers stay (callers skip headings).
    if (b.kind === "item" || b.kind === "quote")
      from += BLOCK_START.exec(raw.trimStart())![0].length + (raw.length - raw.trimStart().length);
    const push = (s: number, e: number) => {
      const piece = text.slice(s, e);
      const lead = piece.length - piece.trimStart().length;
      const trimmed = piece.trim();
      if (trimmed) out.push({ text: trimmed, start: s + lead, end: s + lead + trimmed.length, kind: b.kind });
    };
    if (b.kind === "heading" || b.kind === "table") {
      push(from, b.end);
      continue;
    }
    const re = /[.!?…]+["'”’)\]]*(?=\s)/g;
    re.lastIndex = from;
    let start = from;
    const body = text.slice(0, b.end);
    for (let m = re.exec(body); m; m = re.exec(body)) {
      const end = m.index + m[0].length;
      const next = /^\s+(\S)/.exec(text.slice(end, b.end + 1))?.[1];
      if (next === undefined) break;
      // A sentence ends before a capital, a digit, an opening quote or bracket — not before lower case.
      if (/[\p{Ll}]/u.test(next)) continue;
      if (m[0] === "." && dotIsNotEnd(text, m.index, b.start)) continue;
      push(start, end);
      start = end;
    }
    push(start, b.end);
  }
  return out;
}

// Sentence splitting and term handling shared by the extractive answerer and citation checks.
import { stem } from "./embedder/builtin.ts";

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

const STOP = new Set(
  "a an and are as at be but by for from has have how i in is it its of on or that the this to was what when where which who why will with does do did can you your about into than then there these those they them we our".split(
    " ",
  ),
);

/** Sentences of a text as exact substrings (with offsets), split on . ! ? and on line breaks. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const re = /[^.!?\n]+(?:[.!?]+(?=\s|$)|[.!?]+["'”’)\]]+(?=\s|$)|(?=\n)|$)/g;
  for (const m of text.matchAll(re)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const start = m.index! + lead;
    out.push({ text: trimmed, start, end: start + trimmed.length });
  }
  return out;
}

/** Stemmed content words, for overlap scoring. */
export function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!STOP.has(m[0]) && m[0].length > 1) out.push(stem(m[0]));
  }
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

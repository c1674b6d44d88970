// User query text → a safe FTS5 expression, and plain-text snippets with highlight offsets.
import { stem } from "../../ai/embedder/builtin.ts";

const TERM_RE = /[\p{L}\p{N}]+/gu;
const MAX_TERMS = 32;

/**
 * Words BM25 gives almost no weight (they are in most passages) but that make an OR query match
 * nearly every chunk, and so cost ~30× more to rank. Dropped from a query that has other words.
 */
const STOPWORDS = new Set(
  (
    "a about after all also an and any are as at be been but by can could did do does for from had has have he her his how i if in " +
    "into is it its me my no not of on or our she so than that the their them then there these they this those to too us was we " +
    "were what when where which who whom why will with would you your"
  ).split(" "),
);

/** The words of a query, lower-cased, de-duplicated; FTS syntax (quotes, *, NEAR, -, :) is dropped. */
export function queryTerms(query: string): string[] {
  const seen = new Set<string>();
  for (const m of query.toLowerCase().matchAll(TERM_RE)) {
    if (seen.size >= MAX_TERMS) break;
    seen.add(m[0]);
  }
  return [...seen];
}

/** The query's content words; a query of only stopwords ("to be or not to be") keeps them all. */
export function contentTerms(query: string): string[] {
  const all = queryTerms(query);
  const content = all.filter((t) => !STOPWORDS.has(t));
  return content.length > 0 ? content : all;
}

/**
 * Every term quoted as a string (so NEAR, AND, OR, NOT, * and column filters are just words) and
 * joined with OR: BM25 ranks passages that match more terms higher. Stopwords are left out unless
 * the query has nothing else. Null when nothing is searchable.
 */
export function ftsExpression(query: string): string | null {
  const terms = contentTerms(query);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
}

export interface Snippet {
  snippet: string;
  highlights: { start: number; end: number }[];
}

/** About `width` characters of plain text around the densest match, with match offsets inside it. */
export function makeSnippet(text: string, query: string, width = 200): Snippet {
  // Shown as text, not Markdown: images, link targets, autolinks, raw tags, list and quote markers,
  // table rules and escapes go; words stay.
  const plain = text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<(https?:[^>\s]+)>/g, "$1")
    .replace(/<\/?[a-z][^>]*>/gi, " ")
    .replace(/^[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/gm, "")
    .replace(/^[ \t]*[-=|: ]{3,}$/gm, " ")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, "$1")
    .replace(/[#*_`>|~]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  // Only content words are marked: "how" or "a" highlighted everywhere says nothing about the match.
  const stems = new Set(contentTerms(query).map(stem));
  const matches: { start: number; end: number }[] = [];
  for (const m of plain.matchAll(TERM_RE)) {
    if (stems.has(stem(m[0].toLowerCase()))) matches.push({ start: m.index!, end: m.index! + m[0].length });
  }
  let from = 0;
  if (plain.length > width && matches.length > 0) {
    // The window that holds the most matches, starting a little before the first of them.
    let best = 0;
    let bestCount = 0;
    for (let i = 0; i < matches.length; i++) {
      let n = 0;
      for (let j = i; j < matches.length && matches[j]!.end <= matches[i]!.start + width; j++) n++;
      if (n > bestCount) {
        bestCount = n;
        best = i;
      }
    }
    from = Math.max(0, Math.min(matches[best]!.start - 40, plain.length - width));
    const space = plain.lastIndexOf(" ", from);
    if (space > from - 20 && space >= 0) from = space + 1;
  }
  let to = Math.min(plain.length, from + width);
  const cut = plain.indexOf(" ", to);
  if (to < plain.length && cut !== -1 && cut - to < 20) to = cut;
  const prefix = from > 0 ? "…" : "";
  const suffix = to < plain.length ? "…" : "";
  const snippet = prefix + plain.slice(from, to) + suffix;
  const highlights = matches
    .filter((m) => m.start >= from && m.end <= to)
    .map((m) => ({ start: m.start - from + prefix.length, end: m.end - from + prefix.length }));
  return { snippet, highlights };
}

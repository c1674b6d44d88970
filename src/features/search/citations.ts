// Turns a model's answer into verified citations: markers that point at no passage are dropped,
// the rest are renumbered in order of first use, and each quote is a verbatim sentence of its chunk.
import { isAnswerable, quoteSpan } from "../../ai/chat/sentence-filter.ts";
import { segmentSentences } from "../../ai/sentences.ts";
import { contentStems } from "../../ai/text.ts";
import type { ChunkRow } from "./chunks-repo.ts";

export interface CitedPassage {
  n: number;
  row: ChunkRow;
}

export interface VerifiedAnswer {
  answer: string;
  citations: { n: number; row: ChunkRow; quote: string }[];
}

// One marker: [3], or a list models like to write: [1, 2] or [1,2].
const MARKER = /(\s*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const MARKER_RUN_AT_END = /(?:\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\])+\s*$/;
const SENTENCE_END = /[.!?]["'”’)\]]*\s+/g;

/**
 * The sentence of `text` that shares most content words with `claim`, verbatim (never rewritten):
 * whole sentences are preferred to fragments cut at a chunk edge, and link syntax or a URL is left
 * out by quoting the longest verbatim stretch of the sentence without it.
 */
export function bestQuote(text: string, claim: string): string {
  const want = new Set(contentStems(claim));
  let best = "";
  let bestScore = -1;
  for (const s of segmentSentences(text)) {
    if (s.kind === "heading") continue;
    const stems = contentStems(s.text);
    let overlap = 0;
    for (const t of new Set(stems)) if (want.has(t)) overlap++;
    const score = overlap + (stems.length >= 4 ? 0.1 : 0) + (isAnswerable(s.text, s.kind) ? 0.5 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = quoteSpan(s.text);
    }
  }
  return best || text.trim().slice(0, 300);
}

/** The claim a marker at `offset` supports: the text since the previous sentence end or line break. */
function claimBefore(raw: string, offset: number): string {
  const before = raw
    .slice(0, offset)
    .replace(MARKER_RUN_AT_END, "")
    .replace(/[.!?]+["'”’)\]]*$/, "");
  let start = before.lastIndexOf("\n") + 1;
  for (const m of before.matchAll(SENTENCE_END)) start = Math.max(start, m.index + m[0].length);
  return before.slice(start).replace(MARKER, " ").trim();
}

export function verifyCitations(raw: string, passages: CitedPassage[]): VerifiedAnswer {
  const byN = new Map(passages.map((p) => [p.n, p]));
  const renumber = new Map<number, number>();
  const claims = new Map<number, string[]>();
  const replaced = raw.replace(MARKER, (_m, space: string, list: string, offset: number) => {
    const kept = new Set<number>();
    for (const d of list.split(",")) {
      const n = Number(d.trim());
      if (!byN.has(n)) continue; // cites a passage that does not exist: drop the marker
      if (!renumber.has(n)) renumber.set(n, renumber.size + 1);
      claims.set(n, [...(claims.get(n) ?? []), claimBefore(raw, offset)]);
      kept.add(renumber.get(n)!);
    }
    if (kept.size === 0) return "";
    // Keep a paragraph break before a marker; otherwise one space at most.
    return (space.includes("\n") ? space : space ? " " : "") + [...kept].map((n) => `[${n}]`).join("");
  });
  // A dropped marker takes the space before it along, so the model's text is otherwise untouched.
  const answer = replaced.trim();
  const citations = [...renumber].map(([orig, n]) => {
    const p = byN.get(orig)!;
    return { n, row: p.row, quote: bestQuote(p.row.text, claims.get(orig)!.join(" ")) };
  });
  return { answer, citations };
}

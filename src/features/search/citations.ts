// Turns a model's answer into verified citations: markers that point at no passage are dropped,
// the rest are renumbered in order of first use, and each quote is a verbatim sentence of its chunk.
import { contentStems, splitSentences } from "../../ai/text.ts";
import type { ChunkRow } from "./chunks-repo.ts";

export interface CitedPassage {
  n: number;
  row: ChunkRow;
}

export interface VerifiedAnswer {
  answer: string;
  citations: { n: number; row: ChunkRow; quote: string }[];
}

const MARKER = /\s?\[(\d{1,3})\]/g;

/** The sentence of `text` that shares most content words with `claim` (verbatim, never rewritten). */
export function bestQuote(text: string, claim: string): string {
  const want = new Set(contentStems(claim));
  let best = "";
  let bestScore = -1;
  for (const s of splitSentences(text)) {
    if (/^#{1,6}\s/.test(s.text)) continue;
    const stems = contentStems(s.text);
    let overlap = 0;
    for (const t of new Set(stems)) if (want.has(t)) overlap++;
    const score = overlap + (stems.length >= 4 ? 0.1 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = s.text;
    }
  }
  return best || text.trim().slice(0, 300);
}

export function verifyCitations(raw: string, passages: CitedPassage[]): VerifiedAnswer {
  const byN = new Map(passages.map((p) => [p.n, p]));
  const renumber = new Map<number, number>();
  const claims = new Map<number, string[]>();
  // The claim a marker supports is the sentence it ends (text since the previous sentence end).
  const sentences = raw.split(/(?<=[.!?](?:\s*\[\d{1,3}\])+)\s+|(?<=\n)/);
  const out: string[] = [];
  for (const sentence of sentences) {
    const claim = sentence.replace(MARKER, "").trim();
    out.push(
      sentence.replace(MARKER, (m, d: string) => {
        const n = Number(d);
        if (!byN.has(n)) return ""; // cites a passage that does not exist: drop the marker
        if (!renumber.has(n)) renumber.set(n, renumber.size + 1);
        claims.set(n, [...(claims.get(n) ?? []), claim]);
        return `${m.startsWith(" ") ? " " : ""}[${renumber.get(n)}]`;
      }),
    );
  }
  const answer = out.join(" ").replace(/[ \t]+\n/g, "\n").replace(/ {2,}/g, " ").trim();
  const citations = [...renumber].map(([orig, n]) => {
    const p = byN.get(orig)!;
    return { n, row: p.row, quote: bestQuote(p.row.text, claims.get(orig)!.join(" ")) };
  });
  return { answer, citations };
}

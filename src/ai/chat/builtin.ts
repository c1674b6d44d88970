// The builtin chat model: extractive. It picks the sentences of the retrieved passages that best
// match the question (BM25 over sentences), drops near-duplicates, and marks each with [n].
// It never writes new text, so it cannot invent facts; it also cannot reason or summarise.
import { contentStems, jaccard, splitSentences } from "../text.ts";
import type { ChatModel, Passage } from "./port.ts";

const K1 = 1.2;
const B = 0.75;
const MAX_SENTENCES = 3;

interface Candidate {
  n: number;
  rank: number;
  start: number;
  text: string;
  stems: string[];
  score: number;
}

function candidates(passages: Passage[]): Candidate[] {
  const out: Candidate[] = [];
  passages.forEach((p, rank) => {
    for (const s of splitSentences(p.text)) {
      if (/^#{1,6}\s/.test(s.text) || /^[-*+]\s*$/.test(s.text)) continue;
      const stems = contentStems(s.text);
      if (stems.length < 4) continue;
      out.push({ n: p.n, rank, start: s.start, text: s.text, stems, score: 0 });
    }
  });
  return out;
}

export function scoreSentences(question: string, passages: Passage[]): Candidate[] {
  const q = [...new Set(contentStems(question))];
  const cands = candidates(passages);
  if (cands.length === 0 || q.length === 0) return [];
  const avg = cands.reduce((s, c) => s + c.stems.length, 0) / cands.length;
  const df = new Map<string, number>();
  for (const c of cands) for (const t of new Set(c.stems)) df.set(t, (df.get(t) ?? 0) + 1);
  for (const c of cands) {
    const tf = new Map<string, number>();
    for (const t of c.stems) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t);
      if (!f) continue;
      const idf = Math.log(1 + (cands.length - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * c.stems.length) / avg));
    }
    // Retrieval already ranked the passages; a small prior keeps ties in that order.
    c.score = score > 0 ? score + 0.2 / (c.rank + 1) : 0;
  }
  return cands.filter((c) => c.score > 0).sort((a, b) => b.score - a.score);
}

export function createBuiltinChat(): ChatModel {
  return {
    id: "builtin-extractive",
    extractive: true,
    async answer(question, passages) {
      const picked: Candidate[] = [];
      for (const c of scoreSentences(question, passages)) {
        const set = new Set(c.stems);
        if (picked.some((p) => jaccard(new Set(p.stems), set) > 0.5)) continue;
        picked.push(c);
        if (picked.length >= MAX_SENTENCES) break;
      }
      if (picked.length === 0) return "";
      picked.sort((a, b) => a.rank - b.rank || a.start - b.start);
      return picked.map((c) => `${c.text} [${c.n}]`).join(" ");
    },
  };
}

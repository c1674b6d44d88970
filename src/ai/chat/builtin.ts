// The builtin chat model: extractive. It describes the retrieved passages' whole sentences by
// lexical match (BM25, coverage of the question's words), meaning (similarity to the question, when
// an embedder is at hand), answer type (the name/date/place/number a question asks for, and whether
// it sits beside the question's words), position and neighbours; a selector learned on the held-out
// development split (selector.ts) ranks them. The answer-bearing sentence comes first; a further
// sentence (up to four, about sixty words) is added only when the selector scores it close to the
// first (it addresses the question too), or when it completes the first (its antecedent, its
// continuation, its punchline); near-duplicates are left out (MMR).
// It never writes new text, so it cannot invent facts; it also cannot reason or summarise.
import { dot, type Embedder } from "../embedder/port.ts";
import { stem } from "../embedder/builtin.ts";
import { segmentSentences } from "../sentences.ts";
import { contentStems, jaccard } from "../text.ts";
import type { ChatModel, Passage } from "./port.ts";
import { DANGLING, featureVectors, learnedScores, type SelectorWeights, type SentenceEvidence } from "./selector.ts";
import { SELECTOR } from "./selector-weights.ts";
import { displayText, holdsAnswerType, isAnswerable, questionType, typedNearQuestion } from "./sentence-filter.ts";

const K1 = 1.2;
const B = 0.75;
const MAX_SENTENCES = 4;
/** An answer stops growing once it holds this many words (three ordinary sentences, four short ones). */
const WORD_BUDGET = 60;
/** Sentences whose similarity is computed with the embedder (the lexical top ones): bounds the cost per question. */
const SEMANTIC_POOL = 16;
/** MMR: a further sentence loses this much of its learned score per unit of word overlap with those picked. */
const REDUNDANCY = 1;
/** The picked sentence's continuation wins over a further sentence scoring up to this much more. */
const CONTINUATION_SLACK = 0.3;
/** Stems of everyday words that two unrelated sentences often share. */
const GENERIC = new Set(
  contentStems(
    "much many make made get got like use used well also one way thing new old good best more most some other time day year people take give go come know see want need just even",
  ).filter(Boolean),
);
/** A sentence of at most this many words right after a picked one is its punchline (see withPunchline). */
const PUNCHLINE_WORDS = 6;

/** A sentence of the passages with what the answerer knows of it (the selector's evidence and more). */
export interface Candidate extends SentenceEvidence {
  n: number;
  block: number;
  start: number;
  stems: string[];
  /** How many of the question's content words it holds. */
  shared: number;
  usable: boolean;
  /** The learned selector's score (a logit; see selector.ts); -Infinity outside the ranked pool. */
  learned: number;
}

/**
 * Maps a word's stem onto the question's stem it is a variant of ("acid" for "acidic", "swarm" for
 * "swarming", "decide" for "decision"), which the light stemmer leaves apart: one is the other plus
 * a derivational ending.
 */
const SUFFIX = /^(?:ic|al|ical|ly|ity|ing|ed|er|ers|es|s|ion|ions|ive|ous|ness|ment)$/;

function canonical(question: string): (t: string) => string {
  const q = [...new Set(contentStems(question))].filter((t) => t.length >= 4);
  return (t) => {
    if (t.length < 4) return t;
    for (const x of q) {
      const [short, long] = x.length <= t.length ? [x, t] : [t, x];
      if (x !== t && long.startsWith(short) && SUFFIX.test(long.slice(short.length))) return x;
      // decide / decision, collide / collision: the verb's "d" becomes "sion".
      if (short.endsWith("d") && long.endsWith("sion") && short.slice(0, -1) === long.slice(0, -4)) return x;
    }
    return t;
  };
}

function segments(passages: Passage[], question: string): Candidate[] {
  const out: Candidate[] = [];
  const type = questionType(question);
  const canon = canonical(question);
  passages.forEach((p, rank) => {
    let block = 0;
    let lastEnd = -1;
    segmentSentences(p.text).forEach((s, idx) => {
      // A blank line or a new block between two sentences starts a new paragraph.
      if (lastEnd >= 0 && /\n\s*\n|\n\s*(?:[-*+]|\d+[.)])\s/.test(p.text.slice(lastEnd, s.start))) block++;
      if (s.kind === "heading") block++;
      lastEnd = s.end;
      const stems = contentStems(displayText(s.text.replace(/^#+\s*/, ""))).map(canon);
      const usable = isAnswerable(s.text, s.kind) && stems.length >= 2;
      out.push({
        n: p.n,
        rank,
        title: p.title ?? "",
        block,
        idx,
        start: s.start,
        text: s.text,
        stems,
        coverage: 0,
        shared: 0,
        sharedSpecific: 0,
        context: 0,
        passage: 0,
        semantic: 0,
        bm25: 0,
        titleCover: 0,
        words: displayText(s.text).split(/\s+/).length,
        typed: usable && holdsAnswerType(s.text, type, question),
        typedNear: false,
        novelty: 0,
        usable,
        score: 0,
        learned: -Infinity,
      });
    });
  });
  return out;
}

/**
 * Scores every usable sentence: BM25 blended with weighted coverage of the question, plus its
 * context (neighbours, section heading), how well its passage covers the question, and a bonus
 * when it holds the kind of thing asked for. A sentence sharing nothing with the question and
 * only relevant by context counts only when it holds that kind of thing (the name after "who").
 */
export function scoreSentences(question: string, passages: Passage[]): Candidate[] {
  return scored(question, passages).ranked;
}

/** scoreSentences' work: every usable sentence in passage order, and those scoring above zero, best first. */
function scored(question: string, passages: Passage[]): { usable: Candidate[]; ranked: Candidate[] } {
  const q = [...new Set(contentStems(question))];
  const all = segments(passages, question);
  const cands = all.filter((c) => c.usable);
  if (cands.length === 0 || q.length === 0) return { usable: cands, ranked: [] };
  const avg = cands.reduce((s, c) => s + c.stems.length, 0) / cands.length;
  const df = new Map<string, number>();
  for (const c of all) for (const t of new Set(c.stems)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + (all.length - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  const qWeight = q.reduce((s, t) => s + idf(t), 0);
  const coverage = (stems: Iterable<string>) => {
    const have = new Set(stems);
    return qWeight > 0 ? q.reduce((s, t) => s + (have.has(t) ? idf(t) : 0), 0) / qWeight : 0;
  };
  const type = questionType(question);
  const qSet = new Set(q);
  const canon = canonical(question);
  for (const c of all) {
    c.novelty = c.stems.length ? c.stems.filter((t) => !qSet.has(t)).length / c.stems.length : 0;
    c.typedNear = c.typed && typedNearQuestion(c.text, type, question, qSet, (w) => canon(stem(w)));
    c.coverage = coverage(c.stems);
    c.shared = q.filter((t) => c.stems.includes(t)).length;
    c.sharedSpecific = q.filter((t) => c.stems.includes(t) && !GENERIC.has(t)).length;
  }
  const passageCover = passages.map((p) => coverage(contentStems(`${p.title ?? ""} ${p.text}`).map(canon)));
  // A document's title names its subject ("Reading list", "Sourdough starter"): a strong hint of where the answer lives.
  const titleCover = passages.map((p) => coverage(contentStems(p.title ?? "").map(canon)));
  const bestPassage = Math.max(...passageCover, 1e-9);
  const bm25 = new Map<Candidate, number>();
  for (const c of cands) {
    const tf = new Map<string, number>();
    for (const t of c.stems) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t);
      if (f) score += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * c.stems.length) / avg));
    }
    bm25.set(c, score);
  }
  const top = Math.max(...bm25.values(), 1e-9);
  const topTitle = passages[0]?.title ?? "";
  all.forEach((c, i) => {
    if (!c.usable) return;
    const near = [all[i - 1], all[i + 1]]
      .filter((x) => x && x.n === c.n && x.block === c.block)
      .map((x) => x!.coverage);
    let h = i - 1;
    while (h >= 0 && all[h]!.n === c.n && !all[h]!.text.startsWith("#")) h--;
    const heading = h >= 0 && all[h]!.n === c.n ? all[h]!.coverage : 0;
    c.context = Math.max(0, ...near, heading);
    c.passage = passageCover[c.rank]! / bestPassage;
    c.bm25 = bm25.get(c)! / top;
    c.titleCover = titleCover[c.rank]!;
    const own = 0.5 * c.bm25 + 0.5 * c.coverage;
    // Hybrid retrieval's first document is nearly always the right one: its passages get a head start.
    const prior = 0.3 / (c.rank + 1) + (c.title && c.title === topTitle ? 0.25 : 0);
    // A typed sentence sharing no word with the question is kept (scored low) for the typed follow-up.
    if (own === 0) c.score = c.typed ? 0.01 * c.passage : 0;
    else c.score = own + 0.3 * c.context + 0.1 * c.passage + 0.4 * titleCover[c.rank]! + (c.typed ? 0.25 : 0) + prior;
  });
  return { usable: cands, ranked: cands.filter((c) => c.score > 0).sort((a, b) => b.score - a.score) };
}

/** Cosine similarity to the question for the given sentences; silently none (0) when embedding fails. */
async function addSemantic(
  question: string,
  pool: Candidate[],
  embedder: Embedder | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (!embedder || pool.length === 0) return;
  try {
    const [qv] = await embedder.embed([question], "query");
    const vs = await embedder.embed(
      pool.map((c) => displayText(c.text)),
      "document",
    );
    if (signal?.aborted || !qv || vs.length !== pool.length) return;
    pool.forEach((c, i) => (c.semantic = Math.max(0, dot(qv, vs[i]!))));
  } catch {
    // Lexical evidence alone still ranks the pool.
  }
}

/**
 * The sentences in the order the learned selector puts them: the lexically best SEMANTIC_POOL, with
 * their similarity to the question, ranked by the fitted scorer (selector.ts); the rest after them.
 * `usable` is every usable sentence in passage order (the same objects), for the neighbours of a pick.
 */
export async function rankSentences(
  question: string,
  passages: Passage[],
  embedder?: Embedder,
  signal?: AbortSignal,
  weights?: SelectorWeights,
): Promise<{ ranked: Candidate[]; usable: Candidate[] }> {
  const { usable, ranked: lexical } = scored(question, passages);
  const pool = lexical.slice(0, SEMANTIC_POOL);
  await addSemantic(question, pool, embedder, signal);
  const scores = learnedScores(featureVectors(pool, questionType(question) !== null), weights ?? SELECTOR);
  pool.forEach((c, i) => (c.learned = scores[i]!));
  return { ranked: [...pool.sort((a, b) => b.learned - a.learned), ...lexical.slice(SEMANTIC_POOL)], usable };
}

/** MMR selection: best first, then sentences close to the question and unlike those already picked. */
export function selectSentences(
  ranked: Candidate[],
  all: Candidate[] = ranked,
  question = "",
  followMargin = SELECTOR.followMargin,
): Candidate[] {
  const first = ranked[0];
  if (!first) return [];
  const picked = [first];
  const sim = (a: Candidate, b: Candidate) => jaccard(new Set(a.stems), new Set(b.stems));
  // A first sentence that opens on a reference ("To withstand it, …", "This is why …") needs the
  // sentence it refers to: that one goes before it, and the two read as one answer.
  const prev = all.find((c) => c.n === first.n && c.block === first.block && c.idx === first.idx - 1);
  if (prev && DANGLING.test(displayText(first.text))) picked.unshift(prev);
  // The sentence right after the answer in its paragraph, when it keeps the same subject, is its
  // continuation (the swarm's scouts "debate options by dancing"): it may follow even without the question's words.
  const next = all.find((c) => c.n === first.n && c.block === first.block && c.idx === first.idx + 1);
  // A short first sentence ("Roman aqueducts had no pumps.") announces what the next one explains.
  // After "why"/"how", the explanation often follows the sentence that matches the question.
  const short = displayText(first.text).split(/\s+/).length <= 12 || /^\s*(?:why|how)\b/i.test(question);
  const continuation =
    next && (short || next.stems.some((t) => first.stems.includes(t))) && sim(next, first) < 0.5 ? next : undefined;
  // A further sentence shares the question's words itself and comes from the same document as the
  // first, or — from another document — matches the question at least as well, on two words or
  // more, inside a passage about the question (one shared "new" is not a shared meaning).
  const crossDoc = (c: Candidate) => c.coverage >= first.coverage && c.passage >= 0.6 && c.sharedSpecific >= 2;
  // Every further sentence must itself address the question: the learned selector scores it within
  // followMargin of the first (fitted on the development split).
  const addresses = (c: Candidate) => c.learned >= first.learned - followMargin;
  const pool = ranked
    .slice(1)
    .filter((c) => addresses(c) && c.coverage > 0 && (c.title === first.title || crossDoc(c)));
  // "Who…?", "When…?": when the best sentence holds no name or date, the passage's sentence that does
  // (and says most about the question) is the likely answer, as in "a goldsmith named Johannes Gutenberg".
  if (!first.typed) {
    const typed = ranked.find((c) => c.typed && c.n === first.n && c !== first && addresses(c));
    if (typed) picked.push(typed);
  }
  const words = () => picked.reduce((n, c) => n + displayText(c.text).split(/\s+/).length, 0);
  while (picked.length < MAX_SENTENCES && (picked.length < 3 || words() < WORD_BUDGET)) {
    let best: Candidate | undefined;
    let bestMmr = -Infinity;
    for (const c of pool) {
      if (picked.includes(c)) continue;
      const redundancy = Math.max(...picked.map((p) => sim(p, c)));
      if (redundancy > 0.5) continue;
      const mmr = c.learned - REDUNDANCY * redundancy;
      if (mmr > bestMmr) {
        bestMmr = mmr;
        best = c;
      }
    }
    if (
      continuation &&
      !picked.includes(continuation) &&
      picked.length === (picked[0] === first ? 1 : 2) &&
      (short || !best || continuation.learned + CONTINUATION_SLACK >= best.learned)
    )
      best = continuation;
    if (!best) break;
    picked.push(best);
  }
  return withPunchline(picked, all);
}

/**
 * The sentence right after a picked one in its paragraph completes it when it is a very short
 * continuation ("Queens and workers develop from the same kind of fertilised egg. The difference is
 * diet.") or carries on its subject as a pronoun ("He predicted …"): the point is often there, in
 * words the question does not use. One is added, right after its sentence; at four sentences it
 * replaces the last-picked follow-up.
 */
function withPunchline(picked: Candidate[], all: Candidate[]): Candidate[] {
  for (const p of picked) {
    const next = all.find((c) => c.n === p.n && c.block === p.block && c.idx === p.idx + 1);
    if (!next || picked.some((q) => q.n === next.n && q.idx === next.idx)) continue;
    const shown = displayText(next.text);
    // It must read as a continuation: short and opening on a reference ("The difference…", "This…"),
    // not a new instruction ("Bake at 250 degrees."), or of any length with a pronoun for subject
    // ("He predicted an element he called eka-silicon…"), which carries on the picked sentence's subject.
    const punchline =
      shown.split(/\s+/).length <= PUNCHLINE_WORDS && /^(?:The|This|That|These|Those|It|They|Such)\b/.test(shown);
    if (!punchline && !/^(?:He|She|They|It)\b/.test(shown)) continue;
    if (picked.length >= MAX_SENTENCES && picked.at(-1) === p) continue;
    const out = picked.length >= MAX_SENTENCES ? picked.slice(0, -1) : [...picked];
    out.splice(out.indexOf(p) + 1, 0, next);
    return out;
  }
  return picked;
}

export function createBuiltinChat(opts: { embedder?: Embedder } = {}): ChatModel {
  return {
    id: "builtin-extractive",
    extractive: true,
    async answer(question, passages, o) {
      const { ranked, usable } = await rankSentences(question, passages, opts.embedder, o?.signal);
      const picked = selectSentences(ranked, usable, question);
      if (picked.length === 0) return "";
      return picked.map((c) => `${displayText(c.text)} [${c.n}]`).join(" ");
    },
  };
}

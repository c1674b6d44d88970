// The learned part of the extractive answerer: which sentence of the retrieved passages answers the
// question. Each sentence of the candidate pool is described by features the answerer already
// computes (lexical match, meaning, answer type, position, neighbours, the passage and its title);
// a linear scorer fitted on the development split of the held-out pages (scripts/fit-answerer.ts,
// listwise: the answering sentence's share of the softmax over its question's pool) ranks them.
// The weights live in selector-weights.ts, written by that script; nothing here is set by hand.

import { displayText } from "./sentence-filter.ts";

/** What the selector reads of a sentence (the answerer's Candidate extends it). */
export interface SentenceEvidence {
  /** Rank of its passage in retrieval order (0 = first). */
  rank: number;
  /** Its place among its passage's sentences. */
  idx: number;
  /** Its document's title. */
  title: string;
  text: string;
  /** Share of the question's weighted content words the sentence holds (0..1). */
  coverage: number;
  /** How many of the question's content words it holds, not counting everyday words ("much", "make", "new"). */
  sharedSpecific: number;
  /** Best coverage of its neighbours in the paragraph and of its section heading: the sentence's context. */
  context: number;
  /** How well its whole passage covers the question, relative to the best passage (0..1). */
  passage: number;
  /** Cosine similarity to the question (0 without an embedder). */
  semantic: number;
  /** BM25 against the question, relative to the best sentence's (0..1). */
  bm25: number;
  /** How well its document's title covers the question (0..1). */
  titleCover: number;
  /** Words in the sentence as shown. */
  words: number;
  /** It holds the kind of thing the question asks for (a name, date, place or number). */
  typed: boolean;
  /** …and that thing sits within a few words of the question's own words. */
  typedNear: boolean;
  /** Share of its content words the question does not use: what it adds beyond restating the question. */
  novelty: number;
  /** The hand-set lexical score: picks the pool the learned selector ranks. */
  score: number;
}

export const FEATURES = [
  "lexical",
  "bm25",
  "coverage",
  "coverage_gap",
  "specific",
  "context",
  "passage",
  "title",
  "typed",
  "type_missing",
  "typed_near",
  "novelty",
  "rank",
  "top_document",
  "semantic",
  "semantic_gap",
  "log_words",
  "lead",
  "dangling",
  "interrogative",
] as const;

/** A sentence opening on a word that points back to the sentence before it. */
export const DANGLING =
  /^(?:(?:It|This|These|That|Those|They|Such|Its|Their|He|She|His|Her)\b(?! (?:is|are|was) (?:a|an|the) )|\w+(?: \w+){0,2} (?:it|this|them|that),|\w+ (?:these|this|they|it)\b)/;

/**
 * The feature vectors of a pool of sentences for one question. Gaps are taken to the pool's best,
 * so a sentence is judged beside its rivals: the margin of meaning or coverage it has over them.
 */
export function featureVectors(pool: SentenceEvidence[], asksType: boolean) {
  const bestSemantic = Math.max(0, ...pool.map((c) => c.semantic));
  const bestCoverage = Math.max(0, ...pool.map((c) => c.coverage));
  const topTitle = pool.find((c) => c.rank === 0)?.title ?? "";
  return pool.map((c) => {
    const shown = displayText(c.text);
    return [
      c.score,
      c.bm25,
      c.coverage,
      c.coverage - bestCoverage,
      Math.min(c.sharedSpecific, 4) / 4,
      c.context,
      c.passage,
      c.titleCover,
      c.typed ? 1 : 0,
      asksType && !c.typed ? 1 : 0,
      c.typedNear ? 1 : 0,
      c.novelty,
      1 / (c.rank + 1),
      c.title !== "" && c.title === topTitle ? 1 : 0,
      c.semantic,
      c.semantic - bestSemantic,
      Math.log(1 + c.words),
      c.idx === 0 ? 1 : 0,
      DANGLING.test(shown) ? 1 : 0,
      /\?["'”’)]*$/.test(shown) ? 1 : 0,
    ];
  });
}

export interface SelectorWeights {
  features: readonly string[];
  mean: number[];
  scale: number[];
  weights: number[];
  /** A further sentence must score within this much (in logits) of the first one. */
  followMargin: number;
}

/** The learned score of each vector (a logit: only differences within one question mean anything). */
export function learnedScores(vectors: number[][], w: SelectorWeights): number[] {
  if (w.features.length !== FEATURES.length || w.features.some((f, i) => f !== FEATURES[i]))
    throw new Error("selector weights were fitted on other features: run scripts/fit-answerer.ts");
  return vectors.map((x) => x.reduce((s, v, i) => s + w.weights[i]! * ((v - w.mean[i]!) / w.scale[i]!), 0));
}

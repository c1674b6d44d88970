// Known-item queries made from a user's own sources, without a model: the source's title, one of its
// Markdown headings, and a "paraphrase" of its first substantive sentence (its rarest words dropped,
// its function words shuffled). Everything is deterministic given the run's seed, so a run can be
// repeated on the same library, e.g. after switching the embedding model.
import { segmentSentences } from "../../ai/sentences.ts";
import { seededRandom } from "../../random.ts";

export const QUERY_KINDS = ["title", "heading", "paraphrase"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface KnownItemQuery {
  kind: QueryKind;
  text: string;
  /** The source the query was made from: the one search should find. */
  sourceId: string;
}

export interface SampledSource {
  id: string;
  title: string | null;
  content: string | null;
}

/** Sources longer than this are read only this far (a book-length PDF needs no more for three queries). */
export const MAX_TEXT = 50_000;
const MAX_QUERY_CHARS = 300;
/** A first sentence shorter than this is a caption or a byline, not the article's opening. */
const MIN_SENTENCE_WORDS = 8;
/** The paraphrase is made from at most this many words of the sentence. */
const MAX_SENTENCE_WORDS = 30;
/** What is left of a paraphrase must still say something. */
const MIN_PARAPHRASE_WORDS = 4;

/** Function words: they carry grammar, not subject, so shuffling them keeps the gist. */
const FUNCTION_WORDS = new Set(
  (
    "a an the and or but nor so yet of in on at to for from by with about into onto over under after before " +
    "between through during without within upon as than then that this these those there here it its is are " +
    "was were be been being am has have had do does did will would shall should can could may might must " +
    "not no i you he she we they me him her us them my your his our their who whom whose which what when " +
    "where why how all any some each every both either neither such very just also only even more most"
  ).split(" "),
);

/** A generator for one source: its choices depend on the seed and its id, not on the sources before it. */
export function randomFor(seed: number, id: string): () => number {
  let h = seed >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return seededRandom(h);
}

/** A shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Inline Markdown as the words a reader sees: links and images keep their text, marks go. */
export function plainText(md: string): string {
  return md
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<https?:[^>\s]+>/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/[*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const words = (text: string) => text.match(WORD) ?? [];
const norm = (text: string) => words(text.toLowerCase()).join(" ");

/** The title as a query, or null when there is none to speak of. */
export function titleQuery(title: string | null): string | null {
  const t = plainText(title ?? "");
  return words(t).length >= 1 ? t.slice(0, MAX_QUERY_CHARS) : null;
}

/** Headings of the text that could be searched for (two words or more, not the title again), in order. */
export function headingCandidates(markdown: string, title: string | null): string[] {
  const t = norm(title ?? "");
  const out: string[] = [];
  for (const s of segmentSentences(markdown.slice(0, MAX_TEXT))) {
    if (s.kind !== "heading") continue;
    const h = plainText(s.text.replace(/^#{1,6}\s+/, "").replace(/\s+#+\s*$/, ""));
    if (words(h).length >= 2 && norm(h) !== t && !out.includes(h)) out.push(h.slice(0, MAX_QUERY_CHARS));
  }
  return out;
}

/** The first sentence of running text with at least eight words (headings, lists, quotes and tables skipped). */
export function firstSentence(markdown: string): string | null {
  for (const s of segmentSentences(markdown.slice(0, MAX_TEXT))) {
    if (s.kind !== "text") continue;
    const text = plainText(s.text);
    if (words(text).length >= MIN_SENTENCE_WORDS) return text;
  }
  return null;
}

/** The lower-cased content words of a text, once each (for document frequencies). */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text.slice(0, MAX_TEXT).toLowerCase())) if (!FUNCTION_WORDS.has(w)) out.add(w);
  return out;
}

/**
 * A paraphrase of a sentence: of its first 30 words, the rarest third of the content words is
 * dropped (rarest = in the fewest of the sampled sources; ties: the longer word, then the later one),
 * and the function words are shuffled among their own places. What is left keeps the sentence's
 * gist but not its exact wording nor the names and terms that make a text search trivial, which is
 * how someone remembers an article they read weeks ago. Null when fewer than four words would remain.
 */
export function paraphrase(sentence: string, docFreq: (word: string) => number, rand: () => number): string | null {
  const ws = words(sentence).slice(0, MAX_SENTENCE_WORDS);
  const content = ws.flatMap((w, i) => (FUNCTION_WORDS.has(w.toLowerCase()) ? [] : [{ w, i }]));
  if (content.length === 0) return null;
  const rarest = [...content]
    .sort((a, b) => {
      const fa = docFreq(a.w.toLowerCase());
      const fb = docFreq(b.w.toLowerCase());
      return fa - fb || b.w.length - a.w.length || b.i - a.i;
    })
    .slice(0, Math.ceil(content.length / 3));
  const dropped = new Set(rarest.map((x) => x.i));
  const kept = ws.flatMap((w, i) => (dropped.has(i) ? [] : [{ w, i }]));
  if (kept.length < MIN_PARAPHRASE_WORDS) return null;
  const slots = kept.flatMap((k, at) => (FUNCTION_WORDS.has(k.w.toLowerCase()) ? [at] : []));
  const moved = shuffled(
    slots.map((at) => kept[at]!.w),
    rand,
  );
  slots.forEach((at, j) => (kept[at] = { w: moved[j]!, i: kept[at]!.i }));
  return kept.map((k) => k.w).join(" ");
}

/**
 * The known-item queries of one source: its title, one heading (chosen by the source's own generator
 * among those that are not the title) and the paraphrase of its first sentence, each when it has one.
 */
export function knownItemQueries(s: SampledSource, seed: number, docFreq: (word: string) => number): KnownItemQuery[] {
  const rand = randomFor(seed, s.id);
  const out: KnownItemQuery[] = [];
  const title = titleQuery(s.title);
  if (title) out.push({ kind: "title", text: title, sourceId: s.id });
  const md = s.content ?? "";
  const headings = headingCandidates(md, s.title);
  if (headings.length)
    out.push({ kind: "heading", text: headings[Math.floor(rand() * headings.length)]!, sourceId: s.id });
  const first = firstSentence(md);
  const p = first ? paraphrase(first, docFreq, rand) : null;
  if (p) out.push({ kind: "paraphrase", text: p, sourceId: s.id });
  return out;
}

/** Whether a source can give at least one query (sampling skips those that cannot). */
export const hasQueries = (s: SampledSource): boolean =>
  titleQuery(s.title) !== null ||
  headingCandidates(s.content ?? "", s.title).length > 0 ||
  firstSentence(s.content ?? "") !== null;

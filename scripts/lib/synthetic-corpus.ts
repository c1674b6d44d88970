// The synthetic corpus of bench:search: a pseudo-word vocabulary (a Zipfian background plus per-topic
// words, so BM25 has rare and common terms and vectors have neighbours) and documents written in it,
// each with a known-item query. Seeded: every run sees the same corpus and queries.
import { seededRandom } from "../../src/random.ts";

const VOCAB = 30_000;
const TOPICS = 400;
const TOPIC_WORDS = 120;
const PARAGRAPHS_PER_CHUNK = 2.4;

/** A seeded pseudo-word vocabulary: Zipfian background words and TOPICS sets of topic words. */
export function makeLanguage(seed: number) {
  const rnd = seededRandom(seed);
  const onsets = [
    "b",
    "br",
    "c",
    "ch",
    "d",
    "f",
    "g",
    "gr",
    "h",
    "k",
    "l",
    "m",
    "n",
    "p",
    "pl",
    "r",
    "s",
    "st",
    "t",
    "tr",
    "v",
    "w",
    "z",
  ];
  const vowels = ["a", "e", "i", "o", "u", "ai", "ea", "ou"];
  const codas = ["", "", "n", "r", "s", "l", "m", "th", "x"];
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < VOCAB) {
    const syllables = 1 + Math.floor(rnd() * 3);
    let w = "";
    for (let i = 0; i < syllables; i++) w += pick(onsets) + pick(vowels) + pick(codas);
    if (w.length >= 3 && !seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  // Zipf (s = 1) over the vocabulary: a cumulative table searched by bisection.
  const cdf = new Float64Array(VOCAB);
  let sum = 0;
  for (let i = 0; i < VOCAB; i++) cdf[i] = sum += 1 / (i + 1);
  const zipf = (r: number) => {
    const x = r * sum;
    let lo = 0;
    let hi = VOCAB - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  // Topic words come from the middle and tail of the frequency range: specific, not function words.
  const topics = Array.from({ length: TOPICS }, () =>
    Array.from({ length: TOPIC_WORDS }, () => words[500 + Math.floor(rnd() * (VOCAB - 500))]!),
  );
  return { words, zipf, topics };
}

export type Language = ReturnType<typeof makeLanguage>;

// Real text spends about half its tokens on function words; the embedder and BM25 must cope with them.
const FUNCTION_WORDS = (
  "the of and to a in is that for it as was with be by on not he this are or his from at which but have an they " +
  "you were her all she there would their we him been has when who will more no if out so said what up its about " +
  "into than them can only other new some could time these two may then do first any my now such like our over"
).split(" ");

/** One Markdown document of about `chunksWanted` chunks, with a known-item query for it. */
export function makeDocument(lang: Language, rnd: () => number, chunksWanted: number) {
  const main = lang.topics[Math.floor(rnd() * TOPICS)]!;
  const second = lang.topics[Math.floor(rnd() * TOPICS)]!;
  // Names and terms of this one document, as real articles have: rare words, repeated.
  const own = Array.from({ length: 8 }, () => lang.words[5000 + Math.floor(rnd() * (VOCAB - 5000))]!);
  // Topic words are skewed too: a few are the topic's core vocabulary.
  const topicWord = (t: string[]) => t[Math.floor(rnd() ** 2 * t.length)]!;
  const word = () => {
    const r = rnd();
    if (r < 0.45) return FUNCTION_WORDS[Math.floor(rnd() ** 2 * FUNCTION_WORDS.length)]!;
    if (r < 0.7) return lang.zipf(rnd());
    if (r < 0.9) return topicWord(main);
    return r < 0.95 ? topicWord(second) : own[Math.floor(rnd() * own.length)]!;
  };
  const sentence = () => {
    const ws = Array.from({ length: 8 + Math.floor(rnd() * 14) }, word);
    return `${ws[0]![0]!.toUpperCase()}${ws.join(" ").slice(1)}.`;
  };
  const title = [own[0]!, ...Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => topicWord(main))].join(" ");
  const parts = [`# ${title}`];
  // ~400 estimated tokens per chunk: paragraphs of 50–110 words, a section heading every few.
  const paragraphs = Math.round(chunksWanted * PARAGRAPHS_PER_CHUNK);
  for (let p = 0; p < paragraphs; p++) {
    if (p > 0 && p % 5 === 0)
      parts.push(`## ${Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => topicWord(main)).join(" ")}`);
    parts.push(Array.from({ length: 4 + Math.floor(rnd() * 4) }, sentence).join(" "));
  }
  // A known-item query for this document: one of its own words and a few of its topic's.
  const query = [
    own[Math.floor(rnd() * own.length)]!,
    ...Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => topicWord(main)),
  ];
  if (rnd() < 0.3) query.splice(1, 0, FUNCTION_WORDS[Math.floor(rnd() * 20)]!);
  return { title, markdown: parts.join("\n\n"), query: query.join(" ") };
}

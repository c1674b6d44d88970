// The builtin embedder: deterministic hashed lexical features, offline, no model download.
//
// What it captures, honestly: lexical and morphological overlap, not meaning. Two texts come out
// close when they share words (after light stemming: "apples"/"apple", "baking"/"baked"/"bake"),
// word pairs ("interest rate"), or word fragments (character 3–5-grams, so "astronomer" and
// "astronomy", "photosynthesis" and "photosynthetic" still meet). It does not know that "car" and
// "automobile" are the same thing, and it does not understand negation or word order beyond pairs.
// It is the offline default; point AI_BASE_URL at a real embedding model for semantic search.
//
// How: features are hashed with signed feature hashing (FNV-1a + a finaliser) into `dimensions`
// buckets, weighted 1 + ln(tf) per distinct word or pair, stopwords dropped, then L2-normalised.
import { l2normalize, type Embedder } from "./port.ts";

// Relative weights of the three feature families, tuned on the search evaluation set.
const W_WORD = 1;
const W_PAIR = 0.15;
const W_GRAMS = 1.4;
const SEED_WORD = 0x811c9dc5;
const SEED_PAIR = 0x050c5d1f;
const SEED_GRAM = 0x2f1b4a73;

const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both " +
    "but by can could did do does doing down during each few for from further had has have having he her here hers herself " +
    "him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or " +
    "other our ours ourselves out over own same she should so some such than that the their theirs them themselves then " +
    "there these they this those through to too under until up very was we were what when where which while who whom why " +
    "will with would you your yours yourself yourselves s t d ll m re ve"
  ).split(" "),
);

/**
 * A light suffix stripper: plurals, -ing, -ed, a final -e and doubled consonants, so that
 * "bakes", "baking", "baked" and "bake" all become "bak". Crude on purpose: it only has to map
 * related forms together, never to produce real words.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|us|is)$/.test(w)) {
    // "glass", "virus", "analysis" are not plurals
  } else if (/(?:sh|ch|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s")) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5 && /[aeiouy]/.test(w.slice(0, -3))) w = w.slice(0, -3);
  else if (w.endsWith("ed") && !w.endsWith("eed") && w.length > 4 && /[aeiouy]/.test(w.slice(0, -2)))
    w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[aeiouyls]/.test(w[w.length - 1]!)) w = w.slice(0, -1);
  return w;
}

/** Murmur3's finaliser: spreads FNV's weak low bits so `% dimensions` and the sign bit are independent. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function fnv(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

function addHashed(v: Float32Array, h: number, weight: number): void {
  const m = mix(h);
  const i = m % v.length;
  v[i] = v[i]! + (m & 0x80000000 ? -weight : weight);
}

/** Character 3–5-grams of "<word>", hashed incrementally without building substrings. */
function addGrams(v: Float32Array, word: string, weight: number): void {
  const s = `<${word}>`;
  const n = s.length;
  const count = 3 * n - 9; // how many 3-, 4- and 5-grams there are (callers pass words of 3+ letters, so n ≥ 5)
  const w = weight / Math.sqrt(count);
  for (let i = 0; i + 3 <= n; i++) {
    let h = SEED_GRAM;
    for (let j = i; j < n && j < i + 5; j++) {
      h ^= s.charCodeAt(j);
      h = Math.imul(h, 0x01000193);
      if (j - i >= 2) addHashed(v, h, w);
    }
  }
}

const WORD_RE = /[\p{L}\p{N}]+/gu;
const DIGITS = /^\p{N}+$/u;

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Memoised stemming: most words of a corpus repeat, and stemming is the slow part. */
function stemCache(limit = 50_000): (word: string) => string {
  let cache = new Map<string, string>();
  return (word) => {
    let st = cache.get(word);
    if (st === undefined) {
      if (cache.size >= limit) cache = new Map();
      st = stem(word);
      cache.set(word, st);
    }
    return st;
  };
}

/** The unnormalised feature vector of one text. */
function features(text: string, dimensions: number, stemOf: (w: string) => string): Float32Array {
  const v = new Float32Array(dimensions);
  const words = new Map<string, number>(); // surface form → tf, for the character grams
  const stems = new Map<string, number>();
  const pairs = new Map<string, number>();
  let prev: string | null = null;
  for (const m of text.toLowerCase().matchAll(WORD_RE)) {
    const word = m[0];
    if (STOPWORDS.has(word)) continue;
    const st = stemOf(word);
    count(words, word);
    count(stems, st);
    if (prev !== null) count(pairs, `${prev} ${st}`);
    prev = st;
  }
  for (const [st, tf] of stems) addHashed(v, fnv(st, SEED_WORD), W_WORD * (1 + Math.log(tf)));
  for (const [p, tf] of pairs) addHashed(v, fnv(p, SEED_PAIR), W_PAIR * (1 + Math.log(tf)));
  for (const [word, tf] of words) {
    if (word.length >= 3 && !DIGITS.test(word)) addGrams(v, word, W_GRAMS * (1 + Math.log(tf)));
  }
  return v;
}

export function createBuiltinEmbedder(opts: { dimensions?: number } = {}): Embedder {
  const dimensions = opts.dimensions ?? 384;
  if (!Number.isInteger(dimensions) || dimensions < 8 || dimensions > 8192) {
    throw new RangeError(`builtin embedder dimensions must be a whole number from 8 to 8192, got ${dimensions}`);
  }
  const stemOf = stemCache();
  return {
    // The default keeps the short name; other sizes are different vector spaces, so different ids.
    id: dimensions === 384 ? "builtin-hash-v1" : `builtin-hash-v1-${dimensions}`,
    dimensions,
    // Lexical cosines cannot separate related from unrelated well (see docs/quality.md): this
    // floor only drops what shares next to nothing with the query.
    relevanceFloor: 0.1,
    async embed(texts) {
      return texts.map((t) => l2normalize(features(t, dimensions, stemOf)));
    },
  };
}

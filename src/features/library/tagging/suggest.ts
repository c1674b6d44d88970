// Tag suggestions that do not sprawl: up to five tags for a source, taken first from the tags its owner
// already uses (found in the text, or close in meaning by the embedder), and only then a couple of new
// ones from the text's most repeated phrases — each new one snapped onto an existing tag that means the
// same thing. Everything here is linear in the text (one pass of tokens, bounded candidate lists).
import { stem } from "../../../ai/embedder/builtin.ts";
import { dot, type Embedder } from "../../../ai/embedder/port.ts";

export const MAX_SUGGESTIONS = 5;
/** New tags (not yet in the library) among the suggestions, at most. */
export const MAX_NEW = 2;
/** Words of the text looked at: the opening of an article says what it is about. */
const MAX_WORDS = 1500;
/** The existing tags compared by meaning (the most used first). */
const MAX_EXISTING = 300;

const STOP = new Set(
  (
    "a about above after again against all almost also although always am among an and another any anyone anything are " +
    "around as at away back be because been before being below between both but by can cannot could did do does doing " +
    "done down during each either else enough even ever every few first for from further get gets getting give given go " +
    "goes going gone got had has have having he her here hers herself him himself his how however i if in including into " +
    "is it its itself just know last later least less let like likely made make makes making many may me might more most " +
    "much must my myself near need never new next no nor not now of off often on once one only or other others our ours " +
    "out over own part per perhaps put rather really said same say says see seen several shall she should show since so " +
    "some something still such take than that the their theirs them themselves then there these they thing things think " +
    "this those though through thus to today too took toward towards two under until up upon us use used uses using very " +
    "via want was way ways we well were what whatever when where whether which while who whom whose why will with within " +
    "without would year years yet you your yours yourself yourselves s t d ll m re ve don didn doesn isn wasn aren weren " +
    "won wouldn couldn shouldn people time times day days week weeks month months lot lots kind really good great better " +
    "best bad big small large long high low right left old young little own able via etc www http https com html"
  ).split(" "),
);

const WORD_RE = /[\p{L}][\p{L}\p{N}'’-]*[\p{L}\p{N}]|[\p{L}]/gu;

/** A tag as compared: lower case, hyphens and underscores as spaces, each word stemmed. */
export function tagKey(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[-_/]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map(stem)
    .join(" ");
}

interface Phrase {
  /** The stemmed key ("machin learn"). */
  key: string;
  /** The most frequent surface form, as the tag would read ("machine learning"). */
  label: string;
  count: number;
  inTitle: boolean;
}

/**
 * The text's repeated one- and two-word phrases (no stopwords at either end, no numbers), by how
 * often they occur, title words counting double. Linear: one pass over at most MAX_WORDS tokens.
 */
export function keyPhrases(title: string, text: string, limit = 12): Phrase[] {
  const phrases = new Map<string, { count: number; inTitle: boolean; forms: Map<string, number> }>();
  const add = (key: string, form: string, fromTitle: boolean) => {
    let p = phrases.get(key);
    if (!p) phrases.set(key, (p = { count: 0, inTitle: false, forms: new Map() }));
    p.count += fromTitle ? 2 : 1;
    if (fromTitle) p.inTitle = true;
    p.forms.set(form, (p.forms.get(form) ?? 0) + 1);
  };
  const scan = (s: string, fromTitle: boolean, budget: number) => {
    let prev: { key: string; form: string } | null = null;
    let n = 0;
    for (const m of s.matchAll(WORD_RE)) {
      if (++n > budget) break;
      const raw = m[0].replace(/[’']s$/, "");
      const lower = raw.toLowerCase();
      if (STOP.has(lower) || lower.length < 3) {
        prev = null;
        continue;
      }
      const key = stem(lower);
      // The label is the phrase's most frequent spelling: "Rust" and "NASA" keep their capitals, a
      // common word capitalised only at the start of sentences is outvoted by its lower-case uses.
      const form = raw;
      add(key, form, fromTitle);
      if (prev) add(`${prev.key} ${key}`, `${prev.form} ${form}`, fromTitle);
      prev = { key, form };
    }
  };
  scan(title, true, 40);
  scan(text, false, MAX_WORDS);
  const out: Phrase[] = [];
  for (const [key, p] of phrases) {
    const two = key.includes(" ");
    // A phrase must recur; a pair must recur at least as a unit, not only its words apart.
    if (p.count < (two ? 2 : 3)) continue;
    let label = "";
    let best = 0;
    for (const [form, n] of p.forms) if (n > best) [label, best] = [form, n];
    out.push({ key, label, count: p.count + (two ? p.count : 0), inTitle: p.inTitle });
  }
  out.sort((a, b) => b.count - a.count || Number(b.inTitle) - Number(a.inTitle) || a.key.localeCompare(b.key));
  // A word already inside a stronger kept pair adds nothing ("learning" under "machine learning").
  const kept: Phrase[] = [];
  for (const p of out) {
    if (kept.length >= limit) break;
    if (!p.key.includes(" ") && kept.some((k) => k.key.split(" ").includes(p.key))) continue;
    kept.push(p);
  }
  return kept;
}

export interface SuggestInput {
  title: string;
  /** The article as Markdown (or plain text). */
  text: string;
  /** The owner's tags, most used first. */
  existing: string[];
  /** Tags the source already carries: never suggested. */
  current: string[];
}

export interface Suggester {
  suggest(input: SuggestInput): Promise<string[]>;
}

/** Cosine at or above which a new phrase is taken to name an existing tag. */
const SAME_MEANING = 0.82;

/** A source of the library close in meaning to the new one, with the tags it carries. */
export interface Neighbour {
  tags: string[];
  /** Similarity to the new source (the vector search's score). */
  score: number;
}

export function createSuggester(deps: {
  embedder: Embedder;
  /** The owner's sources nearest in meaning to a text (vector search), the new source itself left out. */
  neighbours?: (text: string) => Promise<Neighbour[]>;
  /** Tags proposed by an OpenAI-compatible model, when one is configured (its ideas are snapped like the rest). */
  modelTags?: (input: SuggestInput) => Promise<string[]>;
}): Suggester {
  const vectors = new Map<string, Float32Array>();
  async function vectorsOf(texts: string[]): Promise<Float32Array[]> {
    const key = (t: string) => `${deps.embedder.id}\u0000${t}`;
    const missing = [...new Set(texts.filter((t) => !vectors.has(key(t))))];
    if (missing.length) {
      const got = await deps.embedder.embed(missing, "query");
      if (vectors.size > 20_000) vectors.clear();
      missing.forEach((t, i) => vectors.set(key(t), got[i]!));
    }
    return texts.map((t) => vectors.get(key(t))!);
  }

  return {
    async suggest(input) {
      const current = new Set(input.current.map(tagKey));
      const existing = input.existing.slice(0, MAX_EXISTING).filter((t) => !current.has(tagKey(t)));
      const known = new Map(existing.map((t) => [tagKey(t), t]));
      const plain = input.text.replace(/!\[[^\]]*\]\([^)]*\)/g, " ").replace(/\]\([^)]*\)/g, "] ");
      const phrases = keyPhrases(input.title, plain);
      const phraseKeys = new Map(phrases.map((p) => [p.key, p]));
      const scored = new Map<string, number>();
      const bump = (tag: string, score: number) => scored.set(tag, (scored.get(tag) ?? 0) + score);

      // 1. Existing tags the text names: a phrase it repeats (or its title holds) counts most; the
      //    tag's words all present somewhere counts a little (enough only with other evidence).
      const words = new Set(
        [...`${input.title} ${plain}`.slice(0, 60_000).toLowerCase().matchAll(WORD_RE)].map((m) => stem(m[0])),
      );
      for (const [key, tag] of known) {
        const phrase = phraseKeys.get(key);
        if (phrase) bump(tag, 2 + Math.log(phrase.count));
        else if (key !== "" && key.split(" ").every((w) => words.has(w))) bump(tag, 0.5);
      }

      // 2. Existing tags by meaning: the tags of the library's sources nearest to this one (by the
      //    embedder, through the vector index), each weighted by how close its source is.
      const near = deps.neighbours
        ? await deps.neighbours(`${input.title}\n${plain.split(/\s+/).slice(0, 200).join(" ")}`).catch(() => [])
        : [];
      const total = near.reduce((a, n) => a + Math.max(0, n.score), 0);
      if (total > 0) {
        const votes = new Map<string, { share: number; count: number }>();
        for (const n of near) {
          for (const t of new Set(n.tags)) {
            const tag = known.get(tagKey(t));
            if (!tag) continue;
            const v = votes.get(tag) ?? { share: 0, count: 0 };
            v.share += Math.max(0, n.score) / total;
            v.count++;
            votes.set(tag, v);
          }
        }
        // A tag carried by at least two near sources, or by a clear share of them.
        for (const [tag, v] of votes) if (v.count >= 2 || v.share >= 0.34) bump(tag, 2 * v.share + 0.25 * v.count);
      }

      // 3. New tags: the model's (when configured), else the text's strongest phrases — each snapped
      //    onto an existing tag of the same words or (by the embedder) the same meaning.
      const ideas = deps.modelTags ? await deps.modelTags(input).catch(() => []) : [];
      const fresh = [...ideas, ...phrases.slice(0, 6).map((p) => p.label)]
        .map((t) => t.trim().slice(0, 60))
        .filter((t) => t && !current.has(tagKey(t)));
      const freshVectors = existing.length && fresh.length ? await vectorsOf(fresh) : [];
      const existingVectors = existing.length && fresh.length ? await vectorsOf(existing) : [];
      const newOnes: string[] = [];
      fresh.forEach((idea, i) => {
        const key = tagKey(idea);
        let same = known.get(key);
        if (!same && freshVectors.length) {
          let best = SAME_MEANING;
          existing.forEach((t, j) => {
            const cos = dot(freshVectors[i]!, existingVectors[j]!);
            if (cos >= best) [same, best] = [t, cos];
          });
        }
        if (same) bump(same, 0.5);
        else if (!newOnes.some((n) => tagKey(n) === key)) newOnes.push(idea);
      });

      const picked = [...scored]
        .filter(([, score]) => score >= 1)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([tag]) => tag)
        .slice(0, MAX_SUGGESTIONS);
      // New tags only fill the room the library's own tags leave, and never more than MAX_NEW.
      picked.push(...newOnes.slice(0, Math.min(MAX_NEW, MAX_SUGGESTIONS - picked.length)));
      return picked;
    },
  };
}

export interface SimilarPair {
  /** The more used of the two: the name a merge keeps. */
  keep: string;
  merge: string;
  /** `spelling`: the same words up to case, plural, hyphens; `together`: nearly always on the same sources; `meaning`: close by the embedder. */
  reason: "spelling" | "together" | "meaning";
  similarity: number;
}

/**
 * Pairs of the owner's tags that look like one tag written twice, proposed as merges: the same words
 * up to case, plural and hyphens (`Rust` / `rust`, `web-dev` / `web dev`); carried by nearly the same
 * sources (`ml` and `machine-learning` put on the same articles); or close in meaning by the embedder.
 * `tagged` is the tags of each tagged source. Quadratic only in the number of distinct tags compared
 * (at most MAX_EXISTING, the most used).
 */
export async function similarTags(embedder: Embedder, tagged: string[][], limit = 50): Promise<SimilarPair[]> {
  const counts = new Map<string, number>();
  for (const tags of tagged) for (const t of new Set(tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const list = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_EXISTING)
    .map(([name]) => name);
  const index = new Map(list.map((t, i) => [t, i]));
  const out: SimilarPair[] = [];
  const paired = new Set<string>();
  const pair = (a: string, b: string, reason: SimilarPair["reason"], similarity: number) => {
    const [keep, merge] = (counts.get(a)! >= counts.get(b)! ? [a, b] : [b, a]) as [string, string];
    const id = `${keep}\u0000${merge}`;
    if (paired.has(id) || paired.has(`${merge}\u0000${keep}`)) return;
    paired.add(id);
    out.push({ keep, merge, reason, similarity: Math.round(similarity * 1000) / 1000 });
  };

  const byKey = new Map<string, string>();
  for (const t of list) {
    const key = tagKey(t);
    const first = byKey.get(key);
    if (first) pair(first, t, "spelling", 1);
    else byKey.set(key, t);
  }

  // Co-occurrence: of the sources carrying the rarer tag, the share also carrying the other.
  const both = new Map<string, number>();
  for (const tags of tagged) {
    const ids = [...new Set(tags)].flatMap((t) => (index.has(t) ? [index.get(t)!] : [])).sort((a, b) => a - b);
    if (ids.length > 30) continue; // a source with dozens of tags says little about any pair
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const k = `${ids[i]}:${ids[j]}`;
        both.set(k, (both.get(k) ?? 0) + 1);
      }
  }
  const together = [...both]
    .map(([k, n]) => {
      const [i, j] = k.split(":").map(Number) as [number, number];
      const a = list[i]!;
      const b = list[j]!;
      return { a, b, n, share: n / Math.min(counts.get(a)!, counts.get(b)!) };
    })
    .filter((p) => p.n >= 3 && p.share >= 0.8)
    .sort((x, y) => y.share - x.share || y.n - x.n);
  for (const p of together) pair(p.a, p.b, "together", p.share);

  if (list.length > 1) {
    const vs = await embedder.embed(list, "query");
    const near: { i: number; j: number; cos: number }[] = [];
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const cos = dot(vs[i]!, vs[j]!);
        if (cos >= SAME_MEANING) near.push({ i, j, cos });
      }
    }
    near.sort((a, b) => b.cos - a.cos);
    for (const p of near) pair(list[p.i]!, list[p.j]!, "meaning", p.cos);
  }
  return out.slice(0, limit);
}

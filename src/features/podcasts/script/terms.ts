// Names of things a passage is about ("staff turnover", "willow"), for host questions and links between parts.
import { contentStems } from "../../../ai/text.ts";
import type { RankedSentence } from "./text.ts";

/** Words that carry no subject of their own: reporting verbs, quantifiers, vague adjectives. */
const EMPTY = new Set(
  "say says said argue argues argued note notes noted point points pointed report reports reported warn warns warned claim claims claimed show shows showed shown found find finds make makes made become becomes became keep keeps take takes give gives gave also more most much many other others only even often about would could should every each some such very well still just like into than then what when where which while whose once whole part parts thing things people year years time times ones simply rather another several three four five seven eight nine hundred thousand million sixty thirty twenty want wants build builds stay stays move moves grow grows grown need needs cut cuts fell fall falls rise rises rose come comes came look looks seem seems help helps turn turns call calls called spend spends create creates return returns flat good better best high higher large small long longer short shorter hard easy strong weak clear sure true able less fewer least same different broadly effect effects way ways case cases kind kinds lot lots their there these those them they working however although though because since while first second third thirds half almost relative relatively young old older spread simple simpler special single common rich poor main major early late local real full free entire huge tiny distant great straight certain likely possible various own storing using making taking getting picking holding choosing choose indicates indicate must after before efficient inefficient".split(
    " ",
  ),
);
const WORD = /[\p{L}][\p{L}'-]*/gu;

function nounish(word: string): boolean {
  const w = word.toLowerCase();
  return w.length > 3 && !EMPTY.has(w) && !/(ly|ed)$/.test(w) && contentStems(w).length === 1;
}

/** Content-word runs between punctuation, as written. */
function phrases(text: string): string[][] {
  return text.split(/[,;:.!?()"“”—–]|\s-\s/).map((p) => [...p.matchAll(WORD)].map((m) => m[0].replace(/['’]s$/, "")));
}

export interface Term {
  /** As written, lower-cased unless a proper name. */
  text: string;
  stems: string[];
  score: number;
}

/**
 * The passage's most telling terms: two-word names that recur in the whole text ("sick days") and
 * single nouns, weighted by how often the passage uses them and how rare they are elsewhere.
 */
export function subjectTerms(
  passage: RankedSentence[],
  all: RankedSentence[],
  n: number,
  avoid: Set<string> = new Set(),
): Term[] {
  const df = new Map<string, number>();
  const docCount = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  const count = (sentences: RankedSentence[], into: Map<string, number>, perSentence: boolean) => {
    for (const s of sentences) {
      const seen = new Set<string>();
      for (const words of phrases(s.text)) {
        words.forEach((w, i) => {
          const keys: [string, string][] = [];
          if (nounish(w)) keys.push([contentStems(w)[0]!, w]);
          const next = words[i + 1];
          if (next && nounish(next) && contentStems(w).length === 1 && !EMPTY.has(w.toLowerCase()) && w.length > 2)
            keys.push([`${contentStems(w)[0]} ${contentStems(next)[0]}`, `${w} ${next}`]);
          for (const [key, form] of keys) {
            if (perSentence && seen.has(key)) continue;
            seen.add(key);
            into.set(key, (into.get(key) ?? 0) + 1);
            const written = /^\p{Lu}\p{Ll}/u.test(form) && i > 0 ? form : form.toLowerCase();
            const seenForms = forms.get(key) ?? new Map<string, number>();
            forms.set(key, seenForms.set(written, (seenForms.get(written) ?? 0) + 1));
          }
        });
      }
    }
  };
  count(all, df, true);
  count(all, docCount, false);
  const local = new Map<string, number>();
  count(passage, local, false);
  const total = Math.max(1, all.length);
  const pairs = [...docCount.entries()].filter(([key, n]) => key.includes(" ") && n >= 2);
  const scored = [...local.entries()]
    .filter(([key]) => !key.split(" ").some((s) => avoid.has(s)))
    .filter(([key]) => !key.includes(" ") || (docCount.get(key) ?? 0) >= 2)
    // "sick" only ever in "sick days" is not a subject of its own.
    .filter(
      ([key]) =>
        key.includes(" ") || !pairs.some(([pair, n]) => pair.split(" ").includes(key) && n >= (docCount.get(key) ?? 0)),
    )
    .map(([key, tf]) => {
      const rare = Math.log((total + 1) / ((df.get(key) ?? 0) + 0.5));
      // The form the text uses most ("cells", not the one "cell" of a heading).
      const text = [...forms.get(key)!.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      return {
        text,
        stems: key.split(" "),
        score: tf * rare * (key.includes(" ") ? 1.6 : 1),
        recurs: (docCount.get(key) ?? 0) >= 2,
      };
    });
  // A subject recurs: a word used once in the whole text is rarely what a passage is about.
  const recurring = scored.filter((t) => t.recurs);
  return (recurring.length > 0 ? recurring : scored)
    .sort((a, b) => b.score - a.score)
    .filter((t, i, list) => !list.slice(0, i).some((u) => u.stems.join(" ").includes(t.stems.join(" "))))
    .slice(0, n)
    .map(({ text, stems, score }) => ({ text, stems, score }));
}

// Which sentences an extractive answer may use (no fragments, bare URLs or boilerplate), how a
// question's type shows in a sentence (a name, date, place or number), and link-free display text.

const URL_RE = /(?:https?:\/\/|www\.)\S+|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\S*/g;
const BOILERPLATE =
  /^(?:filed under|tags?:|posted (?:in|on|by)|updated|share(?: this)?|subscribe|sign up|read more|related|advertisement|photo(?:graph)?:|image:|credit:|source:|copyright|©|all rights reserved|by [\p{Lu}][\p{L}.'-]+(?: [\p{Lu}][\p{L}.'-]+)* ·)/iu;

/** The sentence with Markdown links shown as their text, emphasis markers and bare URLs removed. */
export function displayText(sentence: string): string {
  return sentence
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\s*\(\s*(?:see\s+)?(?:https?:\/\/|www\.)[^)\s]+\s*\)/gi, "")
    .replace(/(\*\*|__|`)(.+?)\1/g, "$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** True when a sentence can stand alone in an answer: complete, mostly words, not site furniture. */
export function isAnswerable(sentence: string, kind: string): boolean {
  if (kind === "heading" || kind === "table") return false;
  const shown = displayText(sentence);
  if (BOILERPLATE.test(shown)) return false;
  const words = shown.replace(URL_RE, " ").match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  if (words.length < 4) return false;
  // Cut where a chunk or a PDF line began or ended: starts in lower case, or stops mid-sentence.
  if (/^[\p{Ll},;:)\]]/u.test(shown)) return false;
  const closed = /[.!?…]["'”’)\]]*$/.test(shown);
  if (kind !== "item" && !closed) return false;
  // A list item may go without a full stop, but not stop on "a", "the", "of"… (cut mid-phrase).
  if (!closed && /\b(?:a|an|the|of|to|and|or|with|like|for|in|on|at|by)$/i.test(shown)) return false;
  // More URL than words: a link list, not a sentence.
  const urlChars = (sentence.match(URL_RE) ?? []).join("").length;
  return urlChars < sentence.length / 2;
}

export type QuestionType = "person" | "time" | "place" | "number" | null;

export function questionType(question: string): QuestionType {
  const q = question.toLowerCase();
  // "Who/when/where" ask for that only when they lead the question: "How do bees decide where to
  // nest?" does not ask for a place.
  const lead = q.split(/\s+/).slice(0, 2).join(" ");
  if (
    /\b(?:how (?:many|much|long|far|old|fast|big|large|tall|deep|high|hot|cold|often)|what (?:percentage|proportion|share|fraction|temperature|speed|size)|roughly how)\b/.test(
      q,
    )
  )
    return "number";
  if (
    /\bwhen\b/.test(lead) ||
    /\b(?:what (?:year|date|day|decade|century|month|time)|which (?:year|date|day|decade|century|month))\b/.test(q)
  )
    return "time";
  if (
    /\b(?:who|whom|whose)\b/.test(lead) ||
    /\b(?:which (?:person|man|woman|scientist|diplomat|spokesman|artist|composer|king|queen|emperor|player|people|astronaut|engineer|inventor|writer|painter))\b/.test(
      q,
    )
  )
    return "person";
  if (
    /\bwhere\b/.test(lead) ||
    /\b(?:which (?:city|country|town|place|region|river|sea|ocean|continent|island|mountain|church|building))\b/.test(q)
  )
    return "place";
  return null;
}

const MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december";
const NUMBER_WORDS =
  "once|twice|thrice|daily|weekly|monthly|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|hundreds|thousand|thousands|million|millions|billion|dozen|half|quarter|third";

/** True when the sentence holds what the question type asks for, beyond the words of the question itself. */
export function holdsAnswerType(sentence: string, type: QuestionType, question: string): boolean {
  if (!type) return false;
  const s = displayText(sentence);
  const qWords = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const novel = (w: string) => !qWords.has(w.toLowerCase());
  if (type === "number") return /\d/.test(s) || new RegExp(`\\b(?:${NUMBER_WORDS})\\b`, "i").test(s);
  if (type === "time")
    return (
      /\b(?:1\d{3}|20\d{2}|\d{1,2}(?:st|nd|rd|th)? century|\d{3,4}s|\d+ ?(?:BC|BCE|AD|CE))\b/.test(s) ||
      new RegExp(`\\b(?:${MONTHS})\\b`, "i").test(s)
    );
  // Capitalised words after the first one: names and places.
  const caps = (s.match(/(?<=\S\s+)\p{Lu}[\p{L}'’-]+/gu) ?? []).filter(novel);
  // A person is named in two capitalised words or more ("Johannes Gutenberg", "Karl von Frisch");
  // one capitalised word is as often a place or a thing ("Bible", "Mainz").
  // A name right after "in", "at", "from"… is a place ("musicians in New York"), not a person.
  if (type === "person")
    return (
      s.match(
        /(?<!\b(?:in|at|from|near|across) )\p{Lu}[\p{L}'’-]+(?:\s+(?:von |van |de |da |di |der |la |le )?\p{Lu}[\p{L}'’-]+)+/gu,
      ) ?? []
    ).some((n) => n.split(/\s+/).some(novel));
  return caps.length > 0 || /\b(?:in|at|near|from) the [\p{Ll}]+ of\b/u.test(s);
}

/**
 * A verbatim part of `sentence` to quote: the sentence itself, or — when it carries link syntax or a
 * URL — its longest stretch free of them, so the quote reads as text while still being a substring.
 */
export function quoteSpan(sentence: string): string {
  if (!/\]\(|https?:\/\/|www\./.test(sentence)) return sentence;
  const pieces = sentence.split(/!?\[(?=[^\]]*\]\()|\]\([^)]*\)|\(?\s*(?:see\s+)?(?:https?:\/\/|www\.)\S+/);
  const best = pieces.map((p) => p.trim()).sort((a, b) => b.length - a.length)[0] ?? "";
  return (best.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 4 ? best : sentence;
}

/** Where in a sentence the kind of thing a question asks for is written (spans not made of the question's own words). */
function typedSpans(s: string, type: QuestionType, question: string): { start: number; end: number }[] {
  if (!type) return [];
  const qWords = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const re =
    type === "number"
      ? new RegExp(`[$€£]?\\d[\\d.,:/-]*%?|\\b(?:${NUMBER_WORDS})\\b`, "gi")
      : type === "time"
        ? new RegExp(`\\b(?:1\\d{3}|20\\d{2}|\\d{1,2}(?:st|nd|rd|th)? century|\\d{3,4}s|${MONTHS})\\b`, "gi")
        : type === "person"
          ? /\p{Lu}[\p{L}'’-]+(?:\s+(?:von |van |de |da |di |der |la |le )?\p{Lu}[\p{L}'’-]+)+/gu
          : /(?<=\S\s+)\p{Lu}[\p{L}'’-]+/gu;
  return [...s.matchAll(re)]
    .filter((m) => (m[0].toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).some((w) => !qWords.has(w)))
    .map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
}

/**
 * True when what the question asks for sits within a few words of one of the question's own words:
 * "10 airbags" for "how many airbags", "197 Nm of torque" for "how much torque" — the answer beside
 * its subject, where a number or a name elsewhere in the sentence is often about something else.
 */
export function typedNearQuestion(
  sentence: string,
  type: QuestionType,
  question: string,
  questionStems: Set<string>,
  stemOf: (w: string) => string,
): boolean {
  const s = displayText(sentence);
  const spans = typedSpans(s, type, question);
  if (spans.length === 0) return false;
  const words = [...s.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    at: m.index!,
    asked: questionStems.has(stemOf(m[0].toLowerCase())),
  }));
  return spans.some((sp) => {
    const first = words.findIndex((w) => w.at >= sp.start);
    const last = words.findLastIndex((w) => w.at < sp.end);
    if (first < 0 || last < 0) return false;
    return words.some((w, i) => w.asked && i >= first - 3 && i <= last + 3 && (i < first || i > last));
  });
}

// deep_dive: one host asks about what the next passage is about (its own terms, varied phrasing), the
// other answers from the text, and a thread is drawn back when two parts share a subject.
import { alone, partsOf, speakable, standsAlone, top, topicStems, type Material } from "./material.ts";
import { contentStems } from "../../../ai/text.ts";
import { isDangling } from "./clean.ts";
import { fill } from "./phrases.ts";
import type { Turn } from "./port.ts";
import { pickSentences } from "./text.ts";
import { subjectTerms, type Term } from "./terms.ts";

interface Seen {
  heading: string;
  terms: Term[];
}

/** The earlier part sharing a subject term with this one (the strongest shared term), if any. */
function connection(seen: Seen[], terms: Term[]): { heading: string; term: string } | undefined {
  for (const term of terms) {
    const key = term.stems.join(" ");
    const prev = seen.find((p) => p.terms.some((t) => t.stems.join(" ") === key));
    if (prev) return { heading: prev.heading, term: term.text };
  }
  return undefined;
}

/** Templates in turn, so no question is asked twice in the same words. */
const rotate = (list: string[], i: number) => list[i % list.length]!;

export function deepDive(m: Material): Turn[] {
  const [a, b] = m.spec.speakers.map((s) => s.name) as [string, string];
  const target = m.spec.targetWords ?? 1200;
  // A text without headings is cut into parts of about 200 spoken words each, so the target is reached.
  const parts = partsOf(m, 8, Math.round(target / 200));
  const [best] = top(m.ranked, 1);
  // The opening line is the text's own first sentence (news and essays lead with their point); the close is its most central one.
  const lead = m.ranked.find((s, i) => i < 3 && standsAlone(s) && s !== best) ?? best;
  const used = new Set<number>([best, lead].filter((s) => s !== undefined).map((s) => s.order));
  const perPart = Math.max(40, (target - 160) / Math.max(1, parts.length));
  const turns: Turn[] = [{ speaker: a, text: `${fill(m.p.ddWelcome, { title: m.title })} ${m.p.note}` }];
  if (lead) turns.push({ speaker: b, text: `${m.p.ddInShort}${alone(lead)}` });
  // The subject's own words ("wolves" in a text about wolves) connect everything, so they connect nothing.
  const topic = topicStems(m, parts);
  // Asking "what about honeybee?" in an episode about honeybees says nothing.
  const asked = new Set<string>([...topic, ...contentStems(m.title)]);
  const seen: Seen[] = [];
  let follows = 0;
  parts.forEach((part, i) => {
    const picks = pickSentences(part.sentences.filter(standsAlone), perPart, { max: 8, exclude: used });
    if (picks.length === 0) return;
    picks.forEach((s) => used.add(s.order));
    // The follow-up never starts on a sentence that leans on the answer just given.
    let half = Math.ceil(picks.length / 2);
    while (half < picks.length && isDangling(picks[half]!.text) && picks[half]!.order === picks[half - 1]!.order + 1)
      half++;
    const [first, second] = [picks.slice(0, half), picks.slice(half)];
    const term = subjectTerms(first, m.ranked, 1, asked)[0];
    term?.stems.forEach((s) => asked.add(s));
    const heading = parts.length > 1 ? inSentence(part.heading) : m.title;
    // A heading that is itself a question is asked as it stands, then narrowed to the passage's subject.
    const ask = heading.endsWith("?")
      ? `${capitalise(heading)} ${rotate(m.p.ddFollows, follows++)}`
      : rotate(m.p.ddAsks, i);
    turns.push({ speaker: a, text: fill(ask, { heading, term: term?.text ?? heading }) });
    turns.push({ speaker: b, text: speakable(first).join(" ") });
    const more = second.length > 0 ? subjectTerms(second, m.ranked, 1, asked)[0] : undefined;
    if (more) {
      more.stems.forEach((s) => asked.add(s));
      turns.push({ speaker: a, text: fill(rotate(m.p.ddFollows, follows++), { term: more.text }) });
      turns.push({ speaker: b, text: speakable(second).join(" ") });
    } else if (second.length > 0) {
      turns[turns.length - 1]!.text += ` ${speakable(second).join(" ")}`;
    }
    const terms = subjectTerms(picks, m.ranked, 6, topic);
    const link = connection(seen, terms);
    if (link) turns.push({ speaker: a, text: capitalise(fill(rotate(m.p.ddConnects, seen.length), link)) });
    seen.push({ heading, terms });
  });
  if (best && best !== lead) turns.push({ speaker: a, text: m.p.ddTakeaway }, { speaker: b, text: alone(best) });
  turns.push({ speaker: a, text: fill(m.p.ddClose, { title: m.title }) });
  return turns.filter((t) => t.text.trim() !== "");
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "What critics say" reads as a clause inside a sentence ("Now what critics say."). */
const inSentence = (heading: string) =>
  /^(what|why|how|when|where|who|which)\s/i.test(heading) && !heading.endsWith("?")
    ? heading.charAt(0).toLowerCase() + heading.slice(1)
    : heading;

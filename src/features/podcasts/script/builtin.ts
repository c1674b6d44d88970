// The builtin script writer: no model. It builds an honest programme from the source itself —
// central sentences for summaries, host questions from headings and key terms, the full text for
// `unabridged` — so every format works offline. Its own words are only framing and questions.
import type { FormatSpec } from "../formats.ts";
import { critique, debate } from "./argue.ts";
import { deepDive } from "./deep-dive.ts";
import { alone, partsOf, prepare, same, speakable, standsAlone, top, type Material } from "./material.ts";
import { fill, joinList, phrasesFor } from "./phrases.ts";
import { ScriptError, spokenWords, type ScriptRequest, type ScriptWriter, type Turn } from "./port.ts";
import { isExample, pickSentences, sectionsOf, type RankedSentence } from "./text.ts";
import { contentStems, jaccard } from "../../../ai/text.ts";

/** Key takeaways that cover the text: the best sentence of each part, then the best of the rest, within the word budget. */
function brief(m: Material): Turn[] {
  const [host] = m.spec.speakers.map((s) => s.name) as [string];
  const budget = (m.spec.targetWords ?? 260) - 40;
  // Every section, the untitled opening included, offers its best sentence first; the rest of the text fills in.
  const firsts: RankedSentence[] = [];
  m.sections.forEach((_, i) =>
    firsts.push(
      ...top(
        m.ranked.filter((s) => s.section === i),
        1,
      ),
    ),
  );
  const covering = pickSentences(firsts, budget, { max: 5 });
  const spent = covering.reduce((n, s) => n + s.words, 0);
  const more = covering.length >= 3 ? [] : top(m.ranked, 5 - covering.length, new Set(covering.map((s) => s.order)));
  const picks = [...covering, ...more.filter((s) => spent + s.words <= budget)].sort((x, y) => x.order - y.order);
  if (picks.length === 0) throw new ScriptError("no_content", "The sources have no complete sentences to summarise");
  // A sentence the text repeats (a pull quote, a summary box, a second document saying the same)
  // is read once: a takeaway that is a near-duplicate of an earlier one is dropped.
  const takeaways: string[] = [];
  const seen: Set<string>[] = [];
  for (const p of picks) {
    const stems = new Set(contentStems(alone(p)));
    if (seen.some((q) => jaccard(q, stems) > 0.5)) continue;
    seen.push(stems);
    takeaways.push(alone(p));
  }
  return [
    { speaker: host, text: `${fill(m.p.briefIntro, { title: m.title })} ${m.p.note}` },
    ...takeaways.map((text, i) => ({
      speaker: host,
      text: `${m.p.ordinals[i] ?? m.p.ordinals[m.p.ordinals.length - 1]}: ${text}`,
    })),
    { speaker: host, text: fill(m.p.briefClose, { title: m.title }) },
  ];
}

function soloExpert(m: Material): Turn[] {
  const [host] = m.spec.speakers.map((s) => s.name) as [string];
  const parts = partsOf(m, 6);
  const perPart = Math.max(40, ((m.spec.targetWords ?? 750) - 60) / Math.max(1, parts.length));
  const used = new Set<number>();
  const turns: Turn[] = [];
  let intro = `${fill(m.p.soloIntro, { title: m.title })} ${m.p.note}`;
  if (parts.length > 1)
    intro += ` ${fill(m.p.soloPlan, {
      n: parts.length,
      list: joinList(
        parts.map((p) => p.heading),
        m.p,
      ),
    })}`;
  turns.push({ speaker: host, text: intro });
  parts.forEach((part, i) => {
    const picks = pickSentences(part.sentences.filter(standsAlone), perPart * 0.7, { max: 4 });
    picks.forEach((s) => used.add(s.order));
    const example = part.sentences.find((s) => !used.has(s.order) && standsAlone(s) && isExample(s.text));
    if (example) used.add(example.order);
    const body = speakable(picks).join(" ");
    const lead = parts.length > 1 ? `${fill(m.p.part, { n: i + 1, heading: part.heading })} ` : "";
    turns.push({ speaker: host, text: `${lead}${body}${example ? ` ${m.p.example}${alone(example)}` : ""}`.trim() });
  });
  const [best] = top(m.ranked, 1);
  if (best)
    turns.push({ speaker: host, text: `${m.p.summary}${alone(best)} ${fill(m.p.soloClose, { title: m.title })}` });
  return turns.filter((t) => t.text);
}

/** Every heading and paragraph, in order, one turn each. */
function unabridged(req: ScriptRequest): Turn[] {
  const p = phrasesFor(req.language);
  const reader = req.spec.speakers[0]!.name;
  const turns: Turn[] = [];
  req.documents.forEach((doc, i) => {
    turns.push({
      speaker: reader,
      text: i === 0 ? fill(p.unIntro, { title: doc.title }) : fill(p.unNext, { title: doc.title }),
    });
    const sections = sectionsOf(doc.markdown);
    if (sections[0]?.heading && same(sections[0].heading, doc.title)) sections[0].heading = null;
    for (const s of sections) {
      if (s.heading) turns.push({ speaker: reader, text: /[.?!]$/.test(s.heading) ? s.heading : `${s.heading}.` });
      for (const para of s.paragraphs) turns.push({ speaker: reader, text: para });
    }
  });
  if (turns.length <= req.documents.length) throw new ScriptError("no_content", "The sources have no text to read");
  turns.push({ speaker: reader, text: p.unEnd });
  return turns;
}

const WRITERS: Record<FormatSpec["name"], (m: Material) => Turn[]> = {
  brief,
  solo_expert: soloExpert,
  deep_dive: deepDive,
  critique,
  debate,
  unabridged: () => [],
};

export function createBuiltinScriptWriter(): ScriptWriter {
  const writer: ScriptWriter = {
    id: "builtin",
    async write(req) {
      // A title or heading that is a question already ends its sentence: "…climates?." reads badly.
      const tidy = (turns: Turn[]) =>
        turns.map((t) => ({ ...t, text: t.text.replace(/([?!])\./g, "$1") })).filter((t) => t.text.trim() !== "");
      if (req.spec.name === "unabridged") return tidy(unabridged(req));
      const m = prepare(req);
      if (m.ranked.length === 0)
        throw new ScriptError("no_content", "The sources have no complete sentences to make an episode from");
      return tidy(WRITERS[req.spec.name](m));
    },
    // The script is deterministic and quick to write, so the estimate is the script's own length.
    async plannedWords(req) {
      try {
        return spokenWords(await writer.write(req));
      } catch (e) {
        if (e instanceof ScriptError) return null;
        throw e;
      }
    },
  };
  return writer;
}

/** Reading the source in full needs no model: every writer uses this for `unabridged`. */
export const readUnabridged = unabridged;

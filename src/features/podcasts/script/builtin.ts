// The builtin script writer: no model. It builds an honest programme from the source itself —
// central sentences for summaries, host questions from headings and key terms, the full text for
// `unabridged` — so every format works offline. Its own words are only framing and questions.
import { contentStems } from "../../../ai/text.ts";
import type { FormatSpec } from "../formats.ts";
import { fill, joinList, phrasesFor, type Phrases } from "./phrases.ts";
import { ScriptError, type ScriptRequest, type ScriptWriter, type Turn } from "./port.ts";
import { hasEvidence, isExample, isHedge, keyTerms, pickSentences, rankSentences, sectionsOf, type RankedSentence, type Section } from "./text.ts";

interface Part {
  heading: string;
  sentences: RankedSentence[];
}

interface Material {
  title: string;
  sections: Section[];
  ranked: RankedSentence[];
  p: Phrases;
  spec: FormatSpec;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** "However, x" after our own "The text flags a limit:" would say the contrast twice. */
function dropLead(text: string): string {
  const rest = text.replace(/^(however|but|yet|still|although),?\s+/i, "");
  return rest === text ? text : rest.charAt(0).toUpperCase() + rest.slice(1);
}

function prepare(req: ScriptRequest): Material {
  const sections: Section[] = [];
  const many = req.documents.length > 1;
  for (const doc of req.documents) {
    const own = sectionsOf(doc.markdown);
    // Extracted articles often repeat their title as the first heading.
    if (own[0]?.heading && same(own[0].heading, doc.title)) own[0].heading = null;
    // With several sources, each source is one part of the programme, named by its title.
    if (many) sections.push({ heading: doc.title, paragraphs: own.flatMap((s) => s.paragraphs) });
    else sections.push(...own);
  }
  // A very short text (a note, a readme) has no full sentences to rank: then every sentence counts.
  let ranked = rankSentences(sections);
  if (ranked.length === 0) ranked = rankSentences(sections, { minWords: 1, minStems: 1 });
  if (sections.every((s) => s.paragraphs.length === 0)) throw new ScriptError("no_content", "The sources have no text to make an episode from");
  return { title: req.title, sections, ranked, p: phrasesFor(req.language), spec: req.spec };
}

/** Sections become parts; a text without headings is cut into parts named by their key terms. */
function partsOf(m: Material, maxParts: number): Part[] {
  const headed = m.sections
    .map((s, i) => ({ heading: s.heading, sentences: m.ranked.filter((r) => r.section === i) }))
    .filter((s): s is Part => s.heading !== null && s.sentences.length > 0);
  if (headed.length >= 2) {
    const weight = (p: Part) => Math.max(...p.sentences.map((s) => s.score));
    const keep = new Set([...headed].sort((a, b) => weight(b) - weight(a)).slice(0, maxParts));
    return headed.filter((p) => keep.has(p));
  }
  const all = m.ranked;
  const k = Math.max(1, Math.min(maxParts, 3, Math.floor(all.length / 3)));
  const size = Math.ceil(all.length / k);
  const parts: Part[] = [];
  for (let i = 0; i < k; i++) {
    const sentences = all.slice(i * size, (i + 1) * size);
    if (sentences.length === 0) continue;
    const used = new Set(parts.map((p) => p.heading));
    const heading = keyTerms(sentences, 5).find((t) => !used.has(t)) ?? m.title;
    parts.push({ heading, sentences });
  }
  return parts;
}

const top = (sentences: RankedSentence[], n: number, exclude?: Set<number>) =>
  pickSentences(sentences, Infinity, { max: n, exclude });

interface Seen {
  heading: string;
  stems: Set<string>;
}

/** The earlier part sharing the most (non-topic) words with this one, if it shares at least two. */
function connection(seen: Seen[], stems: Set<string>): { heading: string; shared: Set<string> } | undefined {
  let best: { heading: string; shared: Set<string> } | undefined;
  for (const prev of seen) {
    const shared = new Set([...stems].filter((t) => prev.stems.has(t)));
    if (shared.size >= 2 && shared.size > (best?.shared.size ?? 0)) best = { heading: prev.heading, shared };
  }
  return best;
}

function brief(m: Material): Turn[] {
  const [host] = m.spec.speakers.map((s) => s.name) as [string];
  const picks = pickSentences(m.ranked, (m.spec.targetWords ?? 260) - 30, { max: 5 });
  if (picks.length === 0) throw new ScriptError("no_content", "The sources have no complete sentences to summarise");
  return [
    { speaker: host, text: `${fill(m.p.briefIntro, { title: m.title })} ${m.p.note}` },
    ...picks.map((s, i) => ({ speaker: host, text: `${m.p.ordinals[i] ?? m.p.ordinals[m.p.ordinals.length - 1]}: ${s.text}` })),
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
  if (parts.length > 1) intro += ` ${fill(m.p.soloPlan, { n: parts.length, list: joinList(parts.map((p) => p.heading), m.p) })}`;
  turns.push({ speaker: host, text: intro });
  parts.forEach((part, i) => {
    const picks = pickSentences(part.sentences, perPart * 0.7, { max: 4 });
    picks.forEach((s) => used.add(s.order));
    const example = part.sentences.find((s) => !used.has(s.order) && isExample(s.text));
    if (example) used.add(example.order);
    const body = picks.map((s) => s.text).join(" ");
    const lead = parts.length > 1 ? `${fill(m.p.part, { n: i + 1, heading: part.heading })} ` : "";
    turns.push({ speaker: host, text: `${lead}${body}${example ? ` ${m.p.example}${example.text}` : ""}`.trim() });
  });
  const [best] = top(m.ranked, 1);
  if (best) turns.push({ speaker: host, text: `${m.p.summary}${best.text} ${fill(m.p.soloClose, { title: m.title })}` });
  return turns.filter((t) => t.text);
}

function deepDive(m: Material): Turn[] {
  const [a, b] = m.spec.speakers.map((s) => s.name) as [string, string];
  const parts = partsOf(m, 8);
  const [best] = top(m.ranked, 1);
  const used = new Set<number>(best ? [best.order] : []);
  const perPart = Math.max(40, ((m.spec.targetWords ?? 1200) - 120) / Math.max(1, parts.length));
  const turns: Turn[] = [{ speaker: a, text: `${fill(m.p.ddWelcome, { title: m.title })} ${m.p.note}` }];
  if (best) turns.push({ speaker: b, text: `${m.p.ddInShort}${best.text}` });
  // The subject's own words ("roof" in a text about roofs) connect everything, so they connect nothing.
  const topic = new Set(keyTerms(m.ranked, 3).flatMap((t) => contentStems(t)));
  const seen: Seen[] = [];
  for (const part of parts) {
    const picks = pickSentences(part.sentences, perPart, { max: 4, exclude: used });
    if (picks.length === 0) continue;
    picks.forEach((s) => used.add(s.order));
    const heading = part.heading;
    turns.push({ speaker: a, text: parts.length > 1 ? fill(m.p.ddAsk, { heading }) : fill(m.p.ddAskTerm, { term: keyTerms(m.ranked, 1)[0] ?? m.title }) });
    const half = Math.ceil(picks.length / 2);
    turns.push({ speaker: b, text: picks.slice(0, half).map((s) => s.text).join(" ") });
    if (picks.length > half) {
      turns.push({ speaker: a, text: m.p.ddMore });
      turns.push({ speaker: b, text: picks.slice(half).map((s) => s.text).join(" ") });
    }
    const stems = new Set(picks.flatMap((s) => s.stems).filter((t) => !topic.has(t)));
    const link = connection(seen, stems);
    const term = link && keyTerms(picks, 20).find((t) => link.shared.has(contentStems(t)[0] ?? ""));
    if (link && term) turns.push({ speaker: a, text: fill(m.p.ddConnect, { heading: link.heading, term }) });
    seen.push({ heading, stems });
  }
  if (best) turns.push({ speaker: a, text: m.p.ddTakeaway }, { speaker: b, text: best.text });
  turns.push({ speaker: a, text: fill(m.p.ddClose, { title: m.title }) });
  return turns;
}

function critique(m: Material): Turn[] {
  const [a, b] = m.spec.speakers.map((s) => s.name) as [string, string];
  const claims = top(m.ranked, 2);
  const used = new Set(claims.map((s) => s.order));
  const evidence = top(m.ranked.filter((s) => hasEvidence(s.text)), 3, used);
  evidence.forEach((s) => used.add(s.order));
  const limits = top(m.ranked.filter((s) => isHedge(s.text)), 2, used);
  const turns: Turn[] = [
    { speaker: a, text: `${fill(m.p.crIntro, { title: m.title })} ${m.p.note}` },
    ...claims.map((s, i) => ({ speaker: a, text: `${i === 0 ? m.p.crClaim : m.p.crAlso}${s.text}` })),
    { speaker: b, text: m.p.crStrengthsAsk },
  ];
  if (evidence.length > 0) evidence.forEach((s) => turns.push({ speaker: b, text: `${m.p.crStrength}${s.text}` }));
  else if (claims[0]) turns.push({ speaker: b, text: `${m.p.crCentral}${claims[0].text}` });
  turns.push({ speaker: a, text: m.p.crWeakAsk });
  limits.forEach((s) => turns.push({ speaker: b, text: `${m.p.crHedge}${dropLead(s.text)}` }));
  const unsupported = claims.find((c) => !m.ranked.some((s) => s.section === c.section && hasEvidence(s.text)));
  if (unsupported) turns.push({ speaker: b, text: `${m.p.crNoEvidence}${unsupported.text}` });
  turns.push({ speaker: a, text: m.p.crVerdictAsk });
  const verdict = claims[0] ? `${m.p.crVerdict}${claims[0].text}` : "";
  const open = limits[0] ? ` ${m.p.crOpen}${dropLead(limits[0].text)}` : "";
  turns.push({ speaker: b, text: `${verdict}${open} ${m.p.crClose}`.trim() });
  return turns;
}

function debate(m: Material): Turn[] {
  const [a, b] = m.spec.speakers.map((s) => s.name) as [string, string];
  const claims = top(m.ranked, 3);
  const used = new Set(claims.map((s) => s.order));
  const counters = top(m.ranked.filter((s) => isHedge(s.text)), 3, used);
  const turns: Turn[] = [
    { speaker: a, text: `${fill(m.p.dbIntro, { title: m.title, other: b })} ${m.p.note}` },
    { speaker: b, text: m.p.dbAccept },
  ];
  claims.forEach((claim, i) => {
    turns.push({ speaker: a, text: `${fill(m.p.dbPoint, { n: i + 1 })}${claim.text}` });
    const counter = counters[i];
    turns.push({ speaker: b, text: counter ? `${m.p.dbConcede}${dropLead(counter.text)}` : m.p.dbChallenges[i % m.p.dbChallenges.length]! });
  });
  const [best] = top(m.ranked, 1);
  if (best) turns.push({ speaker: a, text: `${m.p.dbCloseFor}${best.text}` });
  turns.push({ speaker: b, text: `${m.p.dbCloseAgainst} ${m.p.thanks}` });
  return turns;
}

/** Every heading and paragraph, in order, one turn each. */
function unabridged(req: ScriptRequest): Turn[] {
  const p = phrasesFor(req.language);
  const reader = req.spec.speakers[0]!.name;
  const turns: Turn[] = [];
  req.documents.forEach((doc, i) => {
    turns.push({ speaker: reader, text: i === 0 ? fill(p.unIntro, { title: doc.title }) : fill(p.unNext, { title: doc.title }) });
    const sections = sectionsOf(doc.markdown);
    if (sections[0]?.heading && same(sections[0].heading, doc.title)) sections[0].heading = null;
    for (const s of sections) {
      if (s.heading) turns.push({ speaker: reader, text: s.heading.endsWith(".") ? s.heading : `${s.heading}.` });
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
  return {
    id: "builtin",
    async write(req) {
      if (req.spec.name === "unabridged") return unabridged(req);
      const m = prepare(req);
      if (m.ranked.length === 0) throw new ScriptError("no_content", "The sources have no complete sentences to make an episode from");
      return WRITERS[req.spec.name](m).filter((t) => t.text.trim() !== "");
    },
  };
}

/** Reading the source in full needs no model: every writer uses this for `unabridged`. */
export const readUnabridged = unabridged;

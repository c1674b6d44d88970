// What every builtin format starts from: the sources as sections and ranked sentences, cut into parts.
import type { FormatSpec } from "../formats.ts";
import { phrasesFor, type Phrases } from "./phrases.ts";
import { ScriptError, type ScriptRequest } from "./port.ts";
import { isDangling } from "./clean.ts";
import { pickSentences, rankSentences, sectionsOf, type RankedSentence, type Section } from "./text.ts";
import { subjectTerms } from "./terms.ts";

export interface Part {
  heading: string;
  sentences: RankedSentence[];
}

export interface Material {
  title: string;
  sections: Section[];
  ranked: RankedSentence[];
  p: Phrases;
  spec: FormatSpec;
}

export const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function prepare(req: ScriptRequest): Material {
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
  if (sections.every((s) => s.paragraphs.length === 0))
    throw new ScriptError("no_content", "The sources have no text to make an episode from");
  return { title: req.title, sections, ranked, p: phrasesFor(req.language), spec: req.spec };
}

/**
 * Sections become parts; a text without headings is cut into `plainParts` parts (at most three
 * sentences' worth each) named by their subject terms.
 */
export function partsOf(m: Material, maxParts: number, plainParts = 3): Part[] {
  const headed = m.sections
    .map((s, i) => ({ heading: s.heading, sentences: m.ranked.filter((r) => r.section === i) }))
    .filter((s): s is Part => s.heading !== null && s.sentences.length > 0);
  if (headed.length >= 2) {
    const weight = (p: Part) => Math.max(...p.sentences.map((s) => s.score));
    const keep = new Set([...headed].sort((a, b) => weight(b) - weight(a)).slice(0, maxParts));
    return headed.filter((p) => keep.has(p));
  }
  const all = m.ranked;
  const k = Math.max(1, Math.min(maxParts, plainParts, Math.floor(all.length / 3)));
  const size = Math.ceil(all.length / k);
  const parts: Part[] = [];
  for (let i = 0; i < k; i++) {
    const sentences = all.slice(i * size, (i + 1) * size);
    if (sentences.length === 0) continue;
    const used = new Set(parts.map((p) => p.heading));
    const heading = subjectTerms(sentences, all, 5).find((t) => !used.has(t.text))?.text ?? m.title;
    parts.push({ heading, sentences });
  }
  return parts;
}

/** "However, x" quoted on its own (or after our own "Against that:") would contrast with nothing. */
export function dropLead(text: string): string {
  const rest = text.replace(/^(however|but|yet|still|although|nonetheless|nevertheless),?\s+/i, "");
  return rest === text ? text : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * The picked sentences as they can be spoken, one entry per point: a sentence that leans on the one
 * before it ("They point to…") joins that sentence when it was picked too, gets it back when it was
 * not; with nothing to lean on it is dropped.
 */
export function speakable(picks: RankedSentence[]): string[] {
  const out: string[] = [];
  picks.forEach((s, i) => {
    if (!isDangling(s.text)) out.push(dropLead(s.text));
    else if (picks[i - 1]?.order === s.order - 1 && out.length > 0) out[out.length - 1] += ` ${s.text}`;
    else if (s.lead && !isDangling(s.lead)) out.push(`${dropLead(s.lead)} ${s.text}`);
  });
  return out;
}

/** Sentences that can stand alone, or be repaired with the one before them. */
export const standsAlone = (s: RankedSentence) => !isDangling(s.text) || (s.lead !== null && !isDangling(s.lead));

export const top = (sentences: RankedSentence[], n: number, exclude?: Set<number>) =>
  pickSentences(sentences.filter(standsAlone), Infinity, { max: n, exclude });

/** One sentence read on its own, repaired if it dangles. */
export const alone = (s: RankedSentence) => speakable([s])[0] ?? s.text;

/** Stems found in most sections: the subject itself ("heat", "pump"), which links everything and so nothing. */
export function topicStems(m: Material, parts: Part[] = partsOf(m, 8)): Set<string> {
  const spread = new Map<string, number>();
  for (const part of parts)
    for (const stem of new Set(part.sentences.flatMap((s) => s.stems))) spread.set(stem, (spread.get(stem) ?? 0) + 1);
  return new Set(
    [...spread.entries()].filter(([, n]) => parts.length > 2 && n > parts.length * 0.6).map(([stem]) => stem),
  );
}

// The six podcast presets as data: who speaks (names, roles, voices), the structure, the target length.
import { DEFAULT_PODCAST_FORMAT, PODCAST_FORMATS, type PodcastFormat } from "../../podcast-formats.ts";

export { DEFAULT_PODCAST_FORMAT, PODCAST_FORMATS, type PodcastFormat };

export interface Speaker {
  name: string;
  role: string;
  /** A logical voice: the speech engine maps host_a/host_b to its first/second voice. */
  voice: "host_a" | "host_b";
}

export interface FormatSpec {
  name: PodcastFormat;
  label: string;
  /** One sentence, given to the script model as its brief. */
  description: string;
  speakers: Speaker[];
  /** The parts of the programme, in order. */
  structure: string[];
  /** Spoken words aimed for; null for `unabridged`, whose length is the source's. */
  targetWords: number | null;
}

/**
 * Spoken words a minute, pauses between turns included: what turns a script's words into the minutes
 * shown before an episode is made, and a format's minutes into the words its script aims at. Measured
 * on the offline voices (Flite kal16 and rms speak 150–158 words a minute on real articles, and the
 * pauses between turns bring it to about 150); OpenAI-compatible voices speak at much the same pace.
 */
export const WORDS_PER_MINUTE = 150;

const MAYA: Speaker = { name: "Maya", role: "host", voice: "host_a" };
const THEO: Speaker = { name: "Theo", role: "co-host", voice: "host_b" };

export const FORMATS: Record<PodcastFormat, FormatSpec> = {
  brief: {
    name: "brief",
    label: "Brief",
    description: "One speaker gives the key takeaways in under two minutes.",
    speakers: [{ ...MAYA, role: "narrator" }],
    structure: ["one-line introduction", "three to five key takeaways", "one-line close"],
    targetWords: 260,
  },
  solo_expert: {
    name: "solo_expert",
    label: "Solo expert",
    description: "One expert explains the subject with a clear structure and concrete examples.",
    speakers: [{ ...MAYA, role: "expert" }],
    structure: ["what this is about and the plan", "each main part explained, with an example", "summary"],
    targetWords: 750,
  },
  deep_dive: {
    name: "deep_dive",
    label: "Deep dive",
    description: "Two hosts unpack the ideas in conversation and connect them to each other.",
    speakers: [MAYA, THEO],
    structure: [
      "welcome and the topic",
      "question-and-answer on each main idea",
      "how the ideas connect",
      "the big takeaway",
    ],
    targetWords: 1200,
  },
  critique: {
    name: "critique",
    label: "Critique",
    description: "Two hosts weigh the strengths and weaknesses of the material constructively.",
    speakers: [
      { ...MAYA, role: "presenter" },
      { ...THEO, role: "critic" },
    ],
    structure: ["what the material claims", "strengths", "weaknesses and open questions", "verdict"],
    targetWords: 900,
  },
  debate: {
    name: "debate",
    label: "Debate",
    description: "Two hosts argue opposing positions on the material, then close their cases.",
    speakers: [
      { ...MAYA, role: "argues for" },
      { ...THEO, role: "argues against" },
    ],
    structure: ["the question at stake", "rounds of claim and counter-claim", "closing statements"],
    targetWords: 900,
  },
  unabridged: {
    name: "unabridged",
    label: "Unabridged",
    description: "The whole source read through, segment by segment, nothing summarised away.",
    speakers: [{ ...MAYA, role: "reader" }],
    structure: ["title", "every section and paragraph in order"],
    targetWords: null,
  },
};

export function formatSpec(name: PodcastFormat): FormatSpec {
  return FORMATS[name];
}

/** "About N minutes" for a script of this many words: the nearest whole minute, at least one. */
export function minutesFor(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/** Credits for an episode planned to last this many minutes: per minute × minutes, rounded up. */
export function creditsFor(minutes: number, perMinute: number): number {
  return Math.ceil(perMinute * minutes);
}

/**
 * The words a format's script aims at when the writer cannot tell in advance (a chat model): the
 * preset's target, or the source's length when read in full.
 */
export function targetWordsFor(spec: FormatSpec, sourceWords: number): number {
  return spec.targetWords ?? sourceWords;
}

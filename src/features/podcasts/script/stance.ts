// Which side a sentence speaks for: the article's case (or its supporters), the objections it reports, or neither.

export type Stance = "for" | "against" | "neutral";

const AGAINST =
  /\b(critics?|critical of|opponents?|oppose[sd]?|sceptic(s|al)?|skeptic(s|al)?|objections?|object(s|ed)?|warn(s|ed|ing)?|concerns?|disagree[sd]?|doubts?|doubtful|disputes?d?|questions? whether|counter(s|ed)?|argue against|downsides?|drawbacks?|too neat|overstate[sd]?|exaggerate[sd]?|cannot cope|not convinced|is not (clear|proven))\b/i;
const FOR =
  /\b(supporters?|proponents?|advocates?|champions?|in favou?r of|backers?|argue that|point(s|ed)? (to|out)|benefits?|proof|shows? that|agree[sd]?)\b/i;
const CONTRAST = /^(however|but|yet|still|nonetheless|nevertheless|even so|on the other hand)\b/i;
/** "Not a benefit", "no proof": negation just before a supporting cue turns it round. */
const NEGATED_FOR = /\b(not|no|never|little|hardly|lack of)\s+(\w+\s+)?(benefits?|proof|evidence)\b/i;
const HEADING_AGAINST =
  /\b(against|critics?|objections?|concerns?|criticism|downsides?|drawbacks?|risks?|problems?|doubts?|sceptic\w*|skeptic\w*|opponents?)\b/i;
const HEADING_FOR =
  /\b(the case for|arguments? for|in favou?r|supporters?|benefits?|advantages?|proponents?|advocates?|upsides?)\b/i;

/** The stance a sentence's own words take, without context. */
export function cueStance(sentence: string): Stance {
  if (AGAINST.test(sentence) || NEGATED_FOR.test(sentence)) return "against";
  // "Supporters argue…" cues the case; a bare "argue that" in a critics' sentence was caught above.
  if (FOR.test(sentence)) return "for";
  return "neutral";
}

export function headingStance(heading: string | null): Stance {
  if (!heading) return "neutral";
  if (HEADING_AGAINST.test(heading)) return "against";
  if (HEADING_FOR.test(heading)) return "for";
  return "neutral";
}

/**
 * Stances for the sentences of one paragraph, in order: a sentence's own cue wins; "However…" turns
 * the running stance round; otherwise a sentence continues its paragraph's side ("They also say…"),
 * and a paragraph without cues takes its section heading's side.
 */
export function paragraphStances(sentences: string[], heading: string | null): Stance[] {
  let running: Stance = headingStance(heading);
  return sentences.map((s) => {
    const own = cueStance(s);
    if (own !== "neutral") running = own;
    else if (CONTRAST.test(s.trim())) running = running === "against" ? "for" : "against";
    return own !== "neutral" ? own : running;
  });
}

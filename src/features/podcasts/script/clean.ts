// Page furniture a listener must never hear (bylines, datelines, captions, credits, tags, share bars), and dangling openings.

const MONTH =
  "(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)";
const DATE = new RegExp(
  `\\b(\\d{4}-\\d{2}-\\d{2}|${MONTH}\\.?\\s+\\d{1,2}(st|nd|rd|th)?,?(\\s+\\d{4})?|\\d{1,2}\\s+${MONTH}(\\s+\\d{4})?)\\b`,
  "i",
);
/** Lines that begin like furniture whatever follows. */
const LABEL =
  /^(filed under|tagged( with)?|reporting by|editing by|additional reporting|written by|read more|see also|more from|share this( article| story)?|share on|share via|subscribe to|sign up for|follow us|listen to this( article| story)?)\b/i;
/** Lines that are a label and a colon: "Tags: …", "Photo: …", "Related: …". */
const LABEL_COLON =
  /^(tags?|topics?|categories|category|related( articles| stories)?|share|caption|credits?|image( credit| source)?|photo(graph)?( credit)?|illustration|source|comments?)\s*:/i;
const ALONE = /^(advertisement|sponsored( content)?|share( this)?|related( articles| stories)?|comments?|print)$/i;
const SOCIAL =
  /\b(twitter|facebook|linkedin|email|e-mail|whatsapp|reddit|pinterest|telegram|print|copy link|share)\b/gi;
/** "LONDON, June 1 (Reuters) - " or "OSLO — " before the first sentence of a news story. */
const DATELINE_PREFIX =
  /^[A-Z][A-Z .'-]{2,}(,\s*[A-Z][a-z]+\.?\s+\d{1,2})?\s*(\((Reuters|AP|AFP|ANSA|dpa)\)\s*)?[-—–]\s+/;
const CREDIT_TAIL = /\b(photo|image|credit|illustration|photograph)( credit)?:\s*[^.]*$/i;

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** True for a paragraph that is page furniture rather than the article's text. */
export function isClutter(paragraph: string): boolean {
  const text = paragraph.trim().replace(/[.]$/, "");
  const n = words(text);
  if (n === 0) return true;
  if (LABEL.test(text) || LABEL_COLON.test(text) || ALONE.test(text)) return true;
  if (/^[Bb]y\s+\p{Lu}/u.test(text) && n <= 14) return true; // a byline
  if (/\b\d+\s+min(ute)?s?\s+read\b/i.test(text)) return true;
  if (/^(published|updated|posted|last (updated|modified))\b/i.test(text) && n <= 14) return true;
  if (DATE.test(text) && n <= 6) return true; // a date on its own line
  if (/^[A-Z][A-Z .'-]{2,}\s*[-—–]\s*/.test(text) && DATE.test(text) && n <= 8) return true; // "OSLO — 14 January 2025"
  if (CREDIT_TAIL.test(text) && n <= 40) return true; // a caption ending in its credit
  const social = text.match(SOCIAL)?.length ?? 0;
  if (social >= 2 && social * 2 >= n - 2) return true; // a share bar
  return false;
}

/** The paragraph without a news dateline in front of its first sentence. */
export function stripDateline(paragraph: string): string {
  const stripped = paragraph.replace(DATELINE_PREFIX, "");
  return stripped === paragraph ? paragraph : stripped.charAt(0).toUpperCase() + stripped.slice(1);
}

/**
 * A sentence whose subject points back at something said before it ("They point to…", "This means…",
 * "Treat it like one…"): read alone, the listener cannot know what it is about.
 */
const DANGLING =
  /^(this|that|these|those|it|its|they|them|their|such|he|she|his|her|both|the latter|the former|the same|also|therefore|thus|then|instead|as a result|in turn|likewise|similarly)\b/i;
/** An imperative whose object is a pronoun: "Treat it like one…", "Feed them…". */
const DANGLING_OBJECT = /^\p{Lu}\p{Ll}+\s+(it|them|this one|that one)\b/u;

export const isDangling = (sentence: string) => DANGLING.test(sentence.trim()) || DANGLING_OBJECT.test(sentence.trim());

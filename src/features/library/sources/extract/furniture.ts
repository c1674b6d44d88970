// Lines about a story rather than of it: bylines, date lines, photo credits and captions, "Filed under"
// and tag lines. Removed from Readability's choice; a byline found this way can fill the byline field.
import { measure, nameWords } from "./noise.ts";

// Class or id words naming such a line (each name read word by word, as for noise).
const FURNITURE_WORD =
  /^(?:byline|bylines|dateline|timestamp|caption|captions|credit|credits|tags|tagline|taglist|filed|author|authors|writer|contributor|pubdate|published|updated)$/;
// "author-bio" and "caption-text" are lines; "article-author-page" wrappers rarely are: the share rule guards them.
const BLOCKS = new Set([
  "P",
  "DIV",
  "SPAN",
  "SMALL",
  "TIME",
  "LI",
  "UL",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "ADDRESS",
  "CITE",
  "SECTION",
  "HEADER",
  "FIGCAPTION",
  "DL",
  "DD",
  "DT",
]);
// A line this long is prose, whatever it starts with; a caption may run longer, up to its credit.
const MAX_LINE = 160;
const MAX_CAPTION = 320;
// Share of a "Related: …" line that must be link text for it to be a pointer, not a sentence.
const ELSEWHERE_LINKS = 0.3;
// A block with this share of the chosen text is the story, whatever its name says.
const STORY_SHARE = 0.5;

// Month and weekday names (English, French, German, Spanish, Portuguese), matched as whole words in any script.
const MONTH =
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec|" +
  "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|januar|februar|märz|juni|juli|oktober|dezember|" +
  "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro";
const WEEKDAY =
  "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|" +
  "montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|jueves|viernes|sábado|domingo|segunda|terça|quarta|quinta|sexta|feira";
const word = (alternatives: string) => `(?<![\\p{L}\\p{N}])(?:${alternatives})\\.?(?![\\p{L}])`;
const DATE_WORDS = new RegExp(
  `${word(MONTH)}|\\d{1,4}[./-]\\d{1,2}[./-]\\d{1,4}|\\b\\d{1,2}:\\d{2}\\b|\\b(?:19|20)\\d{2}\\b|\\b\\d+\\s+(?:minutes?|hours?|days?)\\s+ago\\b`,
  "iu",
);
// What else a date line may say: "Tuesday, 19 November 2019 at 6:55 AM EST", "22 de janeiro de 2018 às 0:13".
const DATE_FILLER = new RegExp(
  `${word(MONTH)}|${word(WEEKDAY)}|${word("am|pm|a\\.m|p\\.m|utc|gmt|[a-z]st|[a-z]dt|cet|cest|at|on|um|le|de|del|the|às|à|a las|h")}`,
  "giu",
);
const LEADS =
  "updated|posted|published|last updated|first published|modified|originally published|publi[ée]e?|mis à jour|aktualisiert|veröffentlicht|actualizado|publicado";
const DATE_LEAD = new RegExp(`^(?:${LEADS})(?![\\p{L}])`, "iu");
const DATE_LEADS = new RegExp(
  `${word(LEADS)}|${word("ago|today|yesterday|by|on|at|minutes?|mins?|hours?|hrs?|days?")}`,
  "giu",
);
const RELATIVE_DATE = /\b(?:ago|today|yesterday)\b/i;
const CREDIT =
  /^[([]?\s*(?:(?:photo|image|picture|photograph|foto|video|illustration)s?\s*(?:credits?|by|courtesy(?: of)?|source)?|credits?|source|courtesy(?: of)?)\s*[:：/|]/iu;
// A caption ending in its credit: "… outside a Home Depot in Hialeah, Fla. (AP Photo/Alan Diaz, File)".
const CAPTION_CREDIT =
  /\((?:[^()]*\b(?:photo|photograph|image|picture|foto|credit)s?\b[^()]*|[^()]*(?:getty images|reuters|afp|ap photo|shutterstock|istock|epa))\)\s*$/iu;
const CREDIT_TRAIL =
  /(?:\/|\||\b)(?:getty images|afp|reuters|associated press|ap photo|shutterstock|istock|epa|alamy)\)?\s*$/iu;
const FILED =
  /^(?:filed under|tags?|tagged(?: with)?|topics?|categories|category|posted in|more on|related topics|themen|mots-clés|etiquetas)\s*[:：]/iu;
// A pointer to other stories, with a link in it: "Related: …", "Read more: …", "You may also like …".
// Single words ("More", "Watch") only count with a separator after them: "More than 100 …" is prose.
const ELSEWHERE_PHRASE =
  /^(?:related(?: (?:stories|articles|posts|coverage|content|links|reading))?|read more|read also|also read|see also|more from [\p{L} .]{1,30}|also on [\p{L} .]{1,30}|you (?:may|might) also like|leia (?:também|mais)|lire aussi|à lire aussi|mehr zum thema|lea también)(?![\p{L}])/iu;
const ELSEWHERE_WORD = /^(?:more|watch|listen|recommended|trending|also)\s*[:：|–—-]/iu;
const BY = /^(?:by|written by|words by|reporting by|von|par|por|di)\s+(.+)$/iu;
// Words a name may hold besides capitalised ones.
const NAME_PARTICLE =
  /^(?:de|da|di|del|der|den|van|von|le|la|du|bin|al|y|e|and|und|et|the|&|\||—|–|-|,|in|at|for|of)$/iu;

/** "By Jane Doe and John Roe, Reuters" → the names, when every word reads as part of a name or a credit. */
export function bylineOf(line: string): string | null {
  const rest = BY.exec(line)?.[1]?.trim();
  if (!rest || rest.length > 100 || /[.!?]\s+\p{Lu}|[.!?]$/u.test(rest.replace(/\b\p{Lu}\.\s*/gu, ""))) return null;
  const tokens = rest
    .split(/\s+|(?=,)/u)
    .map((t) => t.replace(/^[,(]+|[,)]+$/g, ""))
    .filter(Boolean);
  if (!tokens.length || tokens.length > 14) return null;
  const named = tokens.every((t) => NAME_PARTICLE.test(t) || /^[\p{Lu}\d@]/u.test(t));
  return named && /^\p{Lu}/u.test(tokens[0]!) ? rest.replace(/\s*[|,–—-]\s*$/u, "") : null;
}

/** Words left once the date words, date fillers, digits and separators are taken out of a line. */
function nonDateWords(line: string): number {
  const rest = line
    .replace(DATE_LEADS, " ")
    .replace(DATE_FILLER, " ")
    .replace(/[\d\s.,:;/|()–—-]+/gu, " ")
    .trim();
  return rest ? rest.split(" ").length : 0;
}

/** A line that only dates the story: "Updated Nov 19, 6:55 AM", "18 NOV 2019", "Published 1 day ago by Admin". */
function isDateLine(line: string): boolean {
  // "Updated figures for 2019 show …" is a sentence: besides its date, a date line says little.
  if (DATE_LEAD.test(line)) return (DATE_WORDS.test(line) || RELATIVE_DATE.test(line)) && nonDateWords(line) <= 3;
  // A bare date, not a bare time ("4:14 p.m." heads an entry of a live page): digits and a date in
  // them, and a word or two besides.
  if (!/\d/.test(line) || !DATE_WORDS.test(line.replace(/\b\d{1,2}:\d{2}\b/g, " "))) return false;
  return nonDateWords(line) <= 2 && line.length <= 60;
}

type Kind = "byline" | "date" | "credit" | "filed" | "elsewhere";

function lineKind(line: string): Kind | null {
  if (line.length > MAX_LINE) return line.length <= MAX_CAPTION && CAPTION_CREDIT.test(line) ? "credit" : null;
  if (bylineOf(line)) return "byline";
  if (FILED.test(line)) return "filed";
  if (
    CREDIT.test(line) ||
    CAPTION_CREDIT.test(line) ||
    (line.length <= 80 && CREDIT_TRAIL.test(line) && !/[.!?]\s/.test(line))
  )
    return "credit";
  if (isDateLine(line)) return "date";
  return null;
}

function pointsElsewhere(line: string, linkShare: number): boolean {
  return linkShare >= ELSEWHERE_LINKS && (ELSEWHERE_PHRASE.test(line) || ELSEWHERE_WORD.test(line));
}

function namedFurniture(el: Element): boolean {
  if (el.tagName === "FIGCAPTION") return true;
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`.split(/\s+/);
  return names.some((name) => nameWords(name).some((w) => FURNITURE_WORD.test(w)));
}

function lineText(el: Element): string {
  return (el.textContent ?? "").replace(/\s+/g, " ").trim();
}

/**
 * Removes bylines, date lines, credits, captions and tag lines inside `root`; returns the first byline
 * seen, so a page whose metadata names no author still gets one.
 */
export function dropStoryFurniture(root: Element): { byline: string | null } {
  const sizes = measure(root);
  const total = sizes.get(root)?.text ?? 0;
  let byline: string | null = null;
  const doomed: Element[] = [];
  const stack: Element[] = [root];
  for (let parent = stack.pop(); parent; parent = stack.pop()) {
    for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
      if (!BLOCKS.has(el.tagName)) {
        stack.push(el);
        continue;
      }
      const size = sizes.get(el)?.text ?? 0;
      // Only short blocks are read as lines, so a deep page costs one pass, not one per level.
      const line = size <= MAX_CAPTION ? lineText(el) : "";
      const links = sizes.get(el)?.links ?? 0;
      const kind = line
        ? (lineKind(line) ?? (pointsElsewhere(line, links / Math.max(size, 1)) ? "elsewhere" : null))
        : null;
      if (kind || (namedFurniture(el) && size < total * STORY_SHARE)) {
        if (kind === "byline") byline ??= bylineOf(line);
        doomed.push(el);
      } else stack.push(el);
    }
  }
  for (const el of doomed) el.remove();
  return { byline };
}

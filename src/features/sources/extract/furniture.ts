// Lines about a story rather than of it: bylines, date lines, photo credits and captions, "Filed under"
// and tag lines. Removed from Readability's choice; a byline found this way can fill the byline field.
import { measure, nameWords } from "./noise.ts";

// Class or id words naming such a line (each name read word by word, as for noise).
const FURNITURE_WORD =
  /^(?:byline|bylines|dateline|timestamp|caption|captions|credit|credits|tags|tagline|taglist|filed|author|authors|writer|contributor|pubdate|published|updated)$/;
// "author-bio" and "caption-text" are lines; "article-author-page" wrappers rarely are: the share rule guards them.
const BLOCKS = new Set(["P", "DIV", "SPAN", "SMALL", "TIME", "LI", "UL", "H2", "H3", "H4", "H5", "H6", "ADDRESS", "CITE", "SECTION", "HEADER", "FIGCAPTION", "DL", "DD", "DT"]);
// A line this long is prose, whatever it starts with.
const MAX_LINE = 160;
// A block with this share of the chosen text is the story, whatever its name says.
const STORY_SHARE = 0.5;

const MONTH =
  "(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|januar|februar|märz|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre";
const DATE_WORDS = new RegExp(`\\b(?:${MONTH})\\b|\\d{1,4}[./-]\\d{1,2}[./-]\\d{1,4}|\\b\\d{1,2}:\\d{2}\\b|\\b(?:19|20)\\d{2}\\b|\\b\\d+\\s+(?:minutes?|hours?|days?)\\s+ago\\b`, "iu");
const DATE_LEAD = /^(?:updated|posted|published|last updated|first published|modified|originally published|publi[ée]e?|mis à jour|aktualisiert|veröffentlicht|actualizado|publicado)\b[\s:,]*(?:on|at|le|am)?/iu;
const CREDIT =
  /^[([]?\s*(?:(?:photo|image|picture|photograph|foto|video|illustration|graphic)s?\s*(?:credits?|by|courtesy(?: of)?|source)?|credits?|source|courtesy(?: of)?)\s*[:：/|]/iu;
const CREDIT_TRAIL = /(?:\/|\||\b)(?:getty images|afp|reuters|associated press|ap photo|shutterstock|istock|epa|alamy)\)?\s*$/iu;
const FILED = /^(?:filed under|tags?|tagged(?: with)?|topics?|categories|category|posted in|more on|related topics|themen|mots-clés|etiquetas)\s*[:：]/iu;
const BY = /^(?:by|written by|words by|reporting by|von|par|por|di)\s+(.+)$/iu;
// Words a name may hold besides capitalised ones.
const NAME_PARTICLE = /^(?:de|da|di|del|der|den|van|von|le|la|du|bin|al|y|e|and|und|et|the|&|\||—|–|-|,|in|at|for|of)$/iu;

/** "By Jane Doe and John Roe, Reuters" → the names, when every word reads as part of a name or a credit. */
export function bylineOf(line: string): string | null {
  const rest = BY.exec(line)?.[1]?.trim();
  if (!rest || rest.length > 100 || /[.!?]\s+\p{Lu}|[.!?]$/u.test(rest.replace(/\b\p{Lu}\.\s*/gu, ""))) return null;
  const tokens = rest.split(/\s+|(?=,)/u).map((t) => t.replace(/^[,(]+|[,)]+$/g, "")).filter(Boolean);
  if (!tokens.length || tokens.length > 14) return null;
  const named = tokens.every((t) => NAME_PARTICLE.test(t) || /^[\p{Lu}\d@]/u.test(t));
  return named && /^\p{Lu}/u.test(tokens[0]!) ? rest.replace(/\s*[|,–—-]\s*$/u, "") : null;
}

/** A line that only dates the story: "Updated Nov 19, 6:55 AM", "18 NOV 2019", "Published 1 day ago". */
function isDateLine(line: string): boolean {
  if (DATE_LEAD.test(line)) return DATE_WORDS.test(line) || /\b(?:ago|today|yesterday)\b/i.test(line);
  // A bare date, not a bare time ("4:14 p.m." heads an entry of a live page): digits and a date in
  // them, and what is left without date words and separators is a word or two at most.
  if (!/\d/.test(line) || !DATE_WORDS.test(line.replace(/\b\d{1,2}:\d{2}\b/g, " "))) return false;
  const rest = line
    .replace(new RegExp(`\\b(?:${MONTH})\\b`, "giu"), " ")
    .replace(/\b(?:am|pm|utc|gmt|[a-z]st|[a-z]dt|cet|cest|at|on|um|le|de|the)\b/giu, " ")
    .replace(/[\d\s.,:/|–—-]+/gu, " ")
    .trim();
  return rest.split(/\s+/).filter(Boolean).length <= 2 && line.length <= 60;
}

type Kind = "byline" | "date" | "credit" | "filed";

function lineKind(line: string): Kind | null {
  if (line.length > MAX_LINE) return null;
  if (bylineOf(line)) return "byline";
  if (FILED.test(line)) return "filed";
  if (CREDIT.test(line) || (line.length <= 80 && CREDIT_TRAIL.test(line) && !/[.!?]\s/.test(line))) return "credit";
  if (isDateLine(line)) return "date";
  return null;
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
      const line = size <= MAX_LINE ? lineText(el) : "";
      const kind = line ? lineKind(line) : null;
      if (kind || (namedFurniture(el) && size < total * STORY_SHARE)) {
        if (kind === "byline") byline ??= bylineOf(line);
        doomed.push(el);
      } else stack.push(el);
    }
  }
  for (const el of doomed) el.remove();
  return { byline };
}

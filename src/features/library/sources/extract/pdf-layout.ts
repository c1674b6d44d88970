// PDF text items (position, font size) → Markdown: lines reflowed into paragraphs, hyphenated words
// joined, headings from font size or short stand-alone lines, lists only where lines really are one.
import type { StructuredTextItem } from "unpdf";

interface Line {
  text: string;
  size: number;
  x: number;
  y: number;
  width: number;
  page: number;
}

type Kind = "heading" | "bullet" | "numbered" | "text";

interface Block {
  kind: Kind;
  lines: Line[];
  level?: number;
}

interface Layout {
  bodySize: number;
  spacing: number;
  fullWidth: number;
}

const BULLET = /^[•◦▪▫●○■□‣⁃∙·*–-]\s+/u;
// A dash may also start a wrapped line of prose; it is a bullet only after a finished line or another bullet.
const DASH_BULLET = /^[*–-]\s+/u;
const NUMBERED = /^\d{1,3}[.)]\s+\S/u;
const SECTION_NUMBER = /^\d{1,2}(?:\.\d{1,2})*\.?\s+\p{Lu}/u;
const ENDS_SENTENCE = /[.!?:;"”’)\]]$/u;
// A font this much larger than the body's is a heading's.
const HEADING_SCALE = 1.15;
// A vertical gap this many times the usual line spacing is a blank line.
const GAP_SCALE = 1.4;
// A line shorter than this share of a full line ends its paragraph (when it ends a sentence).
const SHORT_LINE = 0.8;
const HEADING_MAX_CHARS = 90;
const FEW_LINES = 8;
const INDENT_EMS = 0.8;
// Lines at each end of a page looked at for running headers and footers, and the share of pages
// one must appear on.
const EDGE_LINES = 2;
const RUNNING_SHARE = 0.4;
const PAGE_NUMBER =
  /^(?:(?:page|seite|p\.)\s*)?(?:\d{1,4}|[ivxlc]{1,7})(?:\s*(?:of|\/|von|sur)\s*\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$/iu;
const MIN_FULL_EMS = 35;
const HEADING_MAX_WORDS = 12;

/** Items of one page → lines, in the order the page draws them. */
function pageLines(items: StructuredTextItem[], page: number): Line[] {
  const lines: Line[] = [];
  let parts: StructuredTextItem[] = [];
  const flush = () => {
    const text = joinItems(parts).replace(/\s+/g, " ").trim();
    if (text) {
      const chars = (item: StructuredTextItem) => item.str.trim().length;
      const main = parts.reduce((best, item) => (chars(item) > chars(best) ? item : best));
      const first = parts.find((item) => item.str.trim()) ?? parts[0]!;
      const last = parts.findLast((item) => item.str.trim()) ?? parts[parts.length - 1]!;
      lines.push({
        text,
        size: round(main.fontSize || main.height),
        x: first.x,
        y: main.y,
        width: last.x + last.width - first.x,
        page,
      });
    }
    parts = [];
  };
  for (const item of items) {
    const previous = parts[parts.length - 1];
    const size = item.fontSize || item.height || 1;
    if (previous && item.str.trim() && Math.abs(previous.y - item.y) > size * 0.5 && previous.str.trim()) flush();
    parts.push(item);
    if (item.hasEOL) flush();
  }
  flush();
  return lines;
}

/** Items on one line: a space where the gap between two items is wider than a letter's spacing. */
function joinItems(items: StructuredTextItem[]): string {
  let text = "";
  let end: number | null = null;
  for (const item of items) {
    const gap = end === null ? 0 : item.x - end;
    if (text && gap > (item.fontSize || 10) * 0.2 && !/\s$/.test(text) && !/^\s/.test(item.str)) text += " ";
    text += item.str;
    if (item.str) end = item.x + item.width;
  }
  return text;
}

function round(size: number): number {
  return Math.round(size * 2) / 2;
}

function mostCommon(values: number[], weights: number[]): number {
  const totals = new Map<number, number>();
  values.forEach((v, i) => totals.set(v, (totals.get(v) ?? 0) + (weights[i] ?? 1)));
  return [...totals].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** The body's font size, its usual line spacing and the width of a full line of it. */
function measureLayout(lines: Line[]): Layout {
  const bodySize = mostCommon(
    lines.map((l) => l.size),
    lines.map((l) => l.text.length),
  );
  const body = lines.filter((l) => l.size === bodySize);
  const gaps: number[] = [];
  for (let i = 1; i < body.length; i++) {
    const gap = body[i - 1]!.y - body[i]!.y;
    if (body[i]!.page === body[i - 1]!.page && gap > 0 && gap < bodySize * 3) gaps.push(gap);
  }
  // A handful of lines may all be short; a full line then is at least ~70 characters of the body font.
  const widest = percentile(
    body.map((l) => l.width),
    0.9,
  );
  const fullWidth = body.length >= FEW_LINES ? widest : Math.max(widest, bodySize * MIN_FULL_EMS);
  return { bodySize, spacing: gaps.length ? percentile(gaps, 0.25) : bodySize * 1.2, fullWidth };
}

/** Mixed fonts on a page (code, italics) differ by a little; a heading's differs by more. */
function sameSize(a: Line, b: Line, layout: Layout): boolean {
  return Math.abs(a.size - b.size) < layout.bodySize * (HEADING_SCALE - 1);
}

function gapBefore(lines: Line[], i: number, layout: Layout): number {
  const previous = lines[i - 1];
  const line = lines[i]!;
  if (!previous || previous.page !== line.page) return Number.POSITIVE_INFINITY;
  const gap = previous.y - line.y;
  // Moving up the page (a new column) is as good as a blank line.
  return gap <= 0 ? Number.POSITIVE_INFINITY : gap / layout.spacing;
}

function isLargeFont(line: Line, layout: Layout): boolean {
  return line.size >= layout.bodySize * HEADING_SCALE && line.text.length <= HEADING_MAX_CHARS * 2;
}

/** Short, no closing punctuation, and worded like a title: "Methods", "1. Introduction", "Results and Discussion". */
function readsLikeHeading(line: Line, layout: Layout): boolean {
  const words = line.text.split(" ");
  if (line.text.length > HEADING_MAX_CHARS || words.length > HEADING_MAX_WORDS || /[.,;:!?-]$/.test(line.text))
    return false;
  if (!/^[\p{Lu}\d]/u.test(line.text) || line.width > layout.fullWidth * SHORT_LINE) return false;
  if (SECTION_NUMBER.test(line.text) || words.length <= 6) return true;
  const long = words.filter((w) => w.length >= 4);
  return long.filter((w) => /^\p{Lu}/u.test(w)).length >= long.length * 0.7;
}

function startsNumbered(line: Line | undefined): boolean {
  return line !== undefined && NUMBERED.test(line.text);
}

/** A body-sized line standing alone between a finished sentence (or a gap) and a new one. */
function isStandaloneHeading(lines: Line[], i: number, layout: Layout): boolean {
  const line = lines[i]!;
  if (!readsLikeHeading(line, layout)) return false;
  const previous = lines[i - 1];
  const next = lines[i + 1];
  // "1. Preheat the oven" beside "2. Mix the flour" is a list, whatever its words look like.
  if (startsNumbered(line) && !SECTION_NUMBER.test(line.text)) return false;
  if (
    startsNumbered(line) &&
    ((previous && startsNumbered(previous) && gapBefore(lines, i, layout) < GAP_SCALE) ||
      (next && startsNumbered(next) && gapBefore(lines, i + 1, layout) < GAP_SCALE))
  )
    return false;
  const apartBefore =
    !previous ||
    gapBefore(lines, i, layout) >= GAP_SCALE ||
    ENDS_SENTENCE.test(previous.text) ||
    !sameSize(previous, line, layout);
  const apartAfter =
    !next ||
    gapBefore(lines, i + 1, layout) >= GAP_SCALE ||
    /^[\p{Lu}\d"“‘(]/u.test(next.text) ||
    !sameSize(next, line, layout);
  return apartBefore && apartAfter;
}

function lineKind(lines: Line[], i: number, layout: Layout): Kind {
  const line = lines[i]!;
  if (isLargeFont(line, layout) || isStandaloneHeading(lines, i, layout)) return "heading";
  const previous = lines[i - 1];
  if (
    BULLET.test(line.text) &&
    (!DASH_BULLET.test(line.text) || !previous || BULLET.test(previous.text) || ENDS_SENTENCE.test(previous.text))
  )
    return "bullet";
  if (startsNumbered(line) && (startsNumbered(lines[i - 1]) || startsNumbered(lines[i + 1]))) return "numbered";
  return "text";
}

/** Whether line i continues the block that line i-1 belongs to. */
function continues(lines: Line[], i: number, block: Block, kind: Kind, layout: Layout): boolean {
  const previous = lines[i - 1]!;
  const line = lines[i]!;
  if (kind === "bullet" || kind === "numbered") return false;
  if (block.kind === "heading")
    return (
      kind === "heading" &&
      line.size === previous.size &&
      gapBefore(lines, i, layout) < GAP_SCALE &&
      isLargeFont(line, layout)
    );
  if (kind === "heading" || !sameSize(line, previous, layout)) return false;
  if (previous.page !== line.page) return !ENDS_SENTENCE.test(previous.text) || /^\p{Ll}/u.test(line.text);
  if (gapBefore(lines, i, layout) >= GAP_SCALE) return false;
  if (!ENDS_SENTENCE.test(previous.text)) return true;
  // After a finished sentence, a short line or a first-line indent means a new paragraph.
  const indented = block.kind === "text" && line.x > previous.x + layout.bodySize * INDENT_EMS;
  return previous.width >= layout.fullWidth * SHORT_LINE && !indented;
}

function blocks(lines: Line[], layout: Layout): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const kind = lineKind(lines, i, layout);
    const current = out[out.length - 1];
    if (current && continues(lines, i, current, kind, layout)) current.lines.push(lines[i]!);
    else out.push({ kind, lines: [lines[i]!] });
  }
  return out;
}

/**
 * Heading levels: font sizes above the body's rank 1, 2, 3 from the largest (a size used once, for
 * the title, is level 1; otherwise ranks start at 2); body-sized headings are level 2, or 1 for the
 * document's first line when nothing is set larger.
 */
function assignLevels(all: Block[], layout: Layout): void {
  const headings = all.filter((b) => b.kind === "heading");
  const large = headings.filter((b) => b.lines[0]!.size >= layout.bodySize * HEADING_SCALE);
  const sizes = [...new Set(large.map((b) => b.lines[0]!.size))].sort((a, b) => b - a);
  const titleOnce = large.filter((b) => b.lines[0]!.size === sizes[0]).length === 1;
  for (const block of headings) {
    const rank = sizes.indexOf(block.lines[0]!.size);
    if (rank >= 0) block.level = Math.min(3, rank + (titleOnce ? 1 : 2));
    else block.level = block === all[0] && !large.length ? 1 : 2;
  }
}

/** Lines of a paragraph as one text: "exam-" + "ple" → "example", soft hyphens dropped. */
export function joinLines(texts: string[]): string {
  let out = "";
  for (const text of texts) {
    if (!out) out = text;
    else if (/\u00AD$/.test(out)) out = out.slice(0, -1) + text;
    else if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(text)) out = out.slice(0, -1) + text;
    else out += ` ${text}`;
  }
  return out.replace(/\u00AD/g, "");
}

/** Text that must not turn into Markdown structure it never had. */
function escapeStart(text: string): string {
  return text.replace(/^(\d{1,9})([.)])(\s)/, "$1\\$2$3").replace(/^([#>]|[-+*](?=\s))/, "\\$1");
}

function render(block: Block): string {
  const text = joinLines(block.lines.map((l) => l.text));
  switch (block.kind) {
    case "heading":
      return `${"#".repeat(block.level ?? 2)} ${text.replace(/^#+\s*/, "")}`;
    case "bullet":
      return `- ${text.replace(BULLET, "")}`;
    case "numbered":
      return text.replace(/^(\d+)[.)]\s+/, "$1. ");
    default:
      return escapeStart(text);
  }
}

/** The first and last lines of a page, where running headers, footers and page numbers sit. */
function marginLines(page: Line[]): Line[] {
  return page.length <= EDGE_LINES * 2 ? page : [...page.slice(0, EDGE_LINES), ...page.slice(-EDGE_LINES)];
}

function runningKey(line: Line): string {
  return line.text.toLowerCase().replace(/\d+/g, "#");
}

/**
 * Drops page numbers and running headers or footers (the same words at the top or bottom of many
 * pages), which would otherwise break paragraphs that run over a page and read as headings.
 */
function withoutRunningLines(pages: Line[][]): Line[] {
  const seen = new Map<string, number>();
  for (const page of pages) {
    for (const key of new Set(marginLines(page).map(runningKey))) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const repeated = (line: Line) =>
    pages.length >= 3 && (seen.get(runningKey(line)) ?? 0) >= Math.max(3, pages.length * RUNNING_SHARE);
  return pages.flatMap((page) => {
    const edges = new Set(marginLines(page));
    return page.filter((line) => !edges.has(line) || !(PAGE_NUMBER.test(line.text) || repeated(line)));
  });
}

/** Markdown for the text items of each page; lists stay together, everything else is blank-line separated. */
export function pdfMarkdown(pages: StructuredTextItem[][]): string {
  const lines = withoutRunningLines(pages.map((items, page) => pageLines(items, page)));
  if (!lines.length) return "";
  const layout = measureLayout(lines);
  const all = blocks(lines, layout);
  assignLevels(all, layout);
  let markdown = "";
  all.forEach((block, i) => {
    const listRun = block.kind !== "text" && block.kind !== "heading" && all[i - 1]?.kind === block.kind;
    markdown += (i === 0 ? "" : listRun ? "\n" : "\n\n") + render(block);
  });
  return markdown;
}

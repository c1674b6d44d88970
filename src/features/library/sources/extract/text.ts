// Plain text and Markdown sources are stored as they are; only the title and excerpt are derived.
import { countWords } from "./markdown.ts";
import { ExtractError, type Extracted } from "./types.ts";
import { hostname, truncate } from "./util.ts";

const TITLE_MAX = 200;
const EXCERPT_MAX = 300;
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n/;

function frontMatterTitle(text: string): string | null {
  const yaml = FRONT_MATTER.exec(text)?.[1];
  const value = yaml && /^title:\s*(.+)$/m.exec(yaml)?.[1];
  return value ? value.trim().replace(/^(["'])(.*)\1$/, "$2") : null;
}

/** The first Markdown heading (ATX or setext), else the first non-empty line. */
function firstHeadingOrLine(lines: string[]): string | null {
  let firstLine: string | null = null;
  for (const [i, line] of lines.entries()) {
    const heading = ATX_HEADING.exec(line)?.[1];
    if (heading) return heading;
    const next = lines[i + 1];
    if (line.trim() && next !== undefined && SETEXT_UNDERLINE.test(next) && !/^\s*[-=]/.test(line)) return line.trim();
    firstLine ??= line.trim() || null;
  }
  return firstLine;
}

/** The first paragraph that is neither a heading nor fenced code. */
function firstParagraph(body: string): string | null {
  for (const block of body.split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (!trimmed || /^(#|```|~~~|---|===|\|)/.test(trimmed) || /\n\s*[-=]+\s*$/.test(trimmed)) continue;
    return trimmed.replace(/\n/g, " ");
  }
  return null;
}

export function extractPlainText(raw: string, url: string): Extracted {
  const markdown = raw
    .replace(/\r\n?/g, "\n")
    .replace(/^\uFEFF/, "")
    .trim();
  if (!markdown) throw new ExtractError("empty_content", "the document is empty");
  const body = markdown.replace(FRONT_MATTER, "");
  const title = frontMatterTitle(markdown) ?? firstHeadingOrLine(body.split("\n"));
  return {
    title: truncate(title, TITLE_MAX),
    byline: null,
    siteName: hostname(url),
    language: null,
    publishedAt: null,
    excerpt: truncate(firstParagraph(body), EXCERPT_MAX),
    wordCount: countWords(markdown),
    markdown,
  };
}

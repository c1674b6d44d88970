// Anchoring highlights: the article text a quote lives in, and finding a W3C TextQuoteSelector
// (exact, prefix, suffix) with a TextPositionSelector-like hint in it. Pure functions.
//
// The article text is what a reader sees of the source's Markdown: the text of every block (headings,
// paragraphs, list items, table cells, code, quotes; raw HTML as the literal text the reader shows),
// with no Markdown syntax, no link targets and nothing of images; character references decoded in
// prose. Blocks and hard line breaks separate words. Then every run of whitespace (JavaScript's \s,
// which includes no-break spaces and line breaks) becomes one space, and the ends are trimmed:
//
//     normalizeWhitespace(s) = s.replace(/\s+/g, " ").trim()
//
// A page that shows the article finds a quote the same way: take the rendered text with a space at
// every block boundary and <br>, apply normalizeWhitespace, and count offsets in UTF-16 code units
// (JavaScript string indices), which is what positions are.
import { Lexer, type Token, type Tokens } from "marked";

/** Runs of whitespace become one space; the ends are trimmed. */
export function normalizeWhitespace(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ndash: "\u2013",
  mdash: "\u2014",
  hellip: "\u2026",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
};

/** Decodes numeric character references and the common named ones (as a browser shows them). */
function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (m, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[ref.toLowerCase()] ?? m;
  });
}

/** The Markdown as plain text a reader sees, whitespace normalised (see the module header). */
export function articleText(markdown: string): string {
  const out: string[] = [];
  const walk = (tokens: readonly Token[] | undefined) => {
    for (const t of tokens ?? []) visit(t);
  };
  const visit = (t: Token) => {
    switch (t.type) {
      case "space":
      case "hr":
      case "def":
      case "br":
        out.push(" ");
        return;
      case "image":
      case "checkbox":
        return;
      case "code":
      case "codespan":
      case "html":
        // Shown as written: code verbatim, raw HTML as its literal text (the reader escapes it).
        out.push((t as Tokens.Code).text);
        if (t.type !== "codespan") out.push(" ");
        return;
      case "escape":
        out.push((t as Tokens.Escape).text);
        return;
      case "list":
        for (const item of (t as Tokens.List).items) {
          walk(item.tokens);
          out.push(" ");
        }
        return;
      case "table": {
        const table = t as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          for (const cell of row) {
            walk(cell.tokens);
            out.push(" ");
          }
        }
        return;
      }
      case "text": {
        const tt = t as Tokens.Text;
        if (tt.tokens?.length) walk(tt.tokens);
        else out.push(decodeEntities(tt.text));
        return;
      }
      default: {
        // Headings, paragraphs, blockquotes, emphasis, links (their text, never the target), …
        const withTokens = t as { tokens?: Token[]; text?: unknown };
        if (withTokens.tokens) walk(withTokens.tokens);
        else if (typeof withTokens.text === "string") out.push(decodeEntities(withTokens.text));
        if (t.type === "heading" || t.type === "paragraph" || t.type === "blockquote") out.push(" ");
      }
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return normalizeWhitespace(out.join(""));
}

export interface Position {
  start: number;
  end: number;
}

export interface QuoteSelector {
  exact: string;
  prefix?: string;
  suffix?: string;
  /** Where the quote was last seen: the hint that decides between equally good occurrences. */
  position?: Position;
}

/** At most this many characters of prefix and suffix are compared per occurrence (keeps anchoring linear). */
const CONTEXT_COMPARED = 64;

/** Characters of context kept on each side when the client sent none. */
export const CONTEXT_KEPT = 32;

const isSpace = (c: number) => c === 32;

/** How many characters before `at` in `text` agree with the end of `prefix` (trailing spaces ignored). */
function prefixAgreement(text: string, at: number, prefix: string): number {
  let i = at - 1;
  let j = prefix.length - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  while (j >= 0 && isSpace(prefix.charCodeAt(j))) j--;
  let n = 0;
  while (i >= 0 && j >= 0 && n < CONTEXT_COMPARED && text.charCodeAt(i) === prefix.charCodeAt(j)) {
    i--;
    j--;
    n++;
  }
  return n;
}

/** How many characters from `at` in `text` agree with the start of `suffix` (leading spaces ignored). */
function suffixAgreement(text: string, at: number, suffix: string): number {
  let i = at;
  let j = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  while (j < suffix.length && isSpace(suffix.charCodeAt(j))) j++;
  let n = 0;
  while (i < text.length && j < suffix.length && n < CONTEXT_COMPARED && text.charCodeAt(i) === suffix.charCodeAt(j)) {
    i++;
    j++;
    n++;
  }
  return n;
}

/**
 * Finds the quote in `text` (an articleText, already normalised): every occurrence of the normalised
 * `exact`, the one whose surroundings agree most with prefix and suffix, then the one nearest the
 * position hint, then the first. Null when the quote is not in the text. Linear in the text: one
 * scan for occurrences and at most 2 × 64 characters compared at each.
 */
export function anchor(text: string, selector: QuoteSelector): Position | null {
  const exact = normalizeWhitespace(selector.exact);
  if (exact === "") return null;
  const prefix = selector.prefix ? selector.prefix.replace(/\s+/g, " ") : "";
  const suffix = selector.suffix ? selector.suffix.replace(/\s+/g, " ") : "";
  const hint = selector.position?.start;
  let best = -1;
  let bestScore = -1;
  let bestDistance = Infinity;
  for (let at = text.indexOf(exact); at !== -1; at = text.indexOf(exact, at + 1)) {
    const score =
      (prefix ? prefixAgreement(text, at, prefix) : 0) +
      (suffix ? suffixAgreement(text, at + exact.length, suffix) : 0);
    const distance = hint === undefined ? 0 : Math.abs(at - hint);
    if (score > bestScore || (score === bestScore && distance < bestDistance)) {
      best = at;
      bestScore = score;
      bestDistance = distance;
    }
  }
  return best === -1 ? null : { start: best, end: best + exact.length };
}

/** The context around a found quote, to store when the client sent none. */
export function contextOf(text: string, at: Position, chars = CONTEXT_KEPT): { prefix: string; suffix: string } {
  return {
    prefix: text.slice(Math.max(0, at.start - chars), at.start),
    suffix: text.slice(at.end, at.end + chars),
  };
}

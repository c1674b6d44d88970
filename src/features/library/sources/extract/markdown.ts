// HTML → Markdown with one shared Turndown service, and the word count we store with each source.
import { Lexer, type Token, type Tokens } from "marked";
import TurndownService from "turndown";
import { dropInertBlocks, parseDocument, pinBase } from "./dom.ts";
import { addRules, blankReplacement } from "./turndown-rules.ts";
import type { MarkdownImage } from "./types.ts";

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (!service) {
    service = new TurndownService({
      headingStyle: "atx",
      codeBlockStyle: "fenced",
      bulletListMarker: "-",
      hr: "---",
      emDelimiter: "_",
      strongDelimiter: "**",
      blankReplacement,
    });
    addRules(service);
  }
  return service;
}

function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Markdown for an element of a document whose <base> was pinned (see pinBase). */
export function nodeToMarkdown(node: Node): string {
  return tidy(turndown().turndown(node as HTMLElement));
}

/** Markdown for an HTML page or fragment, with links and images made absolute against baseUrl. */
export function htmlToMarkdown(html: string, baseUrl: string): string {
  const document = parseDocument(dropInertBlocks(html));
  pinBase(document, baseUrl);
  return document.body ? nodeToMarkdown(document.body) : "";
}

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’.-][\p{L}\p{N}\p{M}]+)*/gu;
const MD_IMAGE = /!\[[^\]]*\]\([^)]*\)/g;
const MD_LINK = /\[([^\]]*)\]\([^)]*\)/g;
const BARE_URL = /\bhttps?:\/\/\S+/g;

/**
 * Words in a text or Markdown string: link targets and images do not count, and each Chinese or
 * Japanese character counts as one word since those scripts do not separate words with spaces.
 */
export function countWords(text: string): number {
  const plain = text.replace(MD_IMAGE, " ").replace(MD_LINK, "$1").replace(BARE_URL, " ");
  let count = 0;
  const rest = plain.replace(CJK_CHAR, () => {
    count++;
    return " ";
  });
  for (const _ of rest.matchAll(WORD)) count++;
  return count;
}

/** Tokens nested in a token (a link's text, a list's items, a table's cells). */
function childrenOf(token: Token): Token[] {
  const t = token as unknown as Partial<Pick<Tokens.Table, "header" | "rows"> & Pick<Tokens.List, "items">> & {
    tokens?: Token[];
  };
  const out: Token[] = [...(t.tokens ?? [])];
  for (const item of t.items ?? []) out.push(item);
  for (const cell of t.header ?? []) out.push(...cell.tokens);
  for (const row of t.rows ?? []) for (const cell of row) out.push(...cell.tokens);
  return out;
}

/**
 * Every image the Markdown shows (inline, in links, lists and tables, reference-style), in document
 * order, with its address resolved against the page: only http(s) addresses are ever fetched.
 */
export function markdownImages(markdown: string, baseUrl: string): MarkdownImage[] {
  const out: MarkdownImage[] = [];
  const seen = new Set<string>();
  const stack = [...new Lexer({ gfm: true }).lex(markdown)].reverse();
  while (stack.length > 0) {
    const token = stack.pop()!;
    if (token.type === "image") {
      const image = token as Tokens.Image;
      if (seen.has(image.raw)) continue;
      seen.add(image.raw);
      let url: string | null = null;
      try {
        const resolved = new URL(image.href, baseUrl);
        if (resolved.protocol === "http:" || resolved.protocol === "https:") url = resolved.href;
      } catch {
        // An address that does not parse is removed like any image that was not kept.
      }
      out.push({ raw: image.raw, alt: image.text, url });
      continue;
    }
    stack.push(...childrenOf(token).reverse());
  }
  return out;
}

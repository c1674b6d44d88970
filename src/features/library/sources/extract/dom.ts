// Parsing markup with linkedom and pinning a <base> so every relative URL resolves against the page.
import { parseHTML } from "linkedom";

const HAS_DOCUMENT_SHELL = /<(?:html|body)[\s>]/i;
const JSON_LD = /application\/ld\+json/i;
const RAW_TEXT_TAGS = ["script", "style"] as const;
const pinnedBases = new WeakMap<Document, string>();

/** Whether `html` has `word` (lowercase ASCII) at `at`, in any case. */
function hasWordAt(html: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = html.charCodeAt(at + k) | 0x20;
    if (c !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** A tag name ends at whitespace, "/" or ">" (or the end): "<scripts" is not "<script". */
function endsTagName(html: string, at: number): boolean {
  if (at >= html.length) return true;
  const c = html.charCodeAt(at);
  return c === 0x2f || c === 0x3e || c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function rawTextTagAt(html: string, lt: number): (typeof RAW_TEXT_TAGS)[number] | null {
  for (const name of RAW_TEXT_TAGS) {
    if (hasWordAt(html, lt + 1, name) && endsTagName(html, lt + 1 + name.length)) return name;
  }
  return null;
}

/** Index just past the `</name …>` that ends a raw-text element begun before `from`, or -1 if none does. */
function rawTextEnd(html: string, name: string, from: number): number {
  for (let at = html.indexOf("</", from); at >= 0; at = html.indexOf("</", at + 2)) {
    if (!hasWordAt(html, at + 2, name) || !endsTagName(html, at + 2 + name.length)) continue;
    const gt = html.indexOf(">", at + 2 + name.length);
    return gt < 0 ? html.length : gt + 1;
  }
  return -1;
}

/** Index just past the end of the comment opened at `lt`, or -1 when it never ends. */
function commentEnd(html: string, lt: number): number {
  // "<!-->" and "<!--->" are (abruptly closed) empty comments to an HTML parser.
  if (html.startsWith(">", lt + 4)) return lt + 5;
  if (html.startsWith("->", lt + 4)) return lt + 6;
  const end = html.indexOf("-->", lt + 4);
  return end < 0 ? -1 : end + 3;
}

/**
 * The markup without script, style and comment bodies, which no extraction step reads (JSON-LD
 * scripts stay, for metadata). Script and style bodies are often most of a page's bytes. One pass
 * with indexOf, never a backtracking regex: each byte is looked at a bounded number of times, so
 * 60,000 unclosed `<script>` tags cost what one does. Where a closing tag or `-->` is missing, an
 * HTML parser reads the rest of the document as that element's text, so the rest goes too.
 */
export function dropInertBlocks(html: string): string {
  const kept: string[] = [];
  let copyFrom = 0;
  let at = html.indexOf("<");
  while (at >= 0) {
    let end: number;
    if (html.startsWith("<!--", at)) end = commentEnd(html, at);
    else {
      const name = rawTextTagAt(html, at);
      if (!name) {
        at = html.indexOf("<", at + 1);
        continue;
      }
      const gt = html.indexOf(">", at);
      end = gt < 0 ? -1 : rawTextEnd(html, name, gt + 1);
      if (name === "script" && gt >= 0 && JSON_LD.test(html.slice(at, gt))) {
        // JSON-LD is kept whole, and its text is not searched for tags it merely quotes.
        at = end < 0 ? -1 : html.indexOf("<", end);
        continue;
      }
    }
    kept.push(html.slice(copyFrom, at));
    if (end < 0) return kept.join("");
    copyFrom = end;
    at = html.indexOf("<", end);
  }
  kept.push(html.slice(copyFrom));
  return kept.join("");
}

/** Parses a whole page or a fragment; fragments get a shell so head and body always exist. */
export function parseDocument(html: string): Document {
  const source = HAS_DOCUMENT_SHELL.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(source);
  ensureHeadAndBody(document);
  return document as unknown as Document;
}

function ensureHeadAndBody(document: Document): void {
  const root = document.documentElement;
  if (!root) return;
  if (!document.head) root.insertBefore(document.createElement("head"), root.firstChild);
  if (!document.body) root.appendChild(document.createElement("body"));
}

/** Absolute URL for `href` against `base`, or null when it cannot be resolved. */
export function resolveUrl(href: string, base: string | null | undefined): string | null {
  try {
    return new URL(href.trim(), base ?? undefined).href;
  } catch {
    return null;
  }
}

/**
 * Puts a <base> carrying the absolute effective base first in <head> (a page's own relative <base>
 * is resolved against the page URL), so Readability and our Markdown rules resolve links alike.
 */
export function pinBase(document: Document, pageUrl: string): string {
  const declared = document.querySelector("base[href]")?.getAttribute("href");
  const effective = (declared && resolveUrl(declared, pageUrl)) || resolveUrl(pageUrl, null) || pageUrl;
  const base = document.createElement("base");
  base.setAttribute("href", effective);
  const head = document.head ?? document.documentElement;
  head?.insertBefore(base, head.firstChild);
  pinnedBases.set(document, effective);
  return effective;
}

/** The base URL our <base> pinned, read back from the node's document. */
export function baseOf(node: Node): string | null {
  const doc = node.nodeType === 9 ? (node as Document) : node.ownerDocument;
  if (!doc) return null;
  return pinnedBases.get(doc) ?? doc.querySelector("base[href]")?.getAttribute("href") ?? null;
}

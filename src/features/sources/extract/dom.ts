// Parsing markup with linkedom and pinning a <base> so every relative URL resolves against the page.
import { parseHTML } from "linkedom";

const HAS_DOCUMENT_SHELL = /<(?:html|body)[\s>]/i;
// Script and style bodies are often most of a page's bytes and nothing we read (JSON-LD aside);
// an HTML parser also ends them at the first closing tag, so the regex cuts where it would.
const INERT_BLOCKS = /<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<!--[\s\S]*?-->/gi;
const pinnedBases = new WeakMap<Document, string>();

/** The markup without script, style and comment bodies, which no extraction step reads. */
export function dropInertBlocks(html: string): string {
  return html.replace(INERT_BLOCKS, "");
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

// Markdown → HTML for the reader and notes: raw HTML is shown as text, links keep only safe schemes,
// images load only from this site (an archived copy's kept images). Source pages and notes are
// untrusted input, so nothing passes through, and nothing is ever loaded from another host.
// The reader's articles also get heading ids (slugs, deduplicated) and an outline of their headings.
import { Marked, type Tokens } from "marked";
import { decodeEntities } from "../../features/imports/formats/html-text.ts";
import { escapeHtml, raw, type SafeHtml } from "../../http/html/html.ts";

const LINK_SCHEMES = new Set(["http", "https", "mailto"]);
/** A kept image's API address (as the stored Markdown has it) or its web address. */
const MEDIA_PATH = /^\/(?:api\/v1\/)?sources\/(src_[0-9A-Za-z]{1,40})\/media\/([0-9A-Za-z-]{1,80}\.[0-9a-z]{2,5})$/;

/** Browsers drop these anywhere in a URL before reading its scheme ("java\tscript:"). */
const invisible = (url: string) =>
  url.replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g, "");

/** The URL's scheme in lower case, "" for a relative URL. */
function schemeOf(url: string): string {
  const m = /^([^/?#]*?):/.exec(invisible(url));
  return m ? m[1]!.toLowerCase() : "";
}

export function safeLinkUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === "" || LINK_SCHEMES.has(scheme);
}

/**
 * The web address of a kept image (/sources/{id}/media/{name}, session-authenticated), or null: any
 * other image (another host, a data: URL, any other path) is never loaded.
 */
export function webImageUrl(url: string): string | null {
  const m = MEDIA_PATH.exec(url);
  return m ? `/sources/${m[1]}/media/${m[2]}` : null;
}

/** One heading of an article: its level (1–6), its id in the page and its text. */
export interface OutlineEntry {
  level: number;
  id: string;
  text: string;
}

/** A heading's id: lower case, letters and digits of any script, words joined by "-". */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "section";
}

/**
 * The headings of the article being rendered. marked renders synchronously, so the one parse in
 * progress owns it; outside renderArticle it is null and headings get no ids (notes).
 */
let headings: { taken: Set<string>; outline: OutlineEntry[] } | null = null;

function headingId(text: string): string {
  const h = headings!;
  const base = slugify(text);
  let id = base;
  for (let n = 2; h.taken.has(id); n++) id = `${base}-${n}`;
  h.taken.add(id);
  return id;
}

const titleAttr = (title: string | null | undefined) => (title ? ` title="${escapeHtml(title)}"` : "");

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Raw HTML, block or inline, is shown as the text it is.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    heading({ tokens, depth }: Tokens.Heading) {
      const inner = this.parser.parseInline(tokens);
      if (!headings) return `<h${depth}>${inner}</h${depth}>\n`;
      const text = decodeEntities(inner.replace(/<[^>]*>/g, ""))
        .replace(/\s+/g, " ")
        .trim();
      const id = headingId(text);
      if (text) headings.outline.push({ level: depth, id, text });
      return `<h${depth} id="${escapeHtml(id)}">${inner}</h${depth}>\n`;
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!safeLinkUrl(href)) return inner;
      return `<a href="${escapeHtml(invisible(href))}"${titleAttr(title)} rel="nofollow noopener noreferrer">${inner}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      // An image that was not kept (an older source, a note's own) shows its alt text instead.
      const src = webImageUrl(href);
      if (!src) return escapeHtml(text);
      return `<img src="${escapeHtml(src)}" alt="${escapeHtml(text)}"${titleAttr(title)} loading="lazy">`;
    },
  },
});

/** Rendered, safe HTML for a Markdown document. */
export function renderMarkdown(markdown: string): SafeHtml {
  return raw(marked.parse(markdown) as string);
}

/**
 * An article for the reader: its HTML with an id on every heading, and the headings in order.
 * `reserved` are ids the page around it already uses, which a heading must not take.
 */
export function renderArticle(
  markdown: string,
  reserved: Iterable<string> = [],
): { html: SafeHtml; outline: OutlineEntry[] } {
  headings = { taken: new Set(reserved), outline: [] };
  try {
    const out = marked.parse(markdown) as string;
    return { html: raw(out), outline: headings.outline };
  } finally {
    headings = null;
  }
}

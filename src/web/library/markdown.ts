// Markdown → HTML for the reader and notes: raw HTML is shown as text, links keep only safe schemes,
// images load only from this site (an archived copy's kept images). Source pages and notes are
// untrusted input, so nothing passes through, and nothing is ever loaded from another host.
import { Marked, type Tokens } from "marked";
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

const titleAttr = (title: string | null | undefined) => (title ? ` title="${escapeHtml(title)}"` : "");

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Raw HTML, block or inline, is shown as the text it is.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
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

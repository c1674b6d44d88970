// Markdown → HTML for the reader and notes: raw HTML is shown as text, links keep only safe schemes,
// images load only over http(s). Source pages and notes are untrusted input, so nothing passes through.
import { Marked, type Tokens } from "marked";
import { escapeHtml, raw, type SafeHtml } from "../../http/html/html.ts";

const LINK_SCHEMES = new Set(["http", "https", "mailto"]);
const IMAGE_SCHEMES = new Set(["http", "https"]);

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

export function safeImageUrl(url: string): boolean {
  return IMAGE_SCHEMES.has(schemeOf(url));
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
      if (!safeImageUrl(href)) return escapeHtml(text);
      return `<img src="${escapeHtml(invisible(href))}" alt="${escapeHtml(text)}"${titleAttr(title)} loading="lazy" referrerpolicy="no-referrer">`;
    },
  },
});

/** Rendered, safe HTML for a Markdown document. */
export function renderMarkdown(markdown: string): SafeHtml {
  return raw(marked.parse(markdown) as string);
}

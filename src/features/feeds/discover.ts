// Feed discovery: a web page that advertises its feed with <link rel="alternate" type="application/rss+xml">.
import { parseDocument, resolveUrl } from "../library/sources/extract/dom.ts";
import { mediaType } from "../../media-type.ts";

// Most specific first: a page offering several formats gets the one we read best.
const FEED_TYPES = [
  "application/atom+xml",
  "application/rss+xml",
  "application/feed+json",
  "application/rdf+xml",
  "application/json",
];

/** True when the body is an HTML page rather than a feed document. */
export function looksLikeHtml(contentType: string, text: string): boolean {
  if (contentType === "text/html" || contentType === "application/xhtml+xml") return true;
  return /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 1024));
}

/** The absolute http(s) URL of the feed a page advertises, or null. */
export function advertisedFeed(html: string, pageUrl: string): string | null {
  // Only the head matters, and pages can be large: cut before parsing.
  const end = html.search(/<\/head\s*>/i);
  const document = parseDocument(end > 0 ? `${html.slice(0, end)}</head><body></body></html>` : html);
  const links = [...document.querySelectorAll("link[href]")].filter((l) =>
    (l.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).includes("alternate"),
  );
  for (const type of FEED_TYPES) {
    const link = links.find((l) => mediaType(l.getAttribute("type")) === type);
    const href = link && resolveUrl(link.getAttribute("href") ?? "", pageUrl);
    if (href && /^https?:/i.test(href)) return href;
  }
  return null;
}

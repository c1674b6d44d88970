// Feed discovery: the feeds a web page advertises with <link rel="alternate" type="application/rss+xml">,
// read by one forward scan of the page's head (no DOM, no backtracking), so a hostile page costs time
// linear in its size and nothing more.
import { mediaType } from "../../media-type.ts";

export type FeedKind = "atom" | "rss" | "json" | "rdf";

// Most specific first: a page offering several formats gets the one we read best.
const FEED_TYPES: [type: string, kind: FeedKind][] = [
  ["application/atom+xml", "atom"],
  ["application/rss+xml", "rss"],
  ["application/feed+json", "json"],
  ["application/rdf+xml", "rdf"],
  // Plain JSON is a feed only as a last resort: WordPress advertises its REST API with it.
  ["application/json", "json"],
];

/** One feed a page advertises. */
export interface AdvertisedFeed {
  url: string;
  title: string | null;
  kind: FeedKind;
  /** The media type the link declared. */
  type: string;
}

// No real page advertises more; a page listing thousands of links gets the first few.
const MAX_FEEDS = 20;
// The head is where links live; a page whose head goes on longer than this is read that far.
const MAX_SCAN = 1024 * 1024;

/** True when the body is an HTML page rather than a feed document. */
export function looksLikeHtml(contentType: string, text: string): boolean {
  if (contentType === "text/html" || contentType === "application/xhtml+xml") return true;
  return /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 1024));
}

/** A cheap look at the start of a document: could it be a feed (XML or JSON)? The poll parses it for real. */
export function looksLikeFeed(contentType: string, text: string): boolean {
  if (FEED_TYPES.some(([t]) => t === contentType)) return true;
  if (contentType.endsWith("+xml") || contentType.endsWith("/xml")) return true;
  const start = text
    .slice(0, 1024)
    .replace(/^\uFEFF/, "")
    .trimStart();
  return (
    /^(<\?xml|<rss[\s>]|<feed[\s>]|<rdf:RDF[\s>])/i.test(start) ||
    (start.startsWith("{") && /"version"\s*:\s*"https?:\/\/jsonfeed\.org/i.test(start))
  );
}

const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** Whether `s` has `word` (lowercase ASCII) at `at`, in any case, followed by the end of a tag name. */
function tagAt(s: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if ((s.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  const c = s.charCodeAt(at + word.length);
  return Number.isNaN(c) || isSpace(c) || c === 0x2f || c === 0x3e;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const decode = (v: string) =>
  v.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi, (m, name: string) => {
    if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? m;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });

/** Reads the attributes of the tag whose name ends at `from` (a ">" in quotes does not end it); returns them
 * and the index past its `>`. Each step moves forward, so a tag costs its length. */
function attributes(s: string, from: number, end: number): { attrs: Map<string, string>; next: number } {
  const attrs = new Map<string, string>();
  let i = from;
  while (i < end) {
    while (i < end && (isSpace(s.charCodeAt(i)) || s[i] === "/")) i++;
    if (i >= end || s[i] === ">") return { attrs, next: i + 1 };
    const nameStart = i;
    while (i < end && !isSpace(s.charCodeAt(i)) && s[i] !== "=" && s[i] !== ">" && s[i] !== "/") i++;
    const name = s.slice(nameStart, i).toLowerCase();
    while (i < end && isSpace(s.charCodeAt(i))) i++;
    let value = "";
    if (s[i] === "=") {
      i++;
      while (i < end && isSpace(s.charCodeAt(i))) i++;
      const q = s[i];
      if (q === '"' || q === "'") {
        const close = s.indexOf(q, i + 1);
        const stop = close < 0 || close > end ? end : close;
        value = s.slice(i + 1, stop);
        i = stop + 1;
      } else {
        const valueStart = i;
        while (i < end && !isSpace(s.charCodeAt(i)) && s[i] !== ">") i++;
        value = s.slice(valueStart, i);
      }
    }
    if (name && !attrs.has(name)) attrs.set(name, decode(value));
  }
  return { attrs, next: end };
}

function absoluteHttp(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}

/**
 * Every feed the page's head advertises, in preference order (Atom, RSS, JSON Feed, RDF, then plain
 * JSON), each URL once, resolved against the page (or its `<base href>`); only http(s) URLs.
 */
export function advertisedFeeds(html: string, pageUrl: string): AdvertisedFeed[] {
  const end = Math.min(html.length, MAX_SCAN);
  let base = pageUrl;
  const found: (AdvertisedFeed & { rank: number; order: number })[] = [];
  let i = 0;
  while (i < end && found.length < MAX_FEEDS) {
    const lt = html.indexOf("<", i);
    if (lt < 0 || lt >= end) break;
    if (html.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      i = close < 0 ? end : close + 3;
      continue;
    }
    // Raw text: a "<link" inside a script or style is not a link.
    const raw = tagAt(html, lt + 1, "script") ? "script" : tagAt(html, lt + 1, "style") ? "style" : null;
    if (raw) {
      let close = html.indexOf("</", lt + 1);
      while (close >= 0 && close < end && !tagAt(html, close + 2, raw)) close = html.indexOf("</", close + 2);
      i = close < 0 ? end : close + 2;
      continue;
    }
    if (tagAt(html, lt + 1, "body") || (html[lt + 1] === "/" && tagAt(html, lt + 2, "head"))) break;
    const isLink = tagAt(html, lt + 1, "link");
    const isBase = !isLink && tagAt(html, lt + 1, "base");
    if (!isLink && !isBase) {
      i = lt + 1;
      continue;
    }
    const { attrs, next } = attributes(html, lt + 5, end);
    i = Math.max(next, lt + 1);
    const href = attrs.get("href");
    if (!href) continue;
    if (isBase) {
      base = absoluteHttp(href, pageUrl) ?? base;
      continue;
    }
    const rels = (attrs.get("rel") ?? "").toLowerCase().split(/\s+/);
    if (!rels.includes("alternate")) continue;
    const type = mediaType(attrs.get("type"));
    const rank = FEED_TYPES.findIndex(([t]) => t === type);
    if (rank < 0) continue;
    const url = absoluteHttp(href, base);
    if (!url || found.some((f) => f.url === url)) continue;
    const title = attrs.get("title")?.replace(/\s+/g, " ").trim().slice(0, 200) || null;
    found.push({ url, title, kind: FEED_TYPES[rank]![1], type, rank, order: found.length });
  }
  // Plain JSON only when the page offers no real feed format.
  const real = found.filter((f) => f.type !== "application/json");
  return (real.length ? real : found)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map(({ rank: _r, order: _o, ...f }) => f);
}

/** The absolute http(s) URL of the feed a page advertises (the preferred one), or null. */
export function advertisedFeed(html: string, pageUrl: string): string | null {
  return advertisedFeeds(html, pageUrl)[0]?.url ?? null;
}

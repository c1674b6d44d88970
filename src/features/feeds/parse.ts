// Feed documents (RSS 2.0, Atom 1.0, RDF, JSON Feed) parsed with feedsmith into one entry shape.
import { createHash } from "node:crypto";
import { parseFeed, type AnyFeed } from "feedsmith";
import { normalizeUrl } from "../library/sources/normalize.ts";
import { entityDeclaration } from "./dtd-guard.ts";
import { videoWatchUrl, YOUTUBE, type VideoSite } from "./video.ts";

export interface FeedEntry {
  /** Identities: y:<video id>, g:<guid or id>, l:<normalised link>; h:<content hash> only when it has no guid and no link. */
  keys: string[];
  /** Absolute http(s) URL that becomes the source, or null when the entry has none. */
  url: string | null;
  title: string | null;
  /** ms since the epoch, when the entry says. */
  publishedAt: number | null;
}

export interface ParsedFeed {
  format: AnyFeed["format"];
  title: string | null;
  /** RSS <ttl>: how long the publisher asks readers to wait between polls. */
  ttlMs: number | null;
  entries: FeedEntry[];
}

/** The document is not a feed we can read (malformed XML, HTML, unknown JSON). */
export class FeedFormatError extends Error {
  override name = "FeedFormatError";
}

/** The document declares XML entities: refused outright, never expanded, and not just "malformed". */
export class FeedRefusedError extends FeedFormatError {
  override name = "FeedRefusedError";
}

// Enough for any real feed; a document listing more keeps only its newest entries, so one poll never writes
// without bound and a long feed listed oldest first still yields its new posts.
export const MAX_ENTRIES = 1000;
const TITLE_MAX = 500;

type Raw = {
  guid?: string;
  link?: string;
  title?: string;
  titleIsHtml?: boolean;
  content?: string;
  date?: string;
  videoId?: string;
};

export function parseFeedText(text: string, baseUrl: string, site: VideoSite = YOUTUBE): ParsedFeed {
  let parsed: AnyFeed;
  const unsafe = entityDeclaration(text);
  if (unsafe) throw new FeedRefusedError(`refused: the document ${unsafe}; entity declarations are never expanded`);
  try {
    parsed = parseFeed(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new FeedFormatError(`not a readable RSS, Atom, RDF or JSON feed (${why})`);
  }
  return {
    format: parsed.format,
    title: cleanTitle(feedTitle(parsed), parsed.format === "atom"),
    ttlMs:
      parsed.format === "rss" && typeof parsed.feed.ttl === "number" && parsed.feed.ttl > 0
        ? parsed.feed.ttl * 60_000
        : null,
    entries: keepNewest(
      rawEntries(parsed).map((r) => toEntry(r, baseUrl, site)),
      MAX_ENTRIES,
    ),
  };
}

/** The `max` newest entries (by date, undated ones by their place), still in document order. */
export function keepNewest(entries: FeedEntry[], max: number): FeedEntry[] {
  if (entries.length <= max) return entries;
  const kept = new Set(newestFirst(entries).slice(0, max));
  return entries.filter((e) => kept.has(e));
}

function feedTitle(p: AnyFeed): string | undefined {
  if (p.format === "atom") return p.feed.title?.value;
  return p.feed.title;
}

function rawEntries(p: AnyFeed): Raw[] {
  switch (p.format) {
    case "rss":
      return (p.feed.items ?? []).map((i) => ({
        guid: i.guid?.value,
        link:
          i.link ??
          (i.guid?.isPermaLink !== false && /^https?:\/\//i.test(i.guid?.value ?? "") ? i.guid?.value : undefined),
        title: i.title,
        content: i.content?.encoded ?? i.description,
        date: i.pubDate ?? i.dc?.dates?.[0],
      }));
    case "atom":
      return (p.feed.entries ?? []).map((e) => ({
        guid: e.id,
        link: atomLink(e.links),
        title: e.title?.value,
        titleIsHtml: e.title?.type === "html" || e.title?.type === "xhtml",
        content: e.content?.value ?? e.summary?.value,
        date: e.published ?? e.updated,
        videoId: e.yt?.videoId,
      }));
    case "rdf":
      return (p.feed.items ?? []).map((i) => ({
        guid: i.rdf?.about,
        link: i.link,
        title: i.title,
        content: i.content?.encoded ?? i.description,
        date: i.dc?.dates?.[0],
      }));
    case "json":
      return (p.feed.items ?? []).map((i) => ({
        guid: i.id === undefined ? undefined : String(i.id),
        link: i.url ?? i.external_url,
        title: i.title,
        content: i.content_html ?? i.content_text ?? i.summary,
        date: i.date_published ?? i.date_modified,
      }));
  }
}

function atomLink(links: { href?: string; rel?: string; type?: string }[] | undefined): string | undefined {
  if (!links?.length) return undefined;
  const alternates = links.filter((l) => l.href && (l.rel === undefined || l.rel === "alternate"));
  return (alternates.find((l) => !l.type || l.type.startsWith("text/html")) ?? alternates[0])?.href;
}

function toEntry(r: Raw, baseUrl: string, site: VideoSite): FeedEntry {
  const keys: string[] = [];
  const videoId = r.videoId?.trim() || undefined;
  if (videoId) keys.push(`y:${videoId}`);
  const guid = r.guid?.trim();
  if (guid) keys.push(`g:${guid}`);
  let url = absoluteHttp(r.link, baseUrl);
  if (!url && videoId) url = videoWatchUrl(videoId, site);
  if (url) keys.push(`l:${normalizeUrl(url)}`);
  const title = cleanTitle(r.title, r.titleIsHtml ?? true);
  if (keys.length === 0) keys.push(`h:${contentHash(`${title ?? ""}\n${r.content ?? ""}`)}`);
  const when = r.date ? Date.parse(r.date) : NaN;
  return { keys, url, title, publishedAt: Number.isFinite(when) ? when : null };
}

function absoluteHttp(href: string | undefined, base: string): string | null {
  if (!href?.trim()) return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Plain one-line text: tags dropped (titles may be HTML), entities decoded, whitespace collapsed, length capped. */
export function cleanTitle(raw: string | undefined, mayBeHtml = true): string | null {
  if (!raw) return null;
  let s = mayBeHtml ? raw.replace(/<[^>]*>/g, " ") : raw;
  if (mayBeHtml) {
    s = s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    });
  }
  s = s.replace(/[\u0000-\u001f\u007f\s]+/g, " ").trim();
  if (!s) return null;
  return s.length > TITLE_MAX ? `${s.slice(0, TITLE_MAX - 1)}…` : s;
}

/** Newest first by date; entries without one keep their place in the document (feeds list newest first). */
export function newestFirst(entries: FeedEntry[]): FeedEntry[] {
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      if (a.e.publishedAt !== null && b.e.publishedAt !== null && a.e.publishedAt !== b.e.publishedAt)
        return b.e.publishedAt - a.e.publishedAt;
      return a.i - b.i;
    })
    .map((x) => x.e);
}

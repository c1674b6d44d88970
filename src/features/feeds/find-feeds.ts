// Finding the feed behind an address someone pasted: the address itself when it is a feed, the feeds an
// HTML page advertises, else a few usual feed locations of the site. Every request goes through safeFetch
// (the SSRF guard) with small size and time limits; nothing here parses a feed (the first poll does).
import { FetchError } from "../../net/errors.ts";
import type { SafeFetch } from "../../net/safe-fetch.ts";
import type { SafeResponse } from "../../net/response.ts";
import { decodeMarkup } from "../library/sources/extract/decode.ts";
import { advertisedFeeds, looksLikeFeed, looksLikeHtml, type AdvertisedFeed, type FeedKind } from "./discover.ts";
import type { HostGate } from "./host-gate.ts";
import { videoFeedUrl, type VideoSite } from "./video.ts";

const ACCEPT =
  "text/html;q=0.9, application/atom+xml, application/rss+xml, application/feed+json, application/rdf+xml;q=0.9, " +
  "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.1";
// Enough for any page's head and any feed's first kilobyte; a subscription is a person waiting.
const MAX_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 15_000;
/** Where sites usually keep their feed, tried when the address is neither a feed nor a page advertising one. */
export const USUAL_PATHS = ["/feed", "/feed.xml", "/rss.xml", "/atom.xml", "/index.xml"];

export interface FoundFeeds {
  /** The feeds found, preferred first (a feed address itself, else what the page advertises). */
  feeds: AdvertisedFeed[];
  /** Each address asked and what it answered. */
  tried: { url: string; outcome: string }[];
}

export interface FindFeedsDeps {
  safeFetch: SafeFetch;
  gate: HostGate;
  videoSite: VideoSite;
}

function kindOf(contentType: string, text: string): FeedKind {
  if (contentType.includes("atom") || /^\s*(<\?xml[^>]*>\s*)?<feed[\s>]/i.test(text.slice(0, 1024))) return "atom";
  if (contentType.includes("json") || text.trimStart().startsWith("{")) return "json";
  if (contentType.includes("rdf") || /<rdf:RDF[\s>]/i.test(text.slice(0, 1024))) return "rdf";
  return "rss";
}

/** What one address answered: feeds (itself, or those it advertises), or none, and whether the site answered. */
type Look = { feeds: AdvertisedFeed[]; answered: boolean };

async function look(deps: FindFeedsDeps, url: string, tried: FoundFeeds["tried"], signal?: AbortSignal): Promise<Look> {
  let res: SafeResponse;
  try {
    await deps.gate.wait(new URL(url).host, signal);
    res = await deps.safeFetch(url, {
      headers: { accept: ACCEPT },
      maxBytes: MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
      signal,
    });
  } catch (err) {
    if (signal?.aborted || !(err instanceof FetchError)) throw err;
    tried.push({ url, outcome: `${err.code}: ${err.message}` });
    return { feeds: [], answered: false };
  }
  if (res.status < 200 || res.status >= 300) {
    tried.push({ url, outcome: `HTTP ${res.status}` });
    return { feeds: [], answered: true };
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(res.headers.get("content-type") ?? "")?.[1];
  const text = decodeMarkup(res.body, charset);
  if (looksLikeHtml(res.contentType, text)) {
    const feeds = advertisedFeeds(text, res.url);
    tried.push({
      url,
      outcome: feeds.length
        ? `an HTML page advertising ${feeds.length} feed(s)`
        : "an HTML page that advertises no feed",
    });
    return { feeds, answered: true };
  }
  if (looksLikeFeed(res.contentType, text)) {
    tried.push({ url, outcome: "a feed" });
    const feed = { url: res.url, title: null, kind: kindOf(res.contentType, text), type: res.contentType };
    return { feeds: [feed], answered: true };
  }
  tried.push({ url, outcome: `not a feed (${res.contentType || "no content type"})` });
  return { feeds: [], answered: true };
}

/** What feeds the address leads to; an empty `feeds` means none (and `tried` says what was asked). */
export async function findFeeds(deps: FindFeedsDeps, url: string, signal?: AbortSignal): Promise<FoundFeeds> {
  const tried: FoundFeeds["tried"] = [];
  // A video channel's page is polled as its feed, as watch_feed does.
  const channel = videoFeedUrl(url, deps.videoSite);
  if (channel) return { feeds: [{ url, title: null, kind: "atom", type: "application/atom+xml" }], tried };
  const first = await look(deps, url, tried, signal);
  // Only a site that answered is worth asking again; a refused or unreachable address is not.
  if (first.feeds.length || !first.answered) return { feeds: first.feeds, tried };
  const origin = new URL(url).origin;
  for (const path of USUAL_PATHS) {
    const candidate = `${origin}${path}`;
    if (candidate === url) continue;
    const got = await look(deps, candidate, tried, signal);
    if (got.feeds.length) return { feeds: got.feeds, tried };
  }
  return { feeds: [], tried };
}

// Fetching a watch's feed: conditional GET through safeFetch, video-channel resolution, one hop of discovery.
import { FetchError } from "../../net/errors.ts";
import type { SafeFetch } from "../../net/safe-fetch.ts";
import type { SafeResponse } from "../../net/response.ts";
import type { FeedWatchRow } from "../../db/schema/index.ts";
import { decodeMarkup } from "../library/sources/extract/decode.ts";
import { advertisedFeed, looksLikeHtml } from "./discover.ts";
import type { HostGate } from "./host-gate.ts";
import { videoFeedUrl, type VideoSite } from "./video.ts";

const ACCEPT =
  "application/atom+xml, application/rss+xml, application/feed+json, application/rdf+xml;q=0.9, " +
  "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, text/html;q=0.5, */*;q=0.1";

/** Why a poll failed, as recorded on the watch; `status` is the HTTP status when there was one. */
export class PollFailure extends Error {
  override name = "PollFailure";
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly retryAfter: string | null = null,
    /** The polled URL is gone: forget a discovered feed URL so the next poll discovers again. */
    readonly gone = false,
  ) {
    super(message);
  }
}

export type Fetched =
  | { kind: "not_modified"; url: string; res: SafeResponse }
  | { kind: "document"; url: string; res: SafeResponse; text: string };

export interface FeedFetchDeps {
  safeFetch: SafeFetch;
  gate: HostGate;
  videoSite: VideoSite;
}

/** The URL a poll goes to: the one found before, else the channel's feed, else what the action gave. */
export function pollUrl(watch: Pick<FeedWatchRow, "feedUrl" | "fetchUrl">, site: VideoSite): string {
  return watch.fetchUrl ?? videoFeedUrl(watch.feedUrl, site) ?? watch.feedUrl;
}

function charsetOf(res: SafeResponse): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(res.headers.get("content-type") ?? "")?.[1];
}

async function get(
  deps: FeedFetchDeps,
  url: string,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<SafeResponse> {
  await deps.gate.wait(new URL(url).host, signal);
  try {
    return await deps.safeFetch(url, { headers: { accept: ACCEPT, ...headers }, signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof FetchError) throw new PollFailure(`${err.code}: ${err.message}`);
    throw err;
  }
}

function checkStatus(res: SafeResponse, discovered: boolean): void {
  if (res.status >= 200 && res.status < 300) return;
  const text = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
  throw new PollFailure(
    text,
    res.status,
    res.headers.get("retry-after"),
    discovered && (res.status === 404 || res.status === 410),
  );
}

export async function fetchFeed(deps: FeedFetchDeps, watch: FeedWatchRow, signal?: AbortSignal): Promise<Fetched> {
  const url = pollUrl(watch, deps.videoSite);
  const conditional: Record<string, string> = {};
  // Validators belong to the URL they came from.
  if (watch.fetchUrl === url) {
    if (watch.etag) conditional["if-none-match"] = watch.etag;
    if (watch.lastModified) conditional["if-modified-since"] = watch.lastModified;
  }
  const res = await get(deps, url, conditional, signal);
  if (res.status === 304) return { kind: "not_modified", url, res };
  checkStatus(res, url !== watch.feedUrl);
  const text = decodeMarkup(res.body, charsetOf(res));
  if (!looksLikeHtml(res.contentType, text)) return { kind: "document", url, res, text };

  const found = advertisedFeed(text, res.url);
  if (!found) throw new PollFailure("the page is HTML and advertises no feed", res.status);
  const feedRes = await get(deps, found, {}, signal);
  checkStatus(feedRes, true);
  const feedText = decodeMarkup(feedRes.body, charsetOf(feedRes));
  if (looksLikeHtml(feedRes.contentType, feedText))
    throw new PollFailure(`the advertised feed ${found} is an HTML page`, feedRes.status);
  return { kind: "document", url: found, res: feedRes, text: feedText };
}

// Test support for feeds: a local feed server honouring conditional GET, feed builders, a workflow row.
import { sqlRows } from "../../db/inspect.ts";
import type { EngineDb } from "../../db/port.ts";
import { newId } from "../../ids.ts";

export interface Served {
  body: string;
  type?: string;
  status?: number;
  headers?: Record<string, string>;
  /** Send an ETag (a hash of the body) and honour If-None-Match. Default true. */
  etag?: boolean;
  /** Send Last-Modified and honour If-Modified-Since. */
  lastModified?: string;
  /** Answer this much later (a slow publisher, so polls overlap). */
  delayMs?: number;
}

export interface FeedRequest {
  path: string;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  status: number;
  /** When the request arrived (ms epoch). */
  at: number;
}

/** A Bun.serve standing in for feed publishers: content is swapped between polls with set(). */
export function startFeedServer() {
  const routes = new Map<string, Served>();
  const requests: FeedRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname + url.search;
      const served = routes.get(path) ?? routes.get(url.pathname);
      const at = Date.now();
      const res = respond(req, served);
      if (served?.delayMs) await Bun.sleep(served.delayMs);
      requests.push({
        path,
        ifNoneMatch: req.headers.get("if-none-match"),
        ifModifiedSince: req.headers.get("if-modified-since"),
        status: res.status,
        at,
      });
      return res;
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    host: `127.0.0.1:${server.port}`,
    url: (p: string) => `${origin}${p}`,
    set: (path: string, served: Served) => void routes.set(path, served),
    requests,
    hits: (path: string) => requests.filter((r) => r.path === path),
    stop: () => server.stop(true),
  };
}

function respond(req: Request, s: Served | undefined): Response {
  if (!s) return new Response("not found", { status: 404 });
  const headers: Record<string, string> = {
    "content-type": s.type ?? "application/rss+xml; charset=utf-8",
    ...s.headers,
  };
  const status = s.status ?? 200;
  if (status === 200) {
    if (s.etag !== false) {
      const tag = `"${Bun.hash(s.body).toString(16)}"`;
      headers["etag"] = tag;
      if (req.headers.get("if-none-match") === tag) return new Response(null, { status: 304, headers: { etag: tag } });
    }
    if (s.lastModified) {
      headers["last-modified"] = s.lastModified;
      if (req.headers.get("if-modified-since") === s.lastModified && !req.headers.get("if-none-match")) {
        return new Response(null, { status: 304 });
      }
    }
  }
  return new Response(s.body, { status, headers });
}

export interface Item {
  id: string;
  title: string;
  link?: string | null;
  date?: string;
  content?: string;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function rss(items: Item[], opts: { title?: string; ttl?: number; guids?: boolean } = {}): string {
  const body = items
    .map(
      (i) =>
        `<item><title>${esc(i.title)}</title>${i.link === null ? "" : `<link>${esc(i.link ?? `https://news.example/${i.id}`)}</link>`}` +
        `${opts.guids === false ? "" : `<guid isPermaLink="false">${esc(i.id)}</guid>`}${i.date ? `<pubDate>${new Date(i.date).toUTCString()}</pubDate>` : ""}` +
        `<description>${esc(i.content ?? `About ${i.title}`)}</description></item>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${esc(opts.title ?? "Example News")}</title>` +
    `<link>https://news.example/</link><description>News</description>${opts.ttl ? `<ttl>${opts.ttl}</ttl>` : ""}${body}</channel></rss>`
  );
}

export function atom(items: Item[], opts: { title?: string } = {}): string {
  const body = items
    .map(
      (i) =>
        `<entry><id>urn:example:${esc(i.id)}</id><title type="html">${esc(i.title)}</title>` +
        `<link rel="alternate" type="text/html" href="${esc(i.link ?? `https://blog.example/${i.id}`)}"/>` +
        `<updated>${i.date ?? "2024-01-01T00:00:00Z"}</updated><summary>${esc(i.content ?? i.title)}</summary></entry>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${esc(opts.title ?? "Example Blog")}</title>` +
    `<id>urn:example:blog</id><updated>2024-01-01T00:00:00Z</updated>${body}</feed>`
  );
}

export function rdf(items: Item[]): string {
  const body = items
    .map(
      (i) =>
        `<item rdf:about="${esc(i.link ?? `https://rdf.example/${i.id}`)}"><title>${esc(i.title)}</title>` +
        `<link>${esc(i.link ?? `https://rdf.example/${i.id}`)}</link><dc:date>${i.date ?? "2024-01-01T00:00:00Z"}</dc:date></item>`,
    )
    .join("");
  return (
    `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="https://rdf.example/"><title>Example RDF</title>` +
    `<link>https://rdf.example/</link><description>d</description></channel>${body}</rdf:RDF>`
  );
}

export function jsonFeed(items: Item[], opts: { title?: string } = {}): string {
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: opts.title ?? "Example JSON",
    items: items.map((i) => ({
      id: i.id,
      url: i.link ?? `https://json.example/${i.id}`,
      title: i.title,
      content_text: i.content ?? i.title,
      date_published: i.date,
    })),
  });
}

/** A channel feed shaped like YouTube's: Atom with yt:videoId and yt:channelId. */
export function videoFeed(
  origin: string,
  channelId: string,
  videos: { id: string; title: string; date?: string }[],
): string {
  const body = videos
    .map(
      (v) =>
        `<entry><id>yt:video:${v.id}</id><yt:videoId>${v.id}</yt:videoId><yt:channelId>${channelId}</yt:channelId>` +
        `<title>${esc(v.title)}</title><link rel="alternate" href="${origin}/watch?v=${v.id}"/>` +
        `<published>${v.date ?? "2024-01-01T00:00:00+00:00"}</published><updated>${v.date ?? "2024-01-01T00:00:00+00:00"}</updated></entry>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" ` +
    `xmlns="http://www.w3.org/2005/Atom"><link rel="self" href="${origin}/feeds/videos.xml?channel_id=${channelId}"/><id>yt:channel:${channelId.slice(2)}</id>` +
    `<yt:channelId>${channelId}</yt:channelId><title>Example Channel</title><published>2020-01-01T00:00:00+00:00</published>${body}</feed>`
  );
}

/** A workflow row for watches to belong to (the workflows feature owns the table; tests only need a row). */
export async function insertWorkflow(db: EngineDb, userId: string, active = true): Promise<string> {
  const id = newId("workflow");
  const at = new Date().toISOString();
  await sqlRows(
    db,
    `INSERT INTO workflows (id, user_id, name, active, trigger_type, trigger_json, actions_json, signing_secret, created_at, updated_at)
     VALUES (?, ?, 'feeds test', ${active ? "TRUE" : "FALSE"}, 'webhook', '{"type":"webhook"}', '[{"id":"watch","type":"watch_feed","feed_url":"{{ url }}"}]', 'whsec_test', ?, ?)`,
    id,
    userId,
    at,
    at,
  );
  return id;
}

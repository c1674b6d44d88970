// Test fixture for search and ask: a small library saved through the real API (sources fetched from
// a local site serving Markdown, notes posted), then indexed and embedded by draining the runner.
import { expect } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";

export const TEXTS = {
  bread: `# Baking sourdough bread

A sourdough starter is a living culture of flour and water that leavens the dough without commercial yeast.
Feed the starter twice a day and keep it at room temperature until it doubles within six hours.

## The bake

Bake the loaf in a preheated Dutch oven at 250 degrees for twenty minutes with the lid on, then uncover it.
Let the bread cool for at least an hour before slicing, because the crumb is still setting inside.`,
  tides: `# Life in the tide pools

Tide pools are small worlds left behind when the ocean retreats at low tide.
Anemones fold their tentacles inward to keep moisture in while the sun beats down on the rocks.
Sea stars grip the rock with hundreds of tube feet powered by a water vascular system.`,
  compost: `# Composting at home

A compost heap needs a balance of green material such as grass clippings and brown material such as dry leaves.
Turn the pile every week so that air reaches the microbes that break the scraps down into humus.`,
  orbits: `# How planets orbit

Planets travel around the sun on elliptical orbits, moving fastest when they are closest to it.
Kepler described these laws of planetary motion long before Newton explained them with gravity.`,
};

/** A long article: one topic over many paragraphs, so it is cut into several chunks. */
export function longLighthouse(paragraphs = 14): string {
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `Paragraph ${i + 1}. The lighthouse keeper climbed the spiral stairs at dusk to trim the wick and polish the great lens. ` +
      `Ships passing the headland relied on the lighthouse beam to avoid the reef, and the keeper logged every vessel in a ledger. ` +
      `Storms rattled the lantern room windows while the keeper wound the clockwork that turned the light through the night.`,
  );
  return `# The lighthouse keeper\n\n${body.join("\n\n")}`;
}

/** A local site serving Markdown pages, standing in for the outside web. */
export function startMarkdownSite() {
  const pages = new Map<string, string>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const md = pages.get(new URL(req.url).pathname);
      return md === undefined
        ? new Response("not found", { status: 404 })
        : new Response(md, { headers: { "content-type": "text/markdown; charset=utf-8" } });
    },
  });
  return {
    /** Publishes a page and returns its URL. */
    publish(path: string, markdown: string): string {
      pages.set(path, markdown);
      return `http://127.0.0.1:${server.port}${path}`;
    },
    stop: () => server.stop(true),
  };
}
export type MarkdownSite = ReturnType<typeof startMarkdownSite>;

/** Saves a source from the site and returns its id (indexing happens when the runner drains). */
export async function saveSource(
  ctx: TestContext,
  key: string,
  site: MarkdownSite,
  path: string,
  markdown: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const r = await call(ctx, "POST", "/api/v1/sources", { key, body: { url: site.publish(path, markdown), ...body } });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

export async function saveNote(
  ctx: TestContext,
  key: string,
  content: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const r = await call(ctx, "POST", "/api/v1/notes", { key, body: { content, ...body } });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

export async function search(ctx: TestContext, key: string, body: Record<string, unknown>) {
  return call(ctx, "POST", "/api/v1/search", { key, body });
}

export function chunkText(ctx: TestContext, chunkId: string): string | undefined {
  return ctx.db.sqlite.query<{ text: string }, [string]>("SELECT text FROM chunks WHERE chunk_id = ?").get(chunkId)
    ?.text;
}

export function chunkOwner(ctx: TestContext, chunkId: string): { userId: string; docId: string } | null {
  return ctx.db.sqlite
    .query<{ userId: string; docId: string }, [string]>(
      "SELECT user_id userId, doc_id docId FROM chunks WHERE chunk_id = ?",
    )
    .get(chunkId);
}

/** Rows the index holds for a document (chunks, float vectors), and the binary codes of the whole active model. */
export function indexRows(ctx: TestContext, docId: string): { chunks: number; vectors: number; totalCodes: number } {
  const q = <T>(sql: string, ...args: (string | number)[]) => ctx.db.sqlite.query<T, any[]>(sql).get(...args)!;
  const chunks = q<{ n: number }>("SELECT count(*) n FROM chunks WHERE doc_id = ?", docId).n;
  const vectors = q<{ n: number }>(
    "SELECT count(*) n FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid WHERE c.doc_id = ?",
    docId,
  ).n;
  const slot = ctx.db.sqlite
    .query<{ slot: number }, []>("SELECT slot FROM embedding_models WHERE state = 'active'")
    .get()?.slot;
  const totalCodes = slot === undefined ? 0 : q<{ n: number }>(`SELECT count(*) n FROM vecidx_${slot}`).n;
  return { chunks, vectors, totalCodes };
}

export const MODES = ["text", "vector", "hybrid"] as const;

// Test fixture for search and ask: a small library saved through the real API (sources fetched from
// a local site serving Markdown, notes posted), then indexed and embedded by draining the runner.
import { expect } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";
import { databaseUrl } from "../../config.ts";
import { testSchemaName } from "../../db/client.ts";
import { sqlRow } from "../../db/inspect.ts";
import type { EngineDb } from "../../db/port.ts";
import { openSharedDatabase } from "../../jobs/testing.ts";

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

export async function chunkText(ctx: TestContext, chunkId: string): Promise<string | undefined> {
  return (await sqlRow<{ text: string }>(ctx.db, "SELECT text FROM chunks WHERE chunk_id = ?", chunkId))?.text;
}

export async function chunkOwner(ctx: TestContext, chunkId: string): Promise<{ userId: string; docId: string } | null> {
  return (
    (await sqlRow<{ userId: string; docId: string }>(
      ctx.db,
      'SELECT user_id "userId", doc_id "docId" FROM chunks WHERE chunk_id = ?',
      chunkId,
    )) ?? null
  );
}

/** Rows the index holds for a document (chunks, float vectors), and the binary codes of the whole active model. */
export async function indexRows(
  ctx: TestContext,
  docId: string,
): Promise<{ chunks: number; vectors: number; totalCodes: number }> {
  const n = async (sql: string, ...args: (string | number)[]) => (await sqlRow<{ n: number }>(ctx.db, sql, ...args))!.n;
  const chunks = await n("SELECT count(*) n FROM chunks WHERE doc_id = ?", docId);
  const vectors = await n(
    "SELECT count(*) n FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid WHERE c.doc_id = ?",
    docId,
  );
  const slot = (await sqlRow<{ slot: number }>(ctx.db, "SELECT slot FROM embedding_models WHERE state = 'active'"))
    ?.slot;
  // PostgreSQL keeps every model's codes in chunk_codes; SQLite one vec0 table per model.
  const codes =
    ctx.db.engine === "postgres"
      ? `SELECT count(*) n FROM chunk_codes WHERE slot = ${slot}`
      : `SELECT count(*) n FROM vecidx_${slot}`;
  const totalCodes = slot === undefined ? 0 : await n(codes);
  return { chunks, vectors, totalCodes };
}

export const MODES = ["text", "vector", "hybrid"] as const;

/** Opens one database again and again (a restart): the SQLite file, or one schema on PostgreSQL. */
export function reopenable(file: string): () => EngineDb {
  const location = databaseUrl() ? `pg:${testSchemaName()}` : file;
  return () => openSharedDatabase(location);
}

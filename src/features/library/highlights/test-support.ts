// Test helpers for highlights: a local site serving Markdown pages that a test may change (to refetch
// them), and a source saved from it and ingested until ready.
import { expect } from "bun:test";
import { call, type TestContext } from "../../../../test/helpers.ts";

export function startPages(initial: Record<string, string> = {}) {
  const pages = new Map(Object.entries(initial));
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const body = pages.get(new URL(req.url).pathname);
      if (body === undefined) return new Response("missing", { status: 404 });
      return new Response(body, { headers: { "content-type": "text/markdown; charset=utf-8" } });
    },
  });
  return {
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    set: (path: string, markdown: string) => void pages.set(path, markdown),
    stop: () => server.stop(true),
  };
}

/** Saves a page and runs ingestion until it is ready; returns the source. */
export async function readySource(ctx: TestContext, key: string, url: string, body: Record<string, unknown> = {}) {
  const r = await call(ctx, "POST", "/api/v1/sources", { key, body: { url, ...body } });
  expect(r.status).toBeLessThan(300);
  await ctx.runner.drain();
  const got = await call(ctx, "GET", `/api/v1/sources/${r.body.id}`, { key });
  expect(got.body.status).toBe("ready");
  return got.body as { id: string; title: string | null; url: string };
}

export const ARTICLE = [
  "# Tide pools",
  "",
  "Tide pools are small worlds left behind when the ocean retreats. The sea comes back fast.",
  "",
  "Sea stars grip the rock with *hundreds* of tube feet. Later, the sea comes back fast again.",
].join("\n");

// A link saved by hand goes before an import: while its fetch is in flight, the import creates no
// records (up to IMPORT_YIELD_MAX_MS per slice); once the save is ready the import carries on.
import { expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { sqlRow } from "../../db/inspect.ts";
import { deferred } from "../../jobs/testing.ts";
import { upload } from "./test-support.ts";

test("an import waits for a save in flight before creating records", async () => {
  const hit = deferred();
  const release = deferred();
  const site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (new URL(req.url).pathname !== "/slow") return new Response("gone", { status: 404 });
      hit.resolve();
      await release.promise;
      return new Response(
        "<html><head><title>Slow page</title></head><body><article><p>A page that took its time to arrive, with enough words in it to be an article worth keeping for later reading.</p></article></body></html>",
        {
          headers: { "content-type": "text/html" },
        },
      );
    },
  });
  let importedWhenReady = -1;
  const ctx = createTestContext(
    { IMPORT_YIELD_MAX_MS: "60000" },
    {
      listeners: {
        sourceReady: async (_actor, row) => {
          if (row.url.endsWith("/slow")) {
            const r = await sqlRow<{ n: number }>(
              ctx.db,
              "SELECT count(*) AS n FROM sources WHERE import_id IS NOT NULL",
            );
            importedWhenReady = r!.n;
          }
        },
      },
    },
  );
  try {
    const u = await userWithKey(ctx);
    ctx.runner.start();
    const saved = await call(ctx, "POST", "/api/v1/sources", {
      key: u.key,
      body: { url: `http://127.0.0.1:${site.port}/slow` },
    });
    expect(saved.status).toBe(201);
    await hit.promise; // the save's fetch is in flight

    const links = Array.from(
      { length: 30 },
      (_, i) => `<DT><A HREF="http://127.0.0.1:${site.port}/page-${i}">Page ${i}</A>`,
    ).join("\n");
    const up = await upload(ctx, u.key, `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${links}\n</DL><p>\n`, {
      format: "netscape",
    });
    expect(up.status).toBe(202);
    const importNow = async () => (await call(ctx, "GET", `/api/v1/imports/${up.body.id}`, { key: u.key })).body;
    // Let the runner claim the import job and give it many turns of the event loop.
    for (let i = 0; i < 200 && (await importNow()).status === "queued"; i++)
      await new Promise<void>((r) => setImmediate(r));
    for (let i = 0; i < 50; i++) await new Promise<void>((r) => setImmediate(r));
    expect((await importNow()).counts.created).toBe(0);

    release.resolve();
    await ctx.runner.stop({ graceMs: 30_000 });
    await ctx.runner.drain({ timeoutMs: 30_000 });
    expect(importedWhenReady).toBe(0);
    const done = await importNow();
    expect(done.status).toBe("succeeded");
    expect(done.counts.created).toBe(30);
  } finally {
    await ctx.runner.stop();
    void site.stop(true);
  }
}, 60_000);

// Highlights in the exports: under each source of a notebook's Markdown zip, and in the account's JSON.
import { afterAll, expect, test } from "bun:test";
import JSZip from "jszip";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { ARTICLE, readySource, startPages } from "./test-support.ts";

const site = startPages({ "/tides": ARTICLE, "/bare": "# Bare\n\nNothing highlighted here." });
afterAll(() => site.stop());

test("the notebook zip quotes each source's highlights in text order, with notes and the orphaned mark", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Sea" } })).body;
  const src = await readySource(ctx, a.key, site.url("/tides"), { notebook_ids: [nb.id] });
  await readySource(ctx, a.key, site.url("/bare"), { notebook_ids: [nb.id] });
  const hl = (exact: string, note?: string) =>
    call(ctx, "POST", "/api/v1/highlights", { key: a.key, body: { source_id: src.id, exact, note } });
  await hl("tube feet", "Hundreds of them.\nReally.");
  await hl("small worlds");
  // Another user's highlight of the same page never shows.
  const bsrc = await readySource(ctx, b.key, site.url("/tides"));
  await call(ctx, "POST", "/api/v1/highlights", { key: b.key, body: { source_id: bsrc.id, exact: "Tide pools" } });

  const res = await ctx.app.handle(
    new Request(`http://localhost/api/v1/notebooks/${nb.id}/export/markdown`, {
      headers: { authorization: `Bearer ${a.key}` },
    }),
  );
  const zip = await JSZip.loadAsync(await res.arrayBuffer());
  const tides = await zip.file("sources/tide-pools.md")!.async("string");
  expect(
    tides.endsWith("again.\n\n## Highlights\n\n> small worlds\n\n> tube feet\n\nNote: Hundreds of them.\nReally.\n"),
  ).toBe(true);
  expect(await zip.file("sources/bare.md")!.async("string")).not.toContain("## Highlights");
});

test("the account JSON export carries a highlights array", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const src = await readySource(ctx, a.key, site.url("/tides"));
  const h = (
    await call(ctx, "POST", "/api/v1/highlights", {
      key: a.key,
      body: { source_id: src.id, exact: "tube feet", color: "blue", note: "n" },
    })
  ).body;
  const r = await call(ctx, "GET", "/api/v1/export?format=json", { key: a.key });
  expect(r.status).toBe(200);
  expect(r.body.highlights).toEqual([h]);
  expect(Object.keys(r.body)).toEqual([
    "format",
    "version",
    "exported_at",
    "account",
    "notebooks",
    "sources",
    "notes",
    "highlights",
    "podcasts",
    "workflows",
    "feed_watches",
  ]);
});

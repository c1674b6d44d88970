// Highlights in search and ask: indexed by quote and note on create and update, gone on delete,
// scoped by notebook, and cited by ask as their source with the highlight's id.
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { ARTICLE, readySource, startPages } from "./test-support.ts";

const site = startPages({ "/tides": ARTICLE });
afterAll(() => site.stop());

const search = async (ctx: ReturnType<typeof createTestContext>, key: string, body: Record<string, unknown>) => {
  const r = await call(ctx, "POST", "/api/v1/search", { key, body });
  expect(r.status).toBe(200);
  return r.body.data as { type: string; id: string; source_id?: string; title: string | null; url: string | null }[];
};

describe("highlights in search", () => {
  test("found with types [highlight] by quote or note, carrying the source; updated and dropped with it", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Sea" } })).body;
    const other = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Other" } })).body;
    const src = await readySource(ctx, a.key, site.url("/tides"), { notebook_ids: [nb.id] });
    const h = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: a.key,
        body: { source_id: src.id, exact: "tube feet", note: "Compare with octopus suckers" },
      })
    ).body;
    for (const mode of ["text", "hybrid"]) {
      const hits = await search(ctx, a.key, { query: "octopus suckers", types: ["highlight"], mode });
      expect(hits).toEqual([
        expect.objectContaining({ type: "highlight", id: h.id, source_id: src.id, title: "Tide pools", url: src.url }),
      ]);
    }
    // The quote is found too, and only highlights come back with that type.
    const byQuote = await search(ctx, a.key, { query: "tube feet", types: ["highlight"] });
    expect(byQuote.map((x) => x.id)).toEqual([h.id]);
    // Without types, the source and the highlight are both hits.
    const all = await search(ctx, a.key, { query: "tube feet" });
    expect(new Set(all.map((x) => x.type))).toEqual(new Set(["source", "highlight"]));
    // Scoped to a notebook: the notebook of its source, not another.
    expect((await search(ctx, a.key, { query: "octopus", notebook_id: nb.id })).map((x) => x.id)).toEqual([h.id]);
    expect(await search(ctx, a.key, { query: "octopus", notebook_id: other.id })).toEqual([]);
    // Another user finds nothing.
    expect(await search(ctx, b.key, { query: "octopus", types: ["highlight"] })).toEqual([]);
    // A new note is indexed in place of the old one.
    await call(ctx, "PATCH", `/api/v1/highlights/${h.id}`, { key: a.key, body: { note: "Like velcro" } });
    expect(await search(ctx, a.key, { query: "octopus", types: ["highlight"] })).toEqual([]);
    expect((await search(ctx, a.key, { query: "velcro", types: ["highlight"] })).map((x) => x.id)).toEqual([h.id]);
    await call(ctx, "DELETE", `/api/v1/highlights/${h.id}`, { key: a.key });
    expect(await search(ctx, a.key, { query: "velcro" })).toEqual([]);
    expect(
      (await call(ctx, "POST", "/api/v1/search", { key: a.key, body: { query: "x", types: ["quote"] } })).status,
    ).toBe(422);
  });

  test("ask cites a highlight as its source with highlight_id", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const src = await readySource(ctx, a.key, site.url("/tides"));
    const h = (
      await call(ctx, "POST", "/api/v1/highlights", {
        key: a.key,
        body: {
          source_id: src.id,
          exact: "Sea stars grip the rock",
          note: "Mussels use byssal threads instead of tube feet to stay attached.",
        },
      })
    ).body;
    await ctx.runner.drain();
    for (const body of [
      { question: "What are byssal threads used for?" },
      { question: "What do byssal threads do?", source_ids: [src.id] },
    ]) {
      const r = await call(ctx, "POST", "/api/v1/search/ask", { key: a.key, body });
      expect(r.status).toBe(200);
      const cited = r.body.citations.find((c: { highlight_id?: string }) => c.highlight_id === h.id);
      expect(cited).toMatchObject({ type: "source", id: src.id, title: "Tide pools", url: src.url });
      expect(cited.quote).toContain("byssal");
    }
  });
});

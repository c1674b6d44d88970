// Relevance with the builtin neural embedder, end to end: paraphrases found by meaning, nothing for
// queries about nothing in the library, text hits first in hybrid, scoped results stay relevant,
// and a source shows its embedding progress.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import type { NeuralEmbedder } from "../../ai/embedder/neural.ts";
import { saveNote, saveSource, search, startMarkdownSite, TEXTS } from "./library.fixture.ts";

const site = startMarkdownSite();
const ctx = createTestContext({ EMBEDDER: "builtin" });
let key = "";
const ids = { bread: "", tides: "", compost: "", orbits: "" };
let nb = "";

beforeAll(async () => {
  const a = await userWithKey(ctx);
  key = a.key;
  nb = (await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "Kitchen" } })).body.id;
  ids.bread = await saveSource(ctx, key, site, "/bread", TEXTS.bread, { notebook_ids: [nb] });
  ids.tides = await saveSource(ctx, key, site, "/tides", TEXTS.tides);
  ids.compost = await saveNote(ctx, key, TEXTS.compost, { title: "Compost", notebook_id: nb });
  ids.orbits = await saveNote(ctx, key, TEXTS.orbits, { title: "Orbits" });
  await ctx.runner.drain({ timeoutMs: 110_000 });
}, 120_000);
afterAll(async () => {
  void site.stop();
  await (ctx.services.ai.embedder as NeuralEmbedder).release();
  ctx.db.close();
});

const find = async (body: Record<string, unknown>) => {
  const r = await search(ctx, key, body);
  expect(r.status).toBe(200);
  return r.body.data as { id: string; snippet: string; highlights: { start: number; end: number }[] }[];
};

describe("relevance with the builtin neural embedder", () => {
  // The floor fitted on the held-out pages (0.27) is above the weakest paraphrase's cosine here
  // ("how fast do worlds circle their star", ≈ 0.24, now empty); a closer one still finds it by meaning.
  test("a paraphrase sharing no rare word finds its document by vector", async () => {
    const hits = await find({ query: "speed of worlds going around a star", mode: "vector" });
    expect(hits[0]?.id).toBe(ids.orbits);
  }, 60_000);

  test.each(["vector", "hybrid"])(
    "%s: a query about nothing in the library returns nothing",
    async (mode) => {
      expect(await find({ query: "kubernetes pod eviction policy", mode })).toEqual([]);
    },
    60_000,
  );

  test("vector results are not padded up to the limit with unrelated documents", async () => {
    const hits = await find({ query: "sea anemones at low tide", mode: "vector", limit: 10 });
    expect(hits[0]?.id).toBe(ids.tides);
    expect(hits.map((h) => h.id)).not.toContain(ids.orbits);
  }, 60_000);

  test("hybrid puts the strong text hit first", async () => {
    const hits = await find({ query: "Dutch oven lid", mode: "hybrid" });
    expect(hits[0]?.id).toBe(ids.bread);
  }, 60_000);

  test("scoped search returns only relevant hits in the notebook", async () => {
    const hits = await find({ query: "rotting kitchen scraps into soil", mode: "hybrid", notebook_id: nb });
    expect(hits.map((h) => h.id)).toEqual([ids.compost]);
  }, 60_000);

  test("a source shows its embedding progress", async () => {
    const r = await call(ctx, "GET", `/api/v1/sources/${ids.bread}`, { key });
    expect(r.body.embedding.status).toBe("done");
    expect(r.body.embedding.chunks_total).toBeGreaterThan(0);
    expect(r.body.embedding.chunks_done).toBe(r.body.embedding.chunks_total);
  }, 60_000);
});

// POST /api/v1/search end to end: modes, grouping, filters, isolation, sanitised input, index upkeep.
import { FUSION } from "./service.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import {
  chunkOwner,
  indexRows,
  longLighthouse,
  MODES,
  saveNote,
  saveSource,
  search,
  startMarkdownSite,
  TEXTS,
} from "./library.fixture.ts";

const site = startMarkdownSite();
afterAll(() => site.stop());
let page = 0;
const path = (name: string) => `/${name}-${++page}`;

async function library() {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Coast" } })).body;
  const ids = {
    bread: await saveSource(ctx, a.key, site, path("bread"), TEXTS.bread),
    lighthouse: await saveSource(ctx, a.key, site, path("lighthouse"), longLighthouse(), { notebook_ids: [nb.id] }),
    orbits: await saveSource(ctx, a.key, site, path("orbits"), TEXTS.orbits),
    tides: await saveNote(ctx, a.key, TEXTS.tides, { title: "Tide pools", notebook_id: nb.id }),
    compost: await saveNote(ctx, a.key, TEXTS.compost, { title: "Compost" }),
  };
  await ctx.runner.drain();
  return { ctx, a, nb, ids };
}

describe("search over a small library", () => {
  let lib: Awaited<ReturnType<typeof library>>;
  beforeAll(async () => {
    lib = await library();
  }, 60_000);
  const find = (body: Record<string, unknown>) => search(lib.ctx, lib.a.key, body);

  test.each(MODES)("%s ranks the best document first, with snippet, highlights, score and chunk_id", async (mode) => {
    const r = await find({ query: "sourdough starter flour", mode });
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe(mode);
    const [top] = r.body.data;
    expect(top).toMatchObject({ type: "source", id: lib.ids.bread, title: "Baking sourdough bread" });
    expect(top.url).toStartWith("http://127.0.0.1:");
    expect(top.score).toBeGreaterThan(0);
    expect(await chunkOwner(lib.ctx, top.chunk_id)).toEqual({ userId: lib.a.userId, docId: lib.ids.bread });
    // Plain text of about 200 characters: Markdown marks are gone.
    expect(top.snippet.length).toBeGreaterThan(40);
    expect(top.snippet.length).toBeLessThanOrEqual(225);
    expect(top.snippet).not.toMatch(/[#*`]/);
    expect(top.highlights.length).toBeGreaterThan(0);
    for (const h of top.highlights)
      expect(top.snippet.slice(h.start, h.end).toLowerCase()).toMatch(/^(sourdough|starter|flour)$/);
    const scores = r.body.data.map((d: { score: number }) => d.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
  });

  test("hybrid scores add text evidence to the cosine: first in both, it outscores vector alone", async () => {
    // Was reciprocal rank fusion (2/61 for a first-in-both hit); now cosine + (textWeight +
    // coverageWeight · coverage^exponent) · b/(b + k).
    const h = await find({ query: "sourdough starter flour", mode: "hybrid" });
    const v = await find({ query: "sourdough starter flour", mode: "vector" });
    expect(h.body.data[0].id).toBe(v.body.data[0].id);
    expect(h.body.data[0].score).toBeGreaterThan(v.body.data[0].score);
    expect(h.body.data[0].score).toBeLessThan(v.body.data[0].score + FUSION.textWeight + FUSION.coverageWeight);
  });

  test.each(MODES)("%s groups several chunks of one document into one result", async (mode) => {
    const chunks = (await sqlRow<{ n: number }>(
      lib.ctx.db,
      "SELECT count(*) n FROM chunks WHERE doc_id = ?",
      lib.ids.lighthouse,
    ))!.n;
    expect(chunks).toBeGreaterThanOrEqual(3);
    const r = await find({ query: "lighthouse keeper lens", mode });
    const ids = r.body.data.map((d: { id: string }) => d.id);
    expect(ids[0]).toBe(lib.ids.lighthouse);
    expect(ids.filter((id: string) => id === lib.ids.lighthouse)).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test.each(MODES)("%s filters by type", async (mode) => {
    const notes = await find({ query: "tide pools anemones compost heap sourdough", mode, types: ["note"] });
    expect(notes.body.data.length).toBeGreaterThan(0);
    for (const d of notes.body.data) expect(d.type).toBe("note");
    const sources = await find({ query: "tide pools anemones compost heap sourdough", mode, types: ["source"] });
    expect(sources.body.data.length).toBeGreaterThan(0);
    for (const d of sources.body.data) expect(d.type).toBe("source");
    expect(sources.body.data.map((d: { id: string }) => d.id)).not.toContain(lib.ids.tides);
  });

  test.each(MODES)("%s filters by notebook (its sources and its notes)", async (mode) => {
    const r = await find({
      query: "lighthouse keeper tide pools sourdough compost planets",
      mode,
      notebook_id: lib.nb.id,
    });
    const ids = r.body.data.map((d: { id: string }) => d.id);
    expect(ids.sort()).toEqual([lib.ids.lighthouse, lib.ids.tides].sort());
    const typed = await find({ query: "lighthouse keeper tide pools", mode, notebook_id: lib.nb.id, types: ["note"] });
    expect(typed.body.data.map((d: { id: string }) => d.id)).toEqual([lib.ids.tides]);
  });

  test("a notebook of another user filters everything out", async () => {
    const b = await userWithKey(lib.ctx);
    const theirs = (await call(lib.ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "Theirs" } })).body;
    for (const mode of MODES) {
      const r = await find({ query: "lighthouse keeper", mode, notebook_id: theirs.id });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    }
  });

  test("limit caps the results; outside 1–50 is 422", async () => {
    for (const mode of MODES) {
      const r = await find({ query: "the lighthouse tide sourdough compost planets", mode, limit: 2 });
      expect(r.body.data).toHaveLength(2);
    }
    for (const limit of [0, 51]) {
      const r = await find({ query: "x", limit });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].path).toBe("limit");
    }
  });

  test("a query of only stopwords is still searched", async () => {
    const r = await find({ query: "the of and", mode: "text", limit: 50 });
    expect(r.body.data.length).toBe(5);
  });

  test.each([
    [{ query: "x", mode: "fuzzy" }, "mode"],
    [{ mode: "text" }, "query"],
    [{ query: "" }, "query"],
    [{ query: "   " }, "query"],
    [{ query: "x", types: ["web"] }, "types[0]"],
    [{ query: "x", types: [] }, "types"],
    [{ query: "x", notebook_id: "nope" }, "notebook_id"],
    [{ query: "x".repeat(1001) }, "query"],
  ])("%j is 422 naming %s", async (body, field) => {
    const r = await find(body);
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toMatchObject({ code: "validation_failed", status: 422 });
    expect(r.body.errors[0].path).toBe(field);
  });

  test("no key is 401", async () => {
    const r = await call(lib.ctx, "POST", "/api/v1/search", { body: { query: "bread" } });
    expect(r.status).toBe(401);
  });

  // FTS5 syntax in user input must be words, never an error.
  const hostile = [
    '"',
    "*",
    "NEAR(",
    "-",
    '"sourdough',
    "sourdough*",
    "NEAR(sourdough starter)",
    "-starter",
    "title:sourdough",
    "text:sourdough",
    "sourdough AND OR NOT",
    "(sourdough",
    "^sourdough",
    "'; DROP TABLE chunks; --",
  ];
  test.each(hostile)("%j is answered, never a 500", async (query) => {
    for (const mode of MODES) {
      const r = await find({ query, mode });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body.data)).toBe(true);
    }
    if (/sourdough/.test(query)) {
      const r = await find({ query, mode: "text" });
      expect(r.body.data[0].id).toBe(lib.ids.bread);
    }
  });

  test.each(["!!! ???", "…—–", "🙂"])("%j (no words) finds nothing in every mode", async (query) => {
    for (const mode of MODES) {
      const r = await find({ query, mode });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    }
  });
});

describe("title weight", () => {
  test("text search ranks a title match above the same words in a body", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const body = "A few words about brass instruments and how they are tuned before a concert.";
    const plain = await saveNote(ctx, a.key, body, { title: "Music" });
    const titled = await saveNote(ctx, a.key, body, { title: "Tuning brass" });
    await ctx.runner.drain();
    const r = await search(ctx, a.key, { query: "tuning", mode: "text" });
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual([titled, plain]);
  });
});

describe("isolation", () => {
  test("another user's documents never appear, even when they match better", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const mine = [
      await saveSource(ctx, a.key, site, path("a-orbits"), TEXTS.orbits),
      await saveNote(ctx, a.key, "Sourdough is mentioned once here."),
    ];
    // B holds exactly what A is about to search for, and more of it.
    await saveSource(ctx, b.key, site, path("b-bread"), TEXTS.bread);
    await saveNote(ctx, b.key, `${TEXTS.bread}\n\nSourdough starter, sourdough starter, sourdough starter.`, {
      title: "Sourdough starter",
    });
    await ctx.runner.drain();
    for (const mode of MODES) {
      for (const query of ["sourdough starter", "planets orbit", "Dutch oven bake loaf"]) {
        const r = await search(ctx, a.key, { query, mode, limit: 50 });
        for (const d of r.body.data) {
          expect(mine).toContain(d.id);
          expect((await chunkOwner(ctx, d.chunk_id))!.userId).toBe(a.userId);
        }
      }
    }
  });
});

describe("the index follows the library", () => {
  async function seeded() {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const src = await saveSource(ctx, a.key, site, path("bread"), TEXTS.bread);
    const note = await saveNote(ctx, a.key, TEXTS.tides, { title: "Tide pools" });
    const other = await saveNote(ctx, a.key, TEXTS.compost);
    await ctx.runner.drain();
    return { ctx, a, src, note, other };
  }
  const idsFor = async (ctx: TestContext, key: string, query: string, mode: string) =>
    (await search(ctx, key, { query, mode, limit: 50 })).body.data.map((d: { id: string }) => d.id);

  test("every chunk gets a vector and a binary code, and points into the stored Markdown", async () => {
    const { ctx, a, src, note } = await seeded();
    const content = (await call(ctx, "GET", `/api/v1/sources/${src}?include=content`, { key: a.key })).body
      .content as string;
    const spans = await sqlRows<{ text: string; start: number; end: number }>(
      ctx.db,
      'SELECT text, start_offset start, end_offset "end" FROM chunks WHERE doc_id = ?',
      src,
    );
    expect(spans.length).toBeGreaterThan(0);
    for (const c of spans) expect(content.slice(c.start, c.end)).toBe(c.text);
    for (const id of [src, note]) {
      const rows = await indexRows(ctx, id);
      expect(rows.chunks).toBeGreaterThan(0);
      expect(rows.vectors).toBe(rows.chunks);
    }
    const total = (await sqlRow<{ n: number }>(ctx.db, "SELECT count(*) n FROM chunks"))!.n;
    expect((await indexRows(ctx, src)).totalCodes).toBe(total);
  });

  test("deleting a source removes its chunks, vectors and codes", async () => {
    const { ctx, a, src } = await seeded();
    const before = await indexRows(ctx, src);
    const rowids = (await sqlRows<{ id: number }>(ctx.db, "SELECT id FROM chunks WHERE doc_id = ?", src)).map(
      (r) => r.id,
    );
    const codesOf = async () =>
      (await sqlRow<{ n: number }>(
        ctx.db,
        `SELECT count(*) n FROM chunk_codes WHERE chunk_rowid IN (${rowids.join(",")})`,
      ))!.n;
    if (ctx.db.engine === "postgres") expect(await codesOf()).toBe(rowids.length);
    expect((await call(ctx, "DELETE", `/api/v1/sources/${src}`, { key: a.key })).status).toBe(200);
    const after = await indexRows(ctx, src);
    expect(after).toMatchObject({ chunks: 0, vectors: 0 });
    // On PostgreSQL the source's own codes are counted: the whole-table count came out one higher than
    // expected once, under heavy load (not yet explained; noted on the issue). SQLite counts its vec0 table.
    if (ctx.db.engine === "postgres") expect(await codesOf()).toBe(0);
    else expect(after.totalCodes).toBe(before.totalCodes - before.chunks);
    for (const mode of MODES) expect(await idsFor(ctx, a.key, "sourdough starter bread", mode)).not.toContain(src);
  });

  test("deleting a note removes its chunks, vectors and codes", async () => {
    const { ctx, a, note } = await seeded();
    const before = await indexRows(ctx, note);
    expect((await call(ctx, "DELETE", `/api/v1/notes/${note}`, { key: a.key })).status).toBe(200);
    const after = await indexRows(ctx, note);
    expect(after).toMatchObject({ chunks: 0, vectors: 0 });
    expect(after.totalCodes).toBe(before.totalCodes - before.chunks);
    for (const mode of MODES) expect(await idsFor(ctx, a.key, "tide pools anemones", mode)).not.toContain(note);
  });

  test("a refetched source whose page changed is re-chunked", async () => {
    const { ctx, a } = await seeded();
    const p = path("changing");
    const id = await saveSource(
      ctx,
      a.key,
      site,
      p,
      "# Volcanoes\n\nMagma rises through the crust and erupts as lava.",
    );
    await ctx.runner.drain();
    expect(await idsFor(ctx, a.key, "magma lava", "text")).toContain(id);
    site.publish(p, "# Deserts\n\nDunes migrate as the wind moves sand grains across the desert floor.");
    expect((await call(ctx, "POST", `/api/v1/sources/${id}/refetch`, { key: a.key })).status).toBe(202);
    await ctx.runner.drain();
    for (const mode of MODES) expect((await idsFor(ctx, a.key, "dunes sand wind desert", mode))[0]).toBe(id);
    expect(await idsFor(ctx, a.key, "magma lava", "text")).not.toContain(id);
    const rows = await indexRows(ctx, id);
    expect(rows.vectors).toBe(rows.chunks);
  });

  test("changing a note's content re-chunks and re-embeds it", async () => {
    const { ctx, a, note } = await seeded();
    const oldChunks = await sqlRows<{ id: string }>(ctx.db, "SELECT chunk_id id FROM chunks WHERE doc_id = ?", note);
    const r = await call(ctx, "PATCH", `/api/v1/notes/${note}`, {
      key: a.key,
      body: { content: "# Glaciers\n\nGlaciers carve valleys as the ice grinds over bedrock for thousands of years." },
    });
    expect(r.status).toBe(200);
    // Text search sees the change at once (same transaction); the old words are gone.
    expect(await idsFor(ctx, a.key, "anemones tentacles", "text")).not.toContain(note);
    expect(await idsFor(ctx, a.key, "glaciers bedrock", "text")).toContain(note);
    await ctx.runner.drain();
    const newChunks = await sqlRows<{ id: string }>(ctx.db, "SELECT chunk_id id FROM chunks WHERE doc_id = ?", note);
    expect(newChunks.some((c) => oldChunks.some((o) => o.id === c.id))).toBe(false);
    const rows = await indexRows(ctx, note);
    expect(rows.vectors).toBe(rows.chunks);
    const top = (await search(ctx, a.key, { query: "glaciers carve valleys", mode: "vector" })).body.data[0];
    expect(top.id).toBe(note);
    expect(newChunks.map((c) => c.id)).toContain(top.chunk_id);
  });
});

test("renaming a ready source re-indexes its title", async () => {
  const web = startOutsideWeb();
  try {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const s = (await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: web.url("/article") } })).body;
    await ctx.runner.drain();
    const before = await call(ctx, "POST", "/api/v1/search", { key: u.key, body: { query: "zanzibarquokka" } });
    expect(before.body.data).toEqual([]);
    await call(ctx, "PATCH", `/api/v1/sources/${s.id}`, { key: u.key, body: { title: "Zanzibarquokka field guide" } });
    await ctx.runner.drain();
    const after = await call(ctx, "POST", "/api/v1/search", { key: u.key, body: { query: "zanzibarquokka" } });
    expect(after.body.data.map((h: any) => h.id)).toEqual([s.id]);
    expect(after.body.data[0].title).toBe("Zanzibarquokka field guide");
  } finally {
    void web.stop();
  }
});

// The search quality self-test end to end on a small real library (saved through the API, fetched,
// indexed and embedded by the runner): the API, the job, its progress, owner scoping, and a search
// made while a run is going. Runs on SQLite and, with DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import type { PublishedEvent } from "../events/service.ts";
import { saveSource, startMarkdownSite, TEXTS } from "../search/library.fixture.ts";

const site = startMarkdownSite();
afterAll(() => site.stop());
let page = 0;

const MORE = {
  glaciers: `# How glaciers carve valleys

A glacier grinds the bedrock beneath it as it slides downhill under its own enormous weight over centuries.
The ice plucks boulders from the valley floor and drags them along like sandpaper.

## Moraines and erratics

When the ice melts back it leaves ridges of rubble called moraines and lone boulders far from home.`,
  chess: `# Opening principles in chess

Control the centre of the board early with pawns and knights before launching any attack on the king.
Develop every minor piece before moving the queen a second time.

## Castling early

Castle within the first ten moves so the king is safe and the rooks are connected.`,
};

/** Saves every text as a source of the user and returns their ids. */
async function library(ctx: TestContext, key: string, texts: Record<string, string>): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [name, md] of Object.entries(texts))
    ids[name] = await saveSource(ctx, key, site, `/${name}-${++page}`, md);
  return ids;
}

const start = (ctx: TestContext, key: string, body: Record<string, unknown> = {}) =>
  call(ctx, "POST", "/api/v1/search/quality", { key, body });
const latest = (ctx: TestContext, key: string) => call(ctx, "GET", "/api/v1/search/quality", { key });

describe("a search quality run on a small library", () => {
  let ctx: TestContext;
  let a: Awaited<ReturnType<typeof userWithKey>>;
  let b: Awaited<ReturnType<typeof userWithKey>>;
  let ids: Record<string, string>;
  const texts = { ...TEXTS, ...MORE };

  beforeAll(async () => {
    ctx = createTestContext();
    a = await userWithKey(ctx);
    b = await userWithKey(ctx);
    ids = await library(ctx, a.key, texts);
    // The other user holds the very same articles: a search that leaked across owners would find
    // b's copy as often as a's, and a's recall@1 would drop below 1.
    await library(ctx, b.key, texts);
    await ctx.runner.drain({ timeoutMs: 60_000 });
  }, 120_000);

  test("before any run: 404; a bad sample size is 422 naming the field", async () => {
    expect((await latest(ctx, a.key)).status).toBe(404);
    const bad = await start(ctx, a.key, { sample: 1 });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("sample");
  });

  test("start answers 202 with the queued run; a second start returns the same run; the job reports recall", async () => {
    const first = await start(ctx, a.key, { seed: 7 });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: "queued", seed: 7, sample: 50, report: null });
    expect(first.body.id).toMatch(/^sqr_/);
    const again = await start(ctx, a.key, { seed: 8 });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);

    await ctx.runner.drain({ timeoutMs: 60_000 });
    const r = await latest(ctx, a.key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: first.body.id, status: "done", error: null });
    const report = r.body.report;
    // Six sources, each with a title and a first sentence; three have a heading besides the title.
    expect(report).toMatchObject({ seed: 7, ready_sources: 6, sampled: 6, embedded: 6 });
    expect(report.queries).toEqual({ title: 6, heading: 3, paraphrase: 6, total: 15 });
    expect(r.body.progress).toEqual({ done: 15 * 3, total: 15 * 3 });
    expect(report.embedder).toBe(ctx.services.ai.embedder.id);
    expect(report.configured_embedder).toBe(ctx.services.ai.embedder.id);
    expect(r.body.embedder).toBe(report.embedder);
    const text = report.modes.find((m: { mode: string }) => m.mode === "text");
    // Titles are words of their own source: text search finds each first, and never b's copy.
    expect(text.kinds.find((k: { kind: string }) => k.kind === "title")).toEqual({
      kind: "title",
      queries: 6,
      recall_at_1: 1,
      recall_at_5: 1,
    });
    expect(text.recall_at_5).toBeGreaterThanOrEqual(0.9);
    // Vector and hybrid figures depend on the embedder (and, on PostgreSQL, on what the vector index
    // holds in memory: see decisions.md); here only their shape is checked.
    for (const m of report.modes) {
      expect(m.errors).toBe(0);
      expect(m.queries).toBe(15);
      expect(m.recall_at_5).toBeGreaterThanOrEqual(m.recall_at_1);
      expect(m.kinds.map((k: { queries: number }) => k.queries)).toEqual([6, 3, 6]);
    }
    for (const miss of report.misses) expect(Object.values(ids)).toContain(miss.source_id);
  }, 60_000);

  test("the same seed on the same library gives the same figures", async () => {
    const before = (await latest(ctx, a.key)).body.report;
    const second = await start(ctx, a.key, { seed: 7 });
    expect(second.status).toBe(202);
    await ctx.runner.drain({ timeoutMs: 60_000 });
    const after = (await latest(ctx, a.key)).body;
    expect(after.id).toBe(second.body.id);
    expect(after.report.queries).toEqual(before.queries);
    expect(after.report.modes[0]).toEqual(before.modes[0]);
    expect(after.report.misses.map((m: { query: string }) => m.query)).toEqual(
      before.misses.map((m: { query: string }) => m.query),
    );
  }, 60_000);

  test("each user sees only their own runs", async () => {
    expect((await latest(ctx, b.key)).status).toBe(404);
    const mine = await start(ctx, b.key, { seed: 7 });
    expect(mine.status).toBe(202);
    expect((await latest(ctx, a.key)).body.id).not.toBe(mine.body.id);
    await ctx.runner.drain({ timeoutMs: 60_000 });
    const bReport = (await latest(ctx, b.key)).body.report;
    for (const miss of bReport.misses) expect(Object.values(ids)).not.toContain(miss.source_id);
    expect(bReport.modes.find((m: { mode: string }) => m.mode === "text").kinds[0].recall_at_1).toBe(1);
  }, 60_000);

  test("progress is stored and visible mid-run, and a search made meanwhile answers before the run ends", async () => {
    const notes: PublishedEvent[] = [];
    let seen: Promise<{
      mid: Awaited<ReturnType<typeof latest>>;
      found: Awaited<ReturnType<typeof latest>>;
      at: PublishedEvent;
    }>;
    let resolveSeen!: (v: Awaited<typeof seen>) => void;
    seen = new Promise((r) => (resolveSeen = r));
    let fired = false;
    const stop = ctx.services.events.onPublished((e) => {
      if (e.type !== "search_quality.progress" || e.user_id !== a.userId) return;
      notes.push(e);
      const p = e.data["progress"] as { done: number; total: number };
      if (fired || p.done === 0) return;
      fired = true;
      // The first source's searches are done: read the run and search, while the job goes on.
      void (async () => {
        const mid = await latest(ctx, a.key);
        const found = await call(ctx, "POST", "/api/v1/search", {
          key: a.key,
          body: { query: "glacier moraines", mode: "hybrid" },
        });
        resolveSeen({ mid, found, at: notes[notes.length - 1]! });
      })();
    });
    try {
      expect((await start(ctx, a.key, { seed: 11 })).status).toBe(202);
      const drained = ctx.runner.drain({ timeoutMs: 60_000 });
      const { mid, found, at } = await seen;
      await drained;
      expect(mid.body.status).toBe("running");
      expect(mid.body.progress.done).toBeGreaterThan(0);
      expect(mid.body.progress.done).toBeLessThan(mid.body.progress.total);
      expect(found.status).toBe(200);
      expect(found.body.data[0].id).toBe(ids["glaciers"]);
      // When the search had answered, the run had not finished: it did not wait for the run.
      expect(at.data["status"]).toBe("running");
      const statuses = notes.map((n) => n.data["status"]);
      expect(statuses[0]).toBe("running");
      expect(statuses[statuses.length - 1]).toBe("done");
      const dones = notes.map((n) => (n.data["progress"] as { done: number }).done);
      expect(dones).toEqual([...dones].sort((x, y) => x - y));
    } finally {
      stop();
    }
  }, 60_000);

  test("a run left running by a dead process stops blocking after 30 minutes", async () => {
    const started = await start(ctx, a.key, { seed: 3 });
    const old = new Date(Date.now() - 31 * 60_000).toISOString();
    await sqlRows(
      ctx.db,
      "UPDATE search_quality_runs SET status = 'running', updated_at = ? WHERE id = ?",
      old,
      started.body.id,
    );
    const next = await start(ctx, a.key, { seed: 3 });
    expect(next.status).toBe(202);
    expect(next.body.id).not.toBe(started.body.id);
    const [stale] = await sqlRows<{ status: string; error: string }>(
      ctx.db,
      "SELECT status, error FROM search_quality_runs WHERE id = ?",
      started.body.id,
    );
    expect(stale).toEqual({ status: "failed", error: "Stopped without finishing." });
    await ctx.runner.drain({ timeoutMs: 60_000 });
    expect((await latest(ctx, a.key)).body).toMatchObject({ id: next.body.id, status: "done" });
  }, 60_000);
});

describe("a library too small to measure", () => {
  test("fewer than five ready sources: 409 saying why, and nothing is queued", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    await library(ctx, u.key, { bread: TEXTS.bread, tides: TEXTS.tides });
    await ctx.runner.drain({ timeoutMs: 60_000 });
    const r = await start(ctx, u.key);
    expect(r.status).toBe(409);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.body.detail).toContain("at least 5 ready sources");
    expect(r.body.detail).toContain("has 2 ready sources");
    expect((await latest(ctx, u.key)).status).toBe(404);
  }, 60_000);
});

describe("a run that cannot finish", () => {
  test("the library shrank below five before the job ran: the run fails at once with the reason", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const ids = await library(ctx, u.key, { ...TEXTS, glaciers: MORE.glaciers });
    await ctx.runner.drain({ timeoutMs: 60_000 });
    expect((await start(ctx, u.key)).status).toBe(202);
    expect((await call(ctx, "DELETE", `/api/v1/sources/${ids["bread"]}`, { key: u.key })).status).toBe(200);
    const summary = await ctx.runner.drain({ timeoutMs: 60_000 });
    const run = (await latest(ctx, u.key)).body;
    expect(run).toMatchObject({ status: "failed", report: null });
    expect(run.error).toContain("has 4 ready sources");
    expect(run.finished_at).not.toBeNull();
    // Failed on its first attempt: a 4xx is not retried.
    expect(summary.failed).toBe(0);
    expect(summary.retried).toBe(0);
    // And the next start is not blocked by it: it answers 409 for the same reason.
    expect((await start(ctx, u.key)).status).toBe(409);
  }, 60_000);
});

const GROUND_TRUTH = join(import.meta.dir, "../../../../shared/fixtures/extraction/ground-truth.json.gz");

describe.skipIf(!existsSync(GROUND_TRUTH))("real articles from the public extraction benchmark", () => {
  test("twelve articles: a complete report, and titles found by text search", async () => {
    const all = JSON.parse(gunzipSync(readFileSync(GROUND_TRUTH)).toString("utf8")) as Record<
      string,
      { url: string; articleBody: string }
    >;
    // The first twelve long articles by key; the title is made from the address's last words.
    const picked = Object.entries(all)
      .sort(([x], [y]) => x.localeCompare(y))
      .filter(([, v]) => v.articleBody.split(/\s+/).length > 300)
      .slice(0, 12);
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    for (const [key, v] of picked) {
      const slug = new URL(v.url).pathname.split("/").filter(Boolean).pop() ?? key;
      const title = slug
        .replace(/\.html?$/, "")
        .replace(/[-_]+/g, " ")
        .replace(/\b\d{6,}\b/g, "")
        .trim();
      await saveSource(ctx, u.key, site, `/gt-${key.slice(0, 12)}`, `# ${title}\n\n${v.articleBody}`);
    }
    await ctx.runner.drain({ timeoutMs: 120_000 });
    expect((await start(ctx, u.key, { sample: 10, seed: 1 })).status).toBe(202);
    await ctx.runner.drain({ timeoutMs: 120_000 });
    const run = (await latest(ctx, u.key)).body;
    expect(run.status).toBe("done");
    expect(run.report).toMatchObject({ ready_sources: 12, sampled: 10 });
    expect(run.report.queries.paraphrase).toBe(10);
    const text = run.report.modes.find((m: { mode: string }) => m.mode === "text");
    expect(text.kinds[0].recall_at_5).toBeGreaterThanOrEqual(0.9);
  }, 180_000);
});

// Hostile pages through the whole ingestion path: each source fails once with a clear code, the
// server keeps answering while they are extracted, and stopped threads are replaced.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../../test/helpers.ts";
import { ARTICLE_HTML } from "../../../../test/outside-web.ts";
import { nestedDivs, repeatedPagePdf } from "../../../../test/fixtures/pages/hostile.ts";
import { failureWords } from "../../../web/library/source-pages.ts";
import { DEFAULT_EXTRACT_LIMITS, EXTRACT_ERROR_CODES } from "./extract/index.ts";
import { createExtractPool } from "./extract/pool.ts";

const hits = new Map<string, number>();
const web = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith("/deep"))
      return new Response(nestedDivs(path.startsWith("/deeper") ? 2_000 : 1_000), {
        headers: { "content-type": "text/html" },
      });
    if (path === "/pages.pdf")
      return new Response(repeatedPagePdf(6_000) as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "application/pdf" },
      });
    if (path === "/article") return new Response(ARTICLE_HTML, { headers: { "content-type": "text/html" } });
    return new Response("not found", { status: 404 });
  },
});
const url = (path: string) => `http://127.0.0.1:${web.port}${path}`;
afterAll(() => web.stop(true));

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) {
    await ctx.runner.stop({ graceMs: 1_000 });
    await ctx.services.extractor.close();
  }
});

function context(env: Record<string, string>) {
  const ctx = createTestContext(env);
  contexts.push(ctx);
  return ctx;
}

async function waitFor(what: string, ok: () => boolean | Promise<boolean>, ms = 45_000) {
  const until = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const source = async (ctx: TestContext, key: string, id: string) =>
  (await call(ctx, "GET", `/api/v1/sources/${id}`, { key })).body;

describe("hostile pages", () => {
  test("a deeply nested page fails as too_complex and a page tree of 6,000 pages as too_many_pages, each fetched once", async () => {
    const ctx = context({ EXTRACT_WORKERS: "2" });
    const u = await userWithKey(ctx);
    const deep = (await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: url("/deep/1") } })).body.id;
    const pdf = (await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: url("/pages.pdf") } })).body.id;
    await ctx.runner.drain();
    expect(await source(ctx, u.key, deep)).toMatchObject({ status: "failed", error: "too_complex" });
    const failedPdf = await source(ctx, u.key, pdf);
    expect(failedPdf).toMatchObject({ status: "failed", error: "too_many_pages" });
    expect(failedPdf.error_detail).toContain("6000 pages");
    // Permanent failures: no retry was scheduled and nothing was fetched twice.
    expect(await ctx.queue.counts()).toMatchObject({ queued: 0, running: 0 });
    expect([hits.get("/deep/1"), hits.get("/pages.pdf")]).toEqual([1, 1]);
  }, 30_000);

  test("while four hostile pages are extracted at once the server answers; they fail as extraction_timeout and the next page extracts", async () => {
    // No depth limit and a time limit of seconds, so only the pool stands between them and the server.
    const ctx = context({
      EXTRACT_WORKERS: "4",
      EXTRACT_MAX_DEPTH: "100000",
      EXTRACT_TIMEOUT_MS: "8000",
      JOB_CONCURRENCY: "4",
      JOB_POLL_MS: "20",
      RATE_LIMIT_PER_MINUTE: "1000000",
    });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => ctx.app.handle(req) });
    try {
      const u = await userWithKey(ctx);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++)
        ids.push(
          (await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: url(`/deeper/${i}`) } })).body.id,
        );
      ctx.runner.start();
      await waitFor("four extractions running", () => ctx.services.extractor.stats().running === 4);

      const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
      expect(health.status).toBe(200);
      // The answer came while all four were still being extracted.
      expect(ctx.services.extractor.stats().running).toBe(4);
      for (const id of ids) expect((await source(ctx, u.key, id)).status).toBe("pending");

      const settled = async () =>
        (await Promise.all(ids.map((id) => source(ctx, u.key, id)))).every((s) => s.status !== "pending");
      await waitFor("the four sources to settle", settled);
      for (const id of ids)
        expect(await source(ctx, u.key, id)).toMatchObject({ status: "failed", error: "extraction_timeout" });
      expect(ctx.services.extractor.stats().replaced).toBe(4);

      const next = (await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: url("/article") } })).body.id;
      await waitFor("the next page", async () => (await source(ctx, u.key, next)).status !== "pending");
      expect(await source(ctx, u.key, next)).toMatchObject({ status: "ready", title: "Life in the tide pools" });
    } finally {
      void server.stop(true);
    }
  }, 60_000);

  test("a crashed extraction thread is retried like a network error, then recorded as extraction_failed", async () => {
    let now = Date.now();
    const extractor = createExtractPool({
      size: 1,
      timeoutMs: 20_000,
      maxMemoryMb: 0,
      limits: DEFAULT_EXTRACT_LIMITS,
      workerUrl: new URL("./extract/fixtures/crash-worker.ts", import.meta.url),
    });
    const ctx = createTestContext({}, { clock: { now: () => now }, extractor });
    contexts.push(ctx);
    const u = await userWithKey(ctx);
    const id = (await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: url("/article?crash") } })).body
      .id;
    const before = hits.get("/article") ?? 0;
    for (let i = 0; i < 5; i++) {
      await ctx.runner.drain();
      now += 10 * 60_000; // retries are scheduled in the future
    }
    expect(await source(ctx, u.key, id)).toMatchObject({ status: "failed", error: "extraction_failed" });
    expect((hits.get("/article") ?? 0) - before).toBe(3);
  }, 30_000);

  test("every extraction failure code reads as plain words in the web app", () => {
    for (const code of EXTRACT_ERROR_CODES) expect(failureWords(code)).not.toBe(code.replace(/_/g, " "));
  });
});

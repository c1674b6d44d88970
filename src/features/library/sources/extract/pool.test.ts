// The extraction pool: same results as extracting in place, failures with their codes, and threads
// that run over their time or memory bound terminated and replaced.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildPdf } from "../../../../../test/fixtures/pages/pdf-builder.ts";
import { nestedDivs, repeatedPagePdf } from "../../../../../test/fixtures/pages/hostile.ts";
import { expectWorkersAtProcessPriority } from "../../../../../test/threads.ts";
import { extract } from "./index.ts";
import { createExtractPool, type ExtractPoolOptions, type Extractor } from "./pool.ts";
import { DEFAULT_EXTRACT_LIMITS, ExtractError, type ExtractInput } from "./types.ts";

const PAGES = join(import.meta.dir, "../../../../../test/fixtures/pages");
const pools: Extractor[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

function pool(opts: Partial<ExtractPoolOptions> = {}): Extractor {
  const p = createExtractPool({ size: 2, timeoutMs: 20_000, maxMemoryMb: 0, limits: DEFAULT_EXTRACT_LIMITS, ...opts });
  pools.push(p);
  return p;
}

const html = (markup: string, url = "https://example.com/page"): ExtractInput => ({
  body: new TextEncoder().encode(markup),
  contentType: "text/html",
  url,
});
const fixture = (name: string, contentType: string): ExtractInput => ({
  body: new Uint8Array(readFileSync(join(PAGES, name))),
  contentType,
  url: `https://example.com/${name}`,
});
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e instanceof ExtractError ? e.code : `not an ExtractError: ${e}`),
  );

describe("extraction pool", () => {
  test("gives exactly what extracting in place gives, for HTML, PDF and text", async () => {
    const p = pool();
    const inputs = [
      fixture("news-article.html", "text/html"),
      fixture("blog-windows-1252.html", "text/html"),
      fixture("survey-3-pages.pdf", "application/pdf"),
      {
        body: buildPdf([["A small report", "With two lines."]], { title: "Small report" }),
        contentType: "application/pdf",
        url: "https://example.com/r.pdf",
      },
      fixture("reading-notes.md", "text/markdown"),
      fixture("committee-minutes.txt", "text/plain"),
    ];
    const pooled = await Promise.all(inputs.map((input) => p.extract(input)));
    for (const [i, input] of inputs.entries()) expect(pooled[i]).toEqual(await extract(input));
    expect(p.stats()).toMatchObject({ threads: 2, busy: 0, queued: 0, replaced: 0 });
  }, 30_000);

  test("its threads run at the process's own priority, not a lowered one", async () => {
    const p = pool({ size: 1 });
    await p.extract(html("<html><body><article><h1>T</h1><p>Some words to read here.</p></article></body></html>"));
    expectWorkersAtProcessPriority();
  });

  test("keeps the codes of extraction errors made in the thread", async () => {
    const p = pool();
    expect(await codeOf(p.extract(html("<html><body></body></html>")))).toBe("empty_content");
    expect(await codeOf(p.extract(fixture("truncated.pdf", "application/pdf")))).toBe("malformed_pdf");
    expect(p.stats().replaced).toBe(0);
  }, 30_000);

  test("a type no handler reads fails at once, without starting a thread", async () => {
    const p = pool();
    expect(
      await codeOf(
        p.extract({
          body: new Uint8Array([137, 80, 78, 71]),
          contentType: "image/png",
          url: "https://example.com/i.png",
        }),
      ),
    ).toBe("unsupported_content_type");
    expect(p.stats().threads).toBe(0);
  });

  test("refuses a deeply nested page as too_complex and a page tree of thousands of pages as too_many_pages", async () => {
    const p = pool();
    const deep = p.extract(html(nestedDivs(1_000)));
    const pdf = p.extract({
      body: repeatedPagePdf(6_000),
      contentType: "application/pdf",
      url: "https://example.com/big.pdf",
    });
    expect(await codeOf(deep)).toBe("too_complex");
    expect(await codeOf(pdf)).toBe("too_many_pages");
    // Refused by the up-front checks, so no thread had to be stopped.
    expect(p.stats().replaced).toBe(0);
  }, 30_000);

  test("a job over its time limit fails as extraction_timeout; its thread is replaced and the next page extracts", async () => {
    // Without the depth check, 2,000 nested divs take over a minute to extract; the limit leaves the
    // next page (tens of ms, plus starting the replacement thread) room to spare even with every core busy.
    const p = pool({ size: 1, timeoutMs: 5_000, limits: { ...DEFAULT_EXTRACT_LIMITS, maxDepth: 100_000 } });
    const slow = p.extract(html(nestedDivs(2_000)));
    const next = p.extract(fixture("news-article.html", "text/html"));
    const err = await slow.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractError);
    expect((err as ExtractError).code).toBe("extraction_timeout");
    expect((err as ExtractError).message).toContain("5000 ms");
    expect((await next).title).toBe((await extract(fixture("news-article.html", "text/html"))).title);
    expect(p.stats()).toMatchObject({ threads: 1, replaced: 1 });
  }, 30_000);

  test("a job that grows the process's memory past the bound is stopped as too_complex", async () => {
    // Without the page limit pdf.js reads every listed page; 6,000 of them take over a gigabyte.
    const p = pool({
      size: 1,
      timeoutMs: 60_000,
      maxMemoryMb: 64,
      sampleMs: 20,
      limits: { ...DEFAULT_EXTRACT_LIMITS, maxPdfPages: 1_000_000 },
    });
    const before = process.memoryUsage.rss();
    const err = await p
      .extract({ body: repeatedPagePdf(6_000), contentType: "application/pdf", url: "https://example.com/big.pdf" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractError);
    expect((err as ExtractError).code).toBe("too_complex");
    expect((err as ExtractError).message).toContain("64 MB of memory");
    expect(p.stats().replaced).toBe(1);
    // The stopped thread's heap goes back to the system once the thread is gone.
    for (let i = 0; i < 100 && process.memoryUsage.rss() > before + 200 * 1048576; i++) await Bun.sleep(50);
    expect(process.memoryUsage.rss()).toBeLessThan(before + 200 * 1048576);
    expect((await p.extract(fixture("news-article.html", "text/html"))).wordCount).toBeGreaterThan(50);
  }, 30_000);

  test("a thread that dies fails its job with a plain error (not the page's fault) and is replaced", async () => {
    const crashing = pool({ size: 1, workerUrl: new URL("./fixtures/crash-worker.ts", import.meta.url) });
    const err = await crashing.extract(fixture("news-article.html", "text/html")).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ExtractError);
    expect((err as Error).message).toContain("fixture thread died");
    expect(crashing.stats()).toMatchObject({ threads: 0, replaced: 1 });
  }, 30_000);

  test("close fails what is pending; a later call starts a new thread", async () => {
    const p = pool({ size: 1, limits: { ...DEFAULT_EXTRACT_LIMITS, maxDepth: 100_000 } });
    const running = p.extract(html(nestedDivs(2_000)));
    const queued = p.extract(fixture("news-article.html", "text/html"));
    await p.close();
    expect(await running.catch((e: Error) => e.message)).toContain("closed");
    expect(await queued.catch((e: Error) => e.message)).toContain("closed");
    expect(p.stats().threads).toBe(0);
    expect((await p.extract(fixture("news-article.html", "text/html"))).wordCount).toBeGreaterThan(50);
  }, 30_000);

  test("an interactive page waiting for a thread goes ahead of background (imported) pages queued before it", async () => {
    const p = pool({ size: 1 });
    const done: string[] = [];
    const track = (name: string, q: Promise<unknown>) => q.then(() => done.push(name));
    // The one thread is busy; two background pages and then an interactive one wait for it.
    const first = track("first", p.extract(fixture("news-article.html", "text/html")));
    const b1 = track("background 1", p.extract(fixture("blog-windows-1252.html", "text/html"), { background: true }));
    const b2 = track("background 2", p.extract(fixture("news-article.html", "text/html"), { background: true }));
    const saved = track("interactive", p.extract(fixture("blog-windows-1252.html", "text/html")));
    await Promise.all([first, b1, b2, saved]);
    expect(done).toEqual(["first", "interactive", "background 1", "background 2"]);
  }, 30_000);
});

// The archived copy in real Chromium: an article with an image is saved, its site goes away, and the
// reader still shows the text and the image, served by this site, with no request to the old host.
// Run with `bun test --timeout 60000 ./test/e2e/archive.e2e.ts`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { makeImage } from "../../src/features/library/sources/images/testing.ts";
import type { TestContext } from "../helpers.ts";
import { launchChromium, signUp, startLiveApp, watch } from "./browser.ts";

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
let page: Page;

const photo = await makeImage("jpeg", 640, 400, "#2a6f97");
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/photo.jpg")
      return new Response(photo as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/jpeg" } });
    if (path === "/story")
      return new Response(
        `<!doctype html><html><head><title>The lighthouse keeper</title></head><body><article>
<h1>The lighthouse keeper</h1>
<p>${"Every night for forty years she climbed the hundred and twelve steps to light the lamp. ".repeat(6)}</p>
<figure><img src="/photo.jpg" alt="The lighthouse at dusk"></figure>
<p>${"Ships passing the headland still slow down out of habit when they see the tower. ".repeat(6)}</p>
</article></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    return new Response("not found", { status: 404 });
  },
});
// Another name for the loopback site, so its requests can be told from the app's own.
const oldHost = `localhost:${site.port}`;

beforeAll(async () => {
  // The runner is not started: drain() below runs the ingestion and says when it is done.
  ({ base, ctx, server } = startLiveApp());
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await signUp(page, base, "archive@example.com");
}, 60_000);

afterAll(async () => {
  await ctx?.runner.stop({ graceMs: 1000 });
  await browser?.close();
  await server?.stop(true);
  await site.stop(true);
}, 60_000);

test("the reader shows the saved text and image after the original site is gone, asking nothing of it", async () => {
  await page.goto(`${base}/library`);
  await page.getByLabel("Link").fill(`http://${oldHost}/story`);
  await page.getByRole("button", { name: "Save link" }).click();
  await page.waitForURL(`${base}/library?notice=added`);
  const id = /\/library\/sources\/(src_[0-9A-Z]{26})/.exec(await page.content())![1]!;
  // Ready once ingestion, images included, has committed.
  await ctx.runner.drain({ timeoutMs: 30_000 });
  await site.stop(true);

  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  const seen = watch(page);
  await page.goto(`${base}/library/sources/${id}`);
  await expect(page.getByRole("heading", { name: "The lighthouse keeper" }).first().isVisible()).resolves.toBe(true);
  await expect(page.getByText("climbed the hundred and twelve steps").first().isVisible()).resolves.toBe(true);
  const img = page.locator("article#r-article img");
  await expect(img.count()).resolves.toBe(1);
  const src = await img.getAttribute("src");
  expect(src).toMatch(new RegExp(`^/sources/${id}/media/[0-9a-f]{32}\\.webp$`));
  await img.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const el = document.querySelector<HTMLImageElement>("article#r-article img");
    return el?.complete && el.naturalWidth > 0;
  });
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(640);
  expect(await img.getAttribute("alt")).toBe("The lighthouse at dusk");
  // Every request went to this site; none to the old host (or anywhere else).
  expect(requests.length).toBeGreaterThan(1);
  for (const r of requests) expect(new URL(r).origin).toBe(base);
  expect(requests.some((r) => r.includes(oldHost))).toBe(false);
  expect(seen.cspErrors).toEqual([]);
});

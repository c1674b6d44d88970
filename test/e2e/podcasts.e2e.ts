// Browser test of podcasts in real Chromium: save a link, make a podcast from it on its page,
// wait for the builtin offline voices, then play and seek the episode in the page's player.
// Run with `bun run test:e2e` (not part of plain `bun test`).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import type { TestContext } from "../helpers.ts";
import { startOutsideWeb } from "../outside-web.ts";
import { launchChromium, startLiveApp, watch, signUp } from "./browser.ts";

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
const web = startOutsideWeb();

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp());
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
  void web.stop();
  await ctx?.services.podcasts.close();
}, 120_000);

describe("podcasts in a browser", () => {
  test("make a podcast from a saved source and play it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const seen = watch(page);
    await signUp(page, base, "pod@example.com");

    // Save a link, let the job runner fetch it, open it.
    await page.goto(`${base}/library`);
    await page.getByLabel("Link").fill(web.url("/article"));
    await page.getByRole("button", { name: "Save link" }).click();
    await page.waitForURL(`${base}/library?notice=added`);
    await ctx.runner.drain();
    await page.reload();
    await page.getByRole("link", { name: "Life in the tide pools" }).click();

    // The source's page links to the form prefilled with it; the costs show before anything is spent.
    await page.getByRole("link", { name: "Make a podcast" }).click();
    await page.waitForURL(/\/podcasts\/new\?source=src_/);
    expect(await page.getByRole("checkbox", { name: /Life in the tide pools/ }).isChecked()).toBe(true);
    expect(await page.getByText("You have 500 AI credits free").count()).toBe(1);
    await page.getByRole("radio", { name: /Brief/ }).check();
    await page.getByRole("button", { name: "Make podcast" }).click();
    await page.waitForURL(/\/podcasts\/pod_[0-9A-Z]{26}\?notice=created$/);
    const status = page.locator(".podcast-live .podcast-status .status");
    expect(await status.textContent()).toBe("Queued");

    // Generation with the builtin offline voices; the page shows the player without a reload.
    await ctx.runner.drain({ timeoutMs: 110_000 });
    await page.locator(".podcast-live audio").waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toBe("Ready");
    const audio = page.locator("audio");
    const duration = await audio.evaluate(
      (a: HTMLAudioElement) =>
        new Promise<number>((resolve, reject) => {
          if (a.readyState >= 1) return resolve(a.duration);
          a.addEventListener("loadedmetadata", () => resolve(a.duration));
          a.addEventListener("error", () => reject(new Error(`audio error ${a.error?.code}`)));
        }),
    );
    expect(duration).toBeGreaterThan(5);

    // Seeking asks the server for a byte range; playing moves the clock forward.
    const seeked = await audio.evaluate(
      (a: HTMLAudioElement, to: number) =>
        new Promise<number>((resolve) => {
          a.addEventListener("seeked", () => resolve(a.currentTime), { once: true });
          a.currentTime = to;
        }),
      duration / 2,
    );
    expect(Math.abs(seeked - duration / 2)).toBeLessThan(1);
    await audio.evaluate((a: HTMLAudioElement) => {
      a.muted = true;
      return a.play();
    });
    await page.waitForFunction(
      (from) => (document.querySelector("audio") as HTMLAudioElement).currentTime > from + 0.2,
      seeked,
    );

    // The transcript names its speaker, and the download link serves the file as an attachment.
    expect(await page.locator(".transcript .speaker").first().textContent()).toBe("Maya · narrator");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Download MP3/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Life in the tide pools.mp3");

    expect(seen.dialogs).toEqual([]);
    expect(seen.cspErrors).toEqual([]);
    await context.close();
  }, 120_000);

  test("delete asks first and works with JavaScript turned off", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signUp(page, base, "nojs-pod@example.com");
    await page.goto(`${base}/library`);
    await page.getByLabel("Link").fill(web.url("/notes.txt"));
    await page.getByText("Quick podcast").click();
    await page.getByLabel(/Make a podcast episode when it is ready/).check();
    await page.getByRole("radio", { name: /Unabridged/ }).check();
    await page.getByRole("button", { name: "Save link" }).click();
    await page.waitForURL(`${base}/library?notice=added_quick`);
    await ctx.runner.drain({ timeoutMs: 110_000 });

    await page.goto(`${base}/podcasts`);
    await page.getByRole("link", { name: "Plain notes" }).click();
    expect(await page.locator(".podcast-status .status").textContent()).toBe("Ready");
    await page.getByRole("link", { name: "Delete this episode…" }).click();
    expect(await page.getByRole("heading", { name: "Delete this episode?" }).count()).toBe(1);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(`${base}/podcasts?notice=deleted`);
    expect(await page.getByText("No episodes yet.").count()).toBe(1);
    await context.close();
  }, 120_000);
});

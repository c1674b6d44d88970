// Browser tests of saving from elsewhere in real Chromium: a phone opens the share target after signing
// in and sees the source go pending → ready; the bookmarklet's window saves with an edited title and
// closes; the service worker keeps only the app shell; "/" jumps to the library's search, "a" to its link field.
// Run with `bun test --timeout 60000 ./test/e2e/share.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { devices, type Browser, type BrowserContext } from "playwright-core";
import { ARTICLE_HTML } from "../outside-web.ts";
import { launchChromium, signUp, startLiveApp, watch, type LiveApp } from "./browser.ts";

let browser: Browser;
let app: LiveApp;

// The outside site (the SSRF guard lets tests reach loopback): /slow answers only once released.
let release: () => void = () => {};
const released = new Promise<void>((r) => (release = r));
const outside = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    if (new URL(req.url).pathname === "/slow") await released;
    return new Response(ARTICLE_HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
  },
});
const outsideUrl = (path: string) => `http://127.0.0.1:${outside.port}${path}`;

beforeAll(async () => {
  app = startLiveApp();
  app.ctx.runner.start();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  release();
  await app?.ctx.runner.stop({ graceMs: 1000 });
  await browser?.close();
  await app?.server.stop(true);
  await outside.stop(true);
}, 120_000);

describe("saving from a phone and from other browsers", () => {
  test("a phone shares a link after signing in and watches it go pending → ready", async () => {
    const context: BrowserContext = await browser.newContext({ ...devices["Pixel 7"] });
    const page = await context.newPage();
    const seen = watch(page);
    // What Android's share sheet opens: the link in `text`, as many apps send it.
    const share = `${app.base}/share?${new URLSearchParams({ title: "Tide pools", text: `Look: ${outsideUrl("/slow")}` })}`;
    await page.goto(share);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel("Email").fill("phone@example.com");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("Email").fill("phone@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();

    // Back at the share target, the page saves by itself and lands on the source's status.
    await page.waitForURL(/\/share\/sources\/src_[0-9A-Z]{26}$/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Saved to your library");
    const card = page.locator("section.saved[data-live=source]");
    await card.locator(".status.pending").waitFor({ timeout: 10_000 });
    expect(await card.locator(".title").textContent()).toBe("Tide pools");
    let navigations = 0;
    page.on("framenavigated", () => navigations++);

    release();
    await card.locator(".status.ready").waitFor({ timeout: 30_000 });
    expect(navigations).toBe(0);
    expect(await card.getByText("Ready to read.").count()).toBe(1);
    await card.getByRole("link", { name: "Open it" }).click();
    await page.waitForURL(/\/library\/sources\/src_/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Tide pools");

    // Sharing it again says it is already there.
    await page.goto(share);
    await page.waitForURL(/\/share\/sources\/src_.*\?already=1$/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Already in your library");

    // The service worker is in charge and has kept nothing but the app shell.
    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls.sort();
    });
    expect(cached.length).toBeGreaterThan(0);
    expect(cached.every((p) => p.startsWith("/icons/") || p === "/favicon.svg" || p === "/assets/live.js")).toBe(true);
    expect(seen.cspErrors).toEqual([]);
    await context.close();
  }, 120_000);

  test("the bookmarklet's window saves the page with an edited title, then closes", async () => {
    const context = await browser.newContext();
    const opener = await context.newPage();
    const seen = watch(opener);
    await signUp(opener, app.base, "bookmarklet@example.com");
    await opener.goto(`${app.base}/library`);
    // What the bookmarklet does, from the page being read.
    const target = `${app.base}/save?${new URLSearchParams({ url: outsideUrl("/article"), title: "Tide pools | Coast Weekly" })}`;
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      opener.evaluate((href) => window.open(href, "commonplace", "width=480,height=600"), target),
    ]);
    const popupSeen = watch(popup);
    await popup.waitForLoadState();
    expect(await popup.getByLabel("Title").inputValue()).toBe("Tide pools | Coast Weekly");
    await popup.getByLabel("Title").fill("Life in the tide pools");
    await popup.getByRole("button", { name: "Save" }).click();
    await popup.waitForURL(/\/save\/sources\/src_[0-9A-Z]{26}$/);
    await popup.locator("section.saved .status.ready").waitFor({ timeout: 30_000 });
    expect(await popup.locator("section.saved .title").textContent()).toBe("Life in the tide pools");

    const closed = popup.waitForEvent("close");
    // The button closes its own window: the click can end with the page already gone, which is the
    // point; any other failure of the click still fails the test.
    await popup
      .getByRole("button", { name: "Close" })
      .first()
      .click()
      .catch((err) => {
        if (!popup.isClosed()) throw err;
      });
    await closed;
    expect(popup.isClosed()).toBe(true);

    await opener.reload();
    expect(await opener.locator("li[data-live=source] a.title").first().textContent()).toBe("Life in the tide pools");
    expect(seen.cspErrors).toEqual([]);
    expect(popupSeen.cspErrors).toEqual([]);
    await context.close();
  }, 120_000);

  test("on the library, / jumps to search and a to the link field, unless typing elsewhere", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signUp(page, app.base, "keys@example.com");
    await page.goto(`${app.base}/library`);
    expect(await page.getByText("to add a link").isVisible()).toBe(true);
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("lib-q");
    await page.locator("h1").click();
    await page.keyboard.press("a");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-url");
    expect(await page.getByLabel("Link").inputValue()).toBe("");
    await page.keyboard.press("/");
    expect(await page.getByLabel("Link").inputValue()).toBe("/");
    await context.close();
  }, 120_000);
});

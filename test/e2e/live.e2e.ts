// Browser tests of live updates, the account page and the pages' labels in real Chromium: a pending
// source turns ready in the library without a reload, credits fall after an ask, every control has
// a label. Run with `bun test --timeout 120000 ./test/e2e/live.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ARTICLE_HTML } from "../outside-web.ts";
import type { TestContext } from "../helpers.ts";
import { launchChromium, startLiveApp } from "./browser.ts";

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
let context: BrowserContext;
let page: Page;
const cspErrors: string[] = [];

// The outside site: /slow answers only when the test releases it, so the row is seen pending first.
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

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp());
  ctx.runner.start();
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(`${base}/signup`);
  await page.getByLabel("Email").fill("live@example.com");
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${base}/library`);
}, 120_000);

afterAll(async () => {
  release();
  await ctx?.runner.stop({ graceMs: 1000 });
  await browser?.close();
  await server?.stop(true);
  await outside.stop(true);
}, 120_000);

describe("live updates in the browser", () => {
  test("a pending source turns ready in the library without reloading", async () => {
    await page.goto(`${base}/library`);
    await page.getByLabel("Link").fill(`http://127.0.0.1:${outside.port}/slow`);
    await page.getByRole("button", { name: "Save link" }).click();
    await page.waitForURL(`${base}/library?notice=added`);
    const row = page.locator("li[data-live=source]").first();
    await row.locator(".status.pending").waitFor({ timeout: 10_000 });
    // A marker on the window survives only if the page is not reloaded.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    let navigations = 0;
    page.on("framenavigated", () => navigations++);

    release();
    // Ready needs no word on the card: the pending badge goes and the title arrives.
    await row.locator("a.title", { hasText: "Life in the tide pools" }).waitFor({ timeout: 30_000 });
    expect(await row.locator(".status").count()).toBe(0);
    expect(await row.locator("a.title").textContent()).toBe("Life in the tide pools");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(navigations).toBe(0);
    expect(cspErrors).toEqual([]);
  }, 120_000);

  test("credits fall after an ask: ask on the search page, then open Account", async () => {
    await page.goto(`${base}/settings/account`);
    const before = Number(await page.locator("#credits-remaining").textContent());
    expect(before).toBeGreaterThan(0);

    await page.goto(`${base}/search`);
    await page.getByLabel("Question").fill("How do sea stars hold on to the rock?");
    await page.getByRole("button", { name: "Ask" }).click();
    const line = await page.getByText(/Credits used: \d+/).textContent();
    const used = Number(/Credits used: (\d+)/.exec(line!)![1]);
    expect(used).toBeGreaterThan(0);

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Account" }).click();
    await page.waitForURL(`${base}/settings/account`);
    expect(Number(await page.locator("#credits-remaining").textContent())).toBe(before - used);
    expect(await page.locator("td[data-label=What]").first().textContent()).toBe("Asked a question");
    expect(cspErrors).toEqual([]);
  }, 120_000);

  test("every control on these pages has a label, and error pages are pages", async () => {
    for (const path of ["/settings", "/settings/account", "/library", "/search", "/no-such-page"]) {
      const res = await page.goto(`${base}${path}`);
      expect(res!.headers()["content-type"]).toBe("text/html; charset=utf-8");
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll("input, select, textarea, button, meter, progress")]
          .filter((el) => !(el instanceof HTMLInputElement && el.type === "hidden"))
          .filter((el) => {
            const named = el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
            const labels = (el as HTMLInputElement).labels;
            const text = el instanceof HTMLButtonElement ? el.textContent?.trim() : "";
            return !named && !(labels && labels.length > 0) && !text;
          })
          .map((el) => el.outerHTML.slice(0, 120)),
      );
      expect({ path, unlabelled }).toEqual({ path, unlabelled: [] });
    }
    expect(cspErrors).toEqual([]);
  }, 120_000);

  test("the account page works from the keyboard: the password form is reached by Tab and answers beside the field", async () => {
    await page.goto(`${base}/settings/account`);
    await page.getByLabel("Current password").focus();
    await page.keyboard.type("wrong password");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-new_password");
    await page.keyboard.type("another long password");
    await page.keyboard.press("Enter");
    await page.locator("#f-current_password-error").waitFor();
    expect(await page.locator("#f-current_password-error").textContent()).toBe("Current password is wrong.");
    expect(await page.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
  }, 120_000);
});

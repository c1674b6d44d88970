// Browser test of the web app in real Chromium: sign up, a key shown once, used, revoked, and a
// hostile key name that stays text. Run with `bun run test:e2e` (not part of plain `bun test`).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TestContext } from "../helpers.ts";
import { launchChromium, startLiveApp, watch, signUp } from "./browser.ts";
import { asSqlite } from "../../src/db/client.ts";

const KEY_RE = /^cpk_[0-9A-Za-z]{46}$/;

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
});

const apiMe = (key: string) => fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });

async function createKey(page: Page, name: string): Promise<string> {
  if (new URL(page.url()).pathname !== "/settings/keys") await page.goto(new URL("/settings/keys", page.url()).href);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await page.locator("#new-key").waitFor();
  return page.locator("#new-key").inputValue();
}

describe("web app in a browser", () => {
  test("a key is shown once, works, and stops working when revoked", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const seen = watch(page);
    await signUp(page, base, "ada@example.com");

    const key = await createKey(page, "e2e key");
    expect(key).toMatch(KEY_RE);
    // The copy button appears only when our inline script ran, i.e. the CSP hash admitted it.
    const copy = page.getByRole("button", { name: "Copy" });
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await page.getByRole("button", { name: "Copied" }).waitFor();

    // The inline script turned the POST's history entry into a GET, so a reload resubmits nothing.
    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe("GET");
    expect(reloaded?.status()).toBe(200);
    expect(page.url()).toBe(`${base}/settings/keys`);
    expect(await page.locator("#new-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect(await page.locator("td .hint").allTextContents()).toEqual([`${key.slice(0, 8)}…${key.slice(-4)}`]);
    expect(asSqlite(ctx.db).sqlite.query("SELECT count(*) AS n FROM api_keys").get()).toEqual({ n: 1 });

    const before = await apiMe(key);
    expect(before.status).toBe(200);
    expect(((await before.json()) as { email: string }).email).toBe("ada@example.com");

    await page.getByRole("button", { name: "Revoke e2e key" }).click();
    await page.waitForURL(`${base}/settings/keys?notice=revoked`);
    expect(await page.getByText("The key was revoked.").isVisible()).toBe(true);
    expect((await apiMe(key)).status).toBe(401);

    expect(seen.dialogs).toEqual([]);
    expect(seen.cspErrors).toEqual([]);
    await context.close();
  });

  test("a key named <script>alert(1)</script> renders as text and runs nothing", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const seen = watch(page);
    await signUp(page, base, "mallory@example.com");
    const evil = "<script>alert(1)</script>";
    await createKey(page, evil);
    expect(await page.locator("h2", { hasText: "Your new key" }).textContent()).toBe(`Your new key “${evil}”`);
    await page.goto(`${base}/settings/keys`);
    expect(await page.locator('td[data-label="Name"]').allTextContents()).toEqual([evil]);
    expect(seen.dialogs).toEqual([]);
    expect(seen.cspErrors).toEqual([]);
    await context.close();
  });

  test("everything works with JavaScript turned off", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signUp(page, base, "nojs@example.com");
    const key = await createKey(page, "no-js key");
    expect(key).toMatch(KEY_RE);
    expect(await page.getByRole("button", { name: "Copy" }).count()).toBe(0);
    await page.goto(`${base}/settings/keys`);
    await page.getByRole("button", { name: "Revoke no-js key" }).click();
    await page.waitForURL(`${base}/settings/keys?notice=revoked`);
    expect((await apiMe(key)).status).toBe(401);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/signin?notice=signed_out`);
    await page.goto(`${base}/settings/keys`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await context.close();
  });
});

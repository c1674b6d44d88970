// The API reference at /api/docs in real Chromium with the network cut: it renders from this app
// alone, and "Send" calls the API directly. Run with `bun run test:e2e`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { createTestContext, userWithKey, type TestContext } from "../helpers.ts";
import { launchChromium } from "./browser.ts";

// A public-looking BASE_URL (not loopback), as on a real install, so nothing is special-cased.
const ORIGIN = "https://library.commonplace.test";

let browser: Browser;
let ctx: TestContext;

beforeAll(async () => {
  ctx = createTestContext({ BASE_URL: ORIGIN });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A browser whose only reachable host is the app (answered in-process); every other request is
 * aborted and recorded, as if the machine were offline.
 */
async function offlineBrowser(): Promise<{
  context: BrowserContext;
  foreign: string[];
  served: string[];
  problems: string[];
}> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const foreign: string[] = [];
  const served: string[] = [];
  const problems: string[] = [];
  await context.route("**/*", async (route) => {
    const req = route.request();
    const url = new URL(req.url());
    if (url.protocol === "data:" || url.protocol === "blob:") return route.continue();
    if (url.origin !== ORIGIN) {
      foreign.push(req.url());
      return route.abort("internetdisconnected");
    }
    served.push(`${req.method()} ${url.pathname} ${req.headers()["authorization"] ?? ""}`.trim());
    const body = req.postDataBuffer();
    const res = await ctx.app.handle(
      new Request(req.url(), {
        method: req.method(),
        headers: req.headers(),
        body: body ? new Uint8Array(body) : undefined,
      }),
    );
    return route.fulfill({
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    });
  });
  context.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  context.on("weberror", (e) => problems.push(e.error().message));
  return { context, foreign, served, problems };
}

describe("API reference offline", () => {
  test("renders the document's tags and operations with nothing from another host", async () => {
    const { context, foreign, served, problems } = await offlineBrowser();
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/api/docs`);
    await page.getByRole("heading", { name: "Commonplace API" }).waitFor({ timeout: 20_000 });
    await page.getByText("The caller and how they authenticated").first().waitFor();
    for (const tag of ["Sources", "Notebooks", "Notes", "Search", "Podcasts", "Workflows", "Webhooks"]) {
      await page.getByText(tag, { exact: true }).first().waitFor({ timeout: 5_000 });
    }
    expect(served.filter((s) => s.startsWith("GET /api/docs/assets/"))).toHaveLength(1);
    expect(served).toContain("GET /api/openapi.json");
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test("Send in the reference calls this server with the key, not a relay", async () => {
    const { key } = await userWithKey(ctx);
    const { context, foreign, served, problems } = await offlineBrowser();
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/api/docs`);
    await page.getByPlaceholder("Token").first().fill(key, { timeout: 20_000 });
    await page.getByText("The caller and how they authenticated").first().click();
    await page
      .getByRole("button", { name: /test request/i })
      .first()
      .click();
    await page.getByRole("button", { name: /^send/i }).first().click();
    await page.getByText("200 OK").first().waitFor({ timeout: 20_000 });
    expect(served).toContain(`GET /api/v1/me Bearer ${key}`);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

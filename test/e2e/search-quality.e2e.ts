// Settings → Search quality in real Chromium: start a run from the page, watch it go from queued to its
// report without a reload (the live region follows search_quality.progress), then axe-core in light and
// dark at 1280 and 390 px, queued and done, with no sideways overflow on a phone.
// Run with `bun test --timeout 120000 ./test/e2e/search-quality.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { saveSource, startMarkdownSite, TEXTS } from "../../src/features/search/library.fixture.ts";
import { userWithKey, type TestContext } from "../helpers.ts";
import { audit, blocking } from "./audit.ts";
import { launchChromium, startLiveApp, watch } from "./browser.ts";

const PATH = "/settings/search-quality";
const LONG_TITLE = `Tide pools, rock pools and the ${"extraordinarily".repeat(6)} long afternoon on the shore`;

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
let me: Awaited<ReturnType<typeof userWithKey>>;
const site = startMarkdownSite();

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp());
  browser = await launchChromium();
  me = await userWithKey(ctx, "quality-e2e@example.com");
  const texts = [
    TEXTS.bread,
    TEXTS.tides,
    TEXTS.compost,
    TEXTS.orbits,
    `# ${LONG_TITLE}\n\nAnemones close up at low tide and wait for the water to come back over the rocks.\n\n## Supercalifragilisticexpialidocious${"Supercalifragilisticexpialidocious".repeat(2)}\n\nA heading nobody could search for.`,
    `# Opening principles in chess\n\nControl the centre of the board early with pawns and knights before launching any attack.`,
  ];
  for (const [i, md] of texts.entries()) await saveSource(ctx, me.key, site, `/q-${i}`, md);
  await ctx.runner.drain({ timeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
  await site.stop();
}, 60_000);

async function signedIn(opts: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel("Email").fill(me.email);
  await page.getByLabel("Password").fill("password123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
  return { context, page };
}

/** The shared page audit (axe-core in light and dark, 1280 and 390 px, sideways overflow) of the page as it is now. */
async function auditPage(name: string): Promise<void> {
  const { context, page } = await signedIn({ bypassCSP: true });
  await page.goto(`${base}${PATH}`);
  const found = await audit(page, name);
  expect(blocking(found.violations)).toEqual([]);
  expect(found.overflow).toEqual([]);
  await context.close();
}

describe("Settings → Search quality", () => {
  test("start a run, see it queued, then its report appear without a reload", async () => {
    const { context, page } = await signedIn();
    const seen = watch(page);
    await page.goto(`${base}/settings`);
    await page.getByRole("link", { name: "Search quality" }).click();
    await page.waitForURL(`${base}${PATH}`);
    expect(await page.getByText("No run yet.").isVisible()).toBe(true);
    await page.getByLabel("Seed (optional)").fill("21");
    const stream = page.waitForResponse((r) => r.url().includes("/events/stream"), { timeout: 30_000 });
    await page.getByRole("button", { name: "Start the test" }).click();
    await page.waitForURL(`${base}${PATH}`);
    await stream;
    const region = page.locator("#quality-run");
    expect(await region.textContent()).toContain("Status: queued");
    expect(await region.locator("progress").count()).toBe(1);
    // The reload hint is for pages without script.
    expect(await page.getByText("reloads itself").isVisible()).toBe(false);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    await auditPage("search-quality-queued");
    await ctx.runner.drain({ timeoutMs: 60_000 });
    await page.getByText("Found first (recall@1)").waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await region.locator("progress").count()).toBe(0);
    expect(await region.textContent()).toContain("Measured on 6 of your 6 ready sources (seed 21)");
    expect(await region.locator("tbody tr").count()).toBe(6);
    await page.waitForFunction(() =>
      /report is shown/.test(document.querySelector(".live-announcer")?.textContent ?? ""),
    );
    expect(seen.cspErrors).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    await context.close();

    // A second run, so the comparison table is there too.
    await ctx.services.searchQuality.start(
      { userId: me.userId, auth: { type: "system", reason: "e2e" } },
      { seed: 22 },
    );
    await ctx.runner.drain({ timeoutMs: 60_000 });
    await auditPage("search-quality-done");
  }, 180_000);
});

// Feeds in real Chromium: subscribe by pasting a site's address, see entries appear after a poll, pause,
// unsubscribe; choose among a page's feeds; and axe-core over the feeds pages in the light and the dark
// scheme at 1280 and 390 px (no serious or critical violation, no sideways overflow). With
// E2E_SCREENSHOT_DIR=<dir> each state is saved as a PNG there.
// Run with `bun test --timeout 120000 ./test/e2e/feeds.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { rss, startFeedServer, type Item } from "../../src/features/feeds/testing.ts";
import type { TestContext } from "../helpers.ts";
import { launchChromium, signUp, startLiveApp, watch } from "./browser.ts";

const AXE_SOURCE = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
const SHOTS = process.env.E2E_SCREENSHOT_DIR;
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
const site = startFeedServer();
/** Another site, with no feed anywhere. */
const bare = startFeedServer();
const post = (n: number, title: string): Item => ({
  id: `p${n}`,
  title,
  link: site.url(`/posts/${n}`),
  date: `2024-05-${String(n).padStart(2, "0")}T09:00:00Z`,
});
const article = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${"Tides rise and fall twice a day along this coast. ".repeat(12)}</p></article></body></html>`;

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp({ FEED_HOST_SPACING_MS: "0" }));
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  site.set("/", {
    type: "text/html",
    body: `<!doctype html><html><head><title>Tide Times</title><link rel="alternate" type="application/rss+xml" title="Tide Times — every post with a rather long title" href="/feed.xml"></head><body><p>Welcome</p></body></html>`,
  });
  site.set("/feed.xml", {
    body: rss([post(2, "Neap tides explained"), post(1, "Spring tides and the moon")], {
      title: "Tide Times: notes from a long and windy coastline",
    }),
  });
  for (const [n, title] of [
    [1, "Spring tides and the moon"],
    [2, "Neap tides explained"],
    [3, "Storm surge season"],
  ] as const)
    site.set(`/posts/${n}`, { type: "text/html", body: article(title) });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
  void site.stop();
  void bare.stop();
});

interface AxeWindow {
  axe: {
    run(
      context: Document,
      options: { resultTypes: string[] },
    ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
  };
}

/** axe-core and the page's width in both schemes at both widths; returns blocking problems. */
async function audit(page: Page, state: string): Promise<string[]> {
  const problems: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    for (const size of WIDTHS) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: size.width, height: size.height });
      const label = `${state} · ${scheme} · ${size.name}`;
      if (SHOTS)
        await page.screenshot({ path: join(SHOTS, `feeds-${state}-${scheme}-${size.name}.png`), fullPage: true });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 0) problems.push(`${label}: ${wide}px too wide`);
      if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
      const found = await page.evaluate(() =>
        (window as unknown as AxeWindow).axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations),
      );
      for (const v of found)
        if (v.impact === "serious" || v.impact === "critical")
          problems.push(
            `${label}: [${v.impact}] ${v.id} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
          );
    }
  }
  await page.setViewportSize(WIDTHS[0]);
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

describe("Feeds", () => {
  test("subscribe by pasting a site, see entries after a poll, pause, unsubscribe; accessible throughout", async () => {
    // axe is injected as an inline script, which our CSP would rightly refuse: this context ignores it.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const { dialogs, cspErrors } = watch(page);
    const problems: string[] = [];
    await signUp(page, base, "feeds-e2e@example.com");
    await page.goto(`${base}/notebooks`);
    await page.getByLabel("Name").first().fill("Coast");
    await page
      .getByRole("button", { name: /create/i })
      .first()
      .click();

    await page.getByRole("link", { name: "Feeds" }).click();
    await page.waitForURL(`${base}/feeds`);
    problems.push(...(await audit(page, "empty")));

    // Nothing found: the form comes back with what was tried.
    bare.set("/", {
      type: "text/html",
      body: "<!doctype html><html><head><title>About</title></head><body>Hi</body></html>",
    });
    await page.getByLabel("Site or feed address").fill(bare.url("/"));
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.locator("#f-url-error").waitFor();
    expect(await page.locator("#f-url-error").textContent()).toContain("HTTP 404");
    problems.push(...(await audit(page, "not-found")));

    await page.getByLabel("Site or feed address").fill(site.url("/"));
    await page.getByLabel("Check for new entries").selectOption({ label: "Every hour" });
    await page.getByLabel("Save right away").selectOption("3");
    await page.getByLabel("Coast").check();
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Subscribed. The first poll runs now").waitFor();
    expect(await page.locator("main").textContent()).toContain("No entries saved yet");

    // The first poll (a job) brings in the newest entries asked for.
    await ctx.runner.drain();
    await page.reload();
    await page.getByRole("link", { name: "Neap tides explained" }).waitFor();
    expect(await page.locator("ul.entries li").count()).toBe(2);
    expect(await page.locator("main h1").textContent()).toContain("Tide Times: notes from a long");
    problems.push(...(await audit(page, "detail")));

    // A new post, then Poll now: it appears at the top.
    site.set("/feed.xml", {
      body: rss(
        [post(3, "Storm surge season"), post(2, "Neap tides explained"), post(1, "Spring tides and the moon")],
        {
          title: "Tide Times: notes from a long and windy coastline",
        },
      ),
    });
    await page.getByRole("button", { name: /^Poll now: / }).click();
    await page.getByText("Polled: 1 new entry saved as sources.").waitFor();
    expect(await page.locator("ul.entries li a").first().textContent()).toBe("Storm surge season");
    await page.locator("ul.entries li a").first().click();
    await page.waitForURL(/\/library\/sources\/src_/);
    await page.goBack();

    // Pause from the list, then unsubscribe; the saved sources stay.
    await page.goto(`${base}/feeds`);
    problems.push(...(await audit(page, "list")));
    await page.getByRole("button", { name: /^Pause: / }).click();
    await page.getByText("Paused: the feed is not checked").waitFor();
    expect(await page.locator("li.step").textContent()).toContain("None while paused");
    problems.push(...(await audit(page, "paused")));
    await page.getByRole("link", { name: /^Unsubscribe…: / }).click();
    problems.push(...(await audit(page, "unsubscribe")));
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByText("Unsubscribed. The sources it saved stay").waitFor();
    expect(await page.locator("main").textContent()).toContain("You follow no feeds yet.");
    await page.goto(`${base}/library`);
    expect(await page.locator("main").textContent()).toContain("Storm surge season");

    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 120_000);

  test("a page offering several feeds: the person chooses one", async () => {
    site.set("/multi", {
      type: "text/html",
      body: `<!doctype html><html><head><title>Multi</title><link rel="alternate" type="application/rss+xml" title="All posts" href="/feed.xml"><link rel="alternate" type="application/atom+xml" title="Comments on every post, with a long name" href="/comments.xml"></head><body></body></html>`,
    });
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await signUp(page, base, "feeds-choose@example.com");
    await page.goto(`${base}/feeds`);
    await page.getByLabel("Site or feed address").fill(site.url("/multi"));
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("heading", { name: "Choose a feed" }).waitFor();
    expect(await audit(page, "choose")).toEqual([]);
    await page.getByLabel(/All posts/).check();
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Subscribed. The first poll runs now").waitFor();
    expect(await page.locator("dl.facts").first().textContent()).toContain(site.url("/feed.xml"));
    await context.close();
  }, 120_000);
});

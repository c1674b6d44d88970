// The reader in real Chromium: typography and theme apply at once and are kept after a reload; the
// place is saved while scrolling (and as the page is left) and the reader reopens there; reading to
// the end marks the source read; selecting text makes a highlight, marked inline across element
// boundaries and listed beside the article, whose note is then found by search and in the CSV
// export; axe-core finds nothing serious in the light, sepia and dark themes at 1280 and 390 px.
// Run with `bun test --timeout 60000 ./test/e2e/reader.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sqlRows } from "../../src/db/inspect.ts";
import { call } from "../helpers.ts";
import { launchChromium, signUp, startLiveApp, watch, type LiveApp } from "./browser.ts";

const AXE_SOURCE = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
const EMAIL = "reader@example.com";

const paragraphs = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} ${i + 1}: the estuary fills and empties twice a day, and with it the mudflats change colour from grey to silver to brown while waders work the edge of the water for worms and small crabs.</p>`,
  ).join("\n");
/** A long article with headings, a list, a table, code, a quote, entities and a line break before the passage to highlight. */
const ARTICLE = `<!doctype html><html lang="en"><head><title>A year on the estuary</title>
<meta name="author" content="Ines Ward"><meta property="og:site_name" content="Shore Notes"></head><body><main><article>
<h1>A year on the estuary</h1>
<h2>Winter</h2>
${paragraphs("Winter", 10)}
<ul><li>Dunlin &amp; knot</li><li>Curlew &mdash; the long bill</li></ul>
<table><tr><th>Month</th><th>Count</th></tr><tr><td>January</td><td>1,200</td></tr></table>
<pre><code>tide(low) =&gt; 0.4 m</code></pre>
<blockquote><p>The sea is   never the same twice.</p></blockquote>
<h2>Spring</h2>
<p>First line<br>second line of the spring notes.</p>
<p>At dawn the heron waits <em>perfectly still</em> and then strikes, faster than the eye can follow.</p>
${paragraphs("Spring", 10)}
<h2>Summer</h2>
${paragraphs("Summer", 10)}
<h2>Autumn</h2>
${paragraphs("Autumn", 10)}
</article></main></body></html>`;

const outside = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => new Response(ARTICLE, { headers: { "content-type": "text/html; charset=utf-8" } }),
});

let app: LiveApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let warnings: ReturnType<typeof watch>;
const pageErrors: string[] = [];
let readerUrl = "";
let sourceId = "";
let key = "";

beforeAll(async () => {
  app = startLiveApp();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  warnings = watch(page);
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await signUp(page, app.base, EMAIL);
  await page.goto(`${app.base}/library`);
  await page.getByLabel("Link").fill(`http://127.0.0.1:${outside.port}/estuary`);
  await page.getByRole("button", { name: "Save link" }).click();
  await page.waitForURL(/notice=added/);
  await app.ctx.runner.drain();
  const [user] = await sqlRows<{ id: string }>(app.ctx.db, "SELECT id FROM users WHERE email = ?", EMAIL);
  key = (await app.ctx.services.keys.create(user!.id, "e2e")).key;
  sourceId = (await call(app.ctx, "GET", "/api/v1/sources", { key })).body.data[0].id;
  readerUrl = `${app.base}/library/sources/${sourceId}`;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.server.stop(true);
  await outside.stop(true);
});

const source = async () => (await call(app.ctx, "GET", `/api/v1/sources/${sourceId}`, { key })).body;
const progressSaved = (p: Page) =>
  p.waitForResponse((r) => r.url().endsWith("/reader/progress") && r.request().method() === "POST", {
    timeout: 10_000,
  });
/** How far into the article the bottom of the window is: the script's own measure. */
const fractionOnScreen = (p: Page) =>
  p.evaluate(() => {
    const r = document.getElementById("r-article")!.getBoundingClientRect();
    return (window.innerHeight - r.top) / r.height;
  });
const scrollToFraction = (p: Page, f: number) =>
  p.evaluate((f) => {
    const r = document.getElementById("r-article")!.getBoundingClientRect();
    window.scrollTo({ top: r.top + window.scrollY + f * r.height - window.innerHeight, behavior: "instant" });
  }, f);

describe("the reader in the browser", () => {
  test("typography and theme apply at once and are kept after a reload", async () => {
    await page.goto(readerUrl);
    await page.locator("summary[title='Text and theme']").click();
    const panel = page.locator("form[data-reader-settings]");
    // With script, changes save themselves: the form's Save button is hidden.
    expect(await panel.getByRole("button", { name: "Save" }).isVisible()).toBe(false);
    const saved = () =>
      page.waitForResponse((r) => r.url().endsWith("/reader/preferences") && r.request().method() === "POST");

    let done = saved();
    await panel.locator(".seg label", { hasText: "Sans" }).click();
    await done;
    done = saved();
    await panel.getByLabel("Text size").selectOption("22");
    await done;
    done = saved();
    await panel.locator(".seg label", { hasText: "Sepia" }).click();
    const reader = page.locator("#reader");
    expect(await reader.getAttribute("data-theme")).toBe("sepia");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(244, 236, 216)");
    await done;
    expect(await reader.getAttribute("data-font")).toBe("sans");
    expect(await page.locator("#r-article").evaluate((el) => getComputedStyle(el).fontSize)).toBe("22px");

    await page.reload();
    expect(await reader.getAttribute("data-theme")).toBe("sepia");
    expect(await reader.getAttribute("data-font")).toBe("sans");
    expect(await reader.getAttribute("data-size")).toBe("22");
    expect(await page.locator("#r-article").evaluate((el) => getComputedStyle(el).fontFamily)).toContain("system-ui");
    expect(await page.getByLabel("Text size").inputValue()).toBe("22");
    expect((await call(app.ctx, "GET", "/api/v1/me/preferences", { key })).body).toMatchObject({
      reader_font: "sans",
      reader_size: 22,
      reader_theme: "sepia",
    });
    // Back to the defaults for the tests below, through the API.
    await call(app.ctx, "PATCH", "/api/v1/me/preferences", {
      key,
      body: { reader_font: "serif", reader_size: 19, reader_theme: "auto" },
    });
  }, 60_000);

  test("the place is saved while scrolling and as the page is left; the reader reopens there", async () => {
    await page.goto(readerUrl);
    const outline = page.locator("nav.r-outline");
    expect(await outline.getByRole("link").allTextContents()).toEqual(["Winter", "Spring", "Summer", "Autumn"]);

    const saved = progressSaved(page);
    await scrollToFraction(page, 0.5);
    await saved;
    const stored = (await source()).progress;
    expect(stored).toBeGreaterThan(0.45);
    expect(stored).toBeLessThan(0.55);
    const y = await page.evaluate(() => window.scrollY);
    expect(await page.locator("#r-progress").getAttribute("value")).toBe(String(Math.round(stored * 100)));

    await page.goto(`${app.base}/library`);
    await page.goto(readerUrl);
    await page.waitForFunction(() => window.scrollY > 0);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - y)).toBeLessThan(60);

    // Leaving before the next periodic save: the page's last place goes with the beacon.
    await scrollToFraction(page, 0.75);
    await page.waitForFunction(() => Number(document.getElementById("r-progress")!.getAttribute("value")) >= 74);
    await page.goto(`${app.base}/library`);
    for (let i = 0; i < 50 && (await source()).progress < 0.7; i++) await Bun.sleep(100);
    expect((await source()).progress).toBeGreaterThan(0.7);
    expect((await source()).progress).toBeLessThan(0.8);

    // A link to a heading wins over the saved place.
    await page.goto(`${readerUrl}#winter`);
    expect(await page.evaluate(() => document.getElementById("winter")!.getBoundingClientRect().top)).toBeLessThan(200);
  }, 60_000);

  test("reading to the end marks the source read", async () => {
    await page.goto(readerUrl);
    await page.waitForFunction(() => window.scrollY > 0);
    expect((await source()).read_at).toBeNull();
    const saved = progressSaved(page);
    await scrollToFraction(page, 1.05);
    expect(await fractionOnScreen(page)).toBeGreaterThanOrEqual(1);
    await saved;
    await page.locator("form[data-state=read] .sr-only", { hasText: "Mark as unread" }).waitFor();
    const s = await source();
    expect(s.progress).toBe(1);
    expect(s.read_at).not.toBeNull();
    // And back, without script's help: the toolbar's form.
    await page.getByRole("button", { name: "Mark as unread" }).click();
    await page.waitForURL(/notice=unread/);
    expect((await source()).read_at).toBeNull();
    expect(await page.getByRole("button", { name: "Mark as read" }).count()).toBe(1);
  }, 60_000);

  test("the tag field completes the tag typed after the last comma from the library's tags", async () => {
    const other = await call(app.ctx, "POST", "/api/v1/sources", {
      key,
      body: { url: `http://127.0.0.1:${outside.port}/waders`, tags: ["waders", "estuary-birds"] },
    });
    expect(other.status).toBe(201);
    await page.goto(readerUrl);
    await page.locator("summary[title=Tags]").click();
    const field = page.getByLabel("Tags", { exact: true });
    await field.fill("waders, est");
    const offered = () =>
      page.locator("#r-tag-names option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    // Each completion keeps what is typed before the last comma and offers a tag not in the field yet.
    expect(await offered()).toEqual(["waders, estuary-birds"]);
    await field.fill("");
    expect((await offered()).sort()).toEqual(["estuary-birds", "waders"]);
    await field.fill("waders, estuary-birds");
    await page.getByRole("button", { name: "Save tags" }).click();
    await page.waitForURL(/notice=tags_saved/);
    expect((await source()).tags).toEqual(["waders", "estuary-birds"]);
  }, 60_000);

  test("selecting text makes a highlight, marked inline and listed, with a note found by search and export", async () => {
    await page.goto(readerUrl);
    // Select from "heron" into the emphasised words: the quote crosses an element boundary.
    await page.evaluate(() => {
      const p = [...document.querySelectorAll("#r-article p")].find((el) =>
        el.textContent!.includes("the heron waits"),
      )!;
      const first = p.firstChild as Text;
      const em = p.querySelector("em")!.firstChild as Text;
      const range = document.createRange();
      range.setStart(first, first.data.indexOf("heron"));
      range.setEnd(em, em.data.indexOf("still") + "still".length);
      const sel = window.getSelection()!;
      sel.removeAllRanges();
      sel.addRange(range);
      p.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    });
    const sent = page.waitForRequest((r) => r.url().endsWith("/reader/highlights") && r.method() === "POST");
    const answer = page.waitForResponse(
      (r) => r.url().endsWith("/reader/highlights") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Highlight green" }).click();
    const form = new URLSearchParams((await sent).postData()!);
    expect(form.get("exact")).toBe("heron waits perfectly still");
    expect(form.get("prefix")).toEndWith("At dawn the ");
    expect((await answer).status()).toBe(201);
    const made = (await call(app.ctx, "GET", `/api/v1/highlights?source_id=${sourceId}`, { key })).body.data[0];
    // The page's text is the server's article text: the position it computed is where the server found it.
    expect(made.position).toEqual({ start: Number(form.get("start")), end: Number(form.get("end")) });
    expect(made.color).toBe("green");

    const marks = page.locator(`#r-article mark.hl-green[data-hl="${made.id}"]`);
    await marks.first().waitFor();
    expect(await marks.count()).toBe(2);
    expect((await marks.allTextContents()).join("")).toBe("heron waits perfectly still");
    expect(await marks.first().getAttribute("tabindex")).toBe("0");
    const item = page.locator(`#hl-${made.id}`);
    expect(await item.locator(".hl-quote").textContent()).toBe("heron waits perfectly still");

    // A note, in place.
    await item.locator("summary").click();
    await item.getByLabel("Note").fill("Herons: patience as a strategy");
    await item.getByRole("button", { name: "Save" }).click();
    await page.locator(`#hl-${made.id} .hl-note`, { hasText: "patience as a strategy" }).waitFor();
    expect(page.url()).toBe(readerUrl);
    await page.locator(`#r-article mark[data-hl="${made.id}"]`).first().waitFor();

    // Found by search and in the export.
    await app.ctx.runner.drain();
    const found = await call(app.ctx, "POST", "/api/v1/search", {
      key,
      body: { query: "patience strategy", types: ["highlight"] },
    });
    expect(found.status).toBe(200);
    expect(found.body.data.map((h: { id: string }) => h.id)).toContain(made.id);
    const csv = await call(app.ctx, "GET", "/api/v1/highlights/export.csv", { key });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("heron waits perfectly still");
    expect(csv.text).toContain("Herons: patience as a strategy");

    // Survives a reload: the server's list, the marks placed again.
    await page.reload();
    await page.locator(`#r-article mark[data-hl="${made.id}"]`).first().waitFor();
    expect(warnings.dialogs).toEqual([]);
    expect(warnings.cspErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

interface AxeWindow {
  axe: {
    run(
      context: Document,
      options: { resultTypes: string[] },
    ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
  };
}

describe("accessibility of the reader", () => {
  test("0 serious or critical axe violations in light, sepia and dark, at 1280 and 390 px, no sideways scroll", async () => {
    // axe is injected inline, which the page's CSP rightly refuses: this context ignores it.
    const audit = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const p = await audit.newPage();
    await p.goto(`${app.base}/signin`);
    await p.getByLabel("Email").fill(EMAIL);
    await p.getByLabel("Password").fill("correct horse battery");
    await p.getByRole("button", { name: "Sign in" }).click();
    await p.waitForURL((u) => !u.pathname.startsWith("/signin"));
    const problems: string[] = [];
    for (const [theme, scheme] of [
      ["light", "light"],
      ["sepia", "dark"],
      ["dark", "light"],
      ["auto", "dark"],
    ] as const) {
      await call(app.ctx, "PATCH", "/api/v1/me/preferences", { key, body: { reader_theme: theme } });
      await p.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 390]) {
        await p.setViewportSize({ width, height: 900 });
        await p.goto(`${readerUrl}#r-notebooks`);
        await p.locator("#r-article mark.hl").first().waitFor();
        // With the settings panel open, so its controls are audited too.
        await p.locator("summary[title='Text and theme']").click();
        await p.addScriptTag({ content: AXE_SOURCE });
        const found = await p.evaluate(() =>
          (window as unknown as AxeWindow).axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations),
        );
        for (const v of found)
          if (v.impact === "serious" || v.impact === "critical")
            problems.push(
              `${theme}/${scheme}/${width}: ${v.id} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
            );
        const wide = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (wide > 0) problems.push(`${theme}/${width}: ${wide}px too wide`);
      }
    }
    await audit.close();
    expect(problems).toEqual([]);
  }, 120_000);
});

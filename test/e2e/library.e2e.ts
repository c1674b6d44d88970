// The Library page in real Chromium: triage from the keyboard (j/k/f/e), bulk tag and archive, the
// cards/list choice remembered across reloads, the keys dialog, and an axe-core audit of cards and
// list in light and dark at desktop and phone width. E2E_SCREENSHOT_DIR=<dir> saves what it audits.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { systemActor } from "../../src/actor.ts";
import { sqlRows } from "../../src/db/inspect.ts";
import { encodePng } from "../../src/png.ts";
import { launchChromium, signUp, startLiveApp, watch, type LiveApp } from "./browser.ts";

const AXE_SOURCE = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

let browser: Browser;
let app: LiveApp;

beforeAll(async () => {
  app = startLiveApp();
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.server.stop(true);
});

/** A square gradient PNG: a stand-in preview image, served for every card image this page asks for. */
function gradient(size: number, seed: number): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      px[i] = (60 + seed * 37 + x) % 256;
      px[i + 1] = (90 + y / 2) % 256;
      px[i + 2] = (160 + seed * 53 - x / 3) % 256;
      px[i + 3] = 255;
    }
  return encodePng(px, size);
}

const SOURCES = [
  { title: "Life in the tide pools", site: "Coast Weekly", words: 1900, image: true, tags: ["nature", "coast"] },
  {
    title:
      "A very long headline about the slow and patient work of restoring a salt marsh after a century of drainage, told by the people who did it",
    site: "The Long Read",
    words: 7400,
    image: true,
    progress: 0.4,
  },
  { title: "Why notebooks?", site: null, words: 600, image: false, tags: ["method"] },
  { title: "Field notes: kelp forests in winter", site: "Marine Notes", words: 2400, image: false, original: "gone" },
  { title: "Ten small habits of careful readers", site: "Reading Room", words: 1200, image: true, progress: 0.85 },
  { title: "Sea stars and the art of holding on", site: null, words: 3100, image: false, tags: ["nature"] },
];

/** A signed-up person's library: ready sources with sites, excerpts, times, images, progress and tags. */
async function seed(email: string): Promise<{ userId: string; ids: string[] }> {
  const [user] = await sqlRows<{ id: string }>(app.ctx.db, "SELECT id FROM users WHERE email = ?", email);
  const actor = systemActor(user!.id, "test");
  const ids: string[] = [];
  for (const [i, s] of SOURCES.entries()) {
    const host = s.site ? `${s.site.toLowerCase().replace(/\W+/g, "")}.example` : `blog${i}.example.org`;
    const { source } = await app.ctx.services.sources.create(actor, {
      url: `https://${host}/posts/${i}`,
      title: s.title,
    });
    await sqlRows(
      app.ctx.db,
      "UPDATE sources SET status = 'ready', site_name = ?, excerpt = ?, word_count = ?, image_key = ?, progress = ?, original_status = ? WHERE id = ?",
      s.site,
      `An excerpt of “${s.title}”: the opening lines of the article as the page's description gave them, long enough to need clamping on a card.`,
      s.words,
      s.image ? `img/${i}` : null,
      s.progress ?? 0,
      s.original ?? null,
      source.id,
    );
    if (s.tags) await app.ctx.services.sources.update(actor, source.id, { tags: s.tags });
    ids.push(source.id);
  }
  return { userId: user!.id, ids: ids.reverse() };
}

async function signedInPage(email: string): Promise<{ context: BrowserContext; page: Page; ids: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.route("**/sources/*/image", (route) =>
    route.fulfill({
      status: 200,
      contentType: "image/png",
      body: Buffer.from(gradient(240, route.request().url().length)),
    }),
  );
  await signUp(page, app.base, email);
  const { ids } = await seed(email);
  await page.goto(`${app.base}/library`);
  return { context, page, ids };
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-live-id") ?? null);
const cardTitles = (page: Page) => page.locator("[data-card] a.title").allTextContents();

describe("the library in a browser", () => {
  test("triage from the keyboard: j/k move, f favorites, e archives out of the inbox into Archive", async () => {
    const { context, page, ids } = await signedInPage("keys-triage@example.com");
    const seen = watch(page);
    await page.keyboard.press("j");
    expect(await focusedId(page)).toBe(ids[0]!);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    expect(await focusedId(page)).toBe(ids[1]!);

    await page.keyboard.press("f");
    const second = page.locator(`#s-${ids[1]}`);
    await second.locator('[data-act="favorite"][aria-pressed="true"]').waitFor();
    expect(await focusedId(page)).toBe(ids[1]!);
    await page.getByRole("status").filter({ hasText: "Added" }).waitFor();

    await page.keyboard.press("e");
    await second.waitFor({ state: "detached" });
    // The focus moves on to the next source, and the live region says what happened.
    expect(await focusedId(page)).toBe(ids[2]!);
    await page
      .locator("#lib-announce")
      .filter({ hasText: `Archived “${SOURCES[4]!.title}”.` })
      .waitFor();
    expect(await cardTitles(page)).not.toContain(SOURCES[4]!.title);

    // t opens the focused card's menu at its tag field; Enter adds the tag in place.
    await page.keyboard.press("t");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`tag-${ids[2]}`);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "library-menu-open.png") });
    await page.keyboard.type("deep sea");
    await page.keyboard.press("Enter");
    await page.locator(`#s-${ids[2]} a.tag`, { hasText: "#deep sea" }).waitFor();
    expect(await page.locator(`#s-${ids[2]} details.menu`).getAttribute("open")).toBeNull();

    await page.goto(`${app.base}/library?view=archive`);
    expect(await cardTitles(page)).toEqual([SOURCES[4]!.title]);
    await page.goto(`${app.base}/library?view=favorites`);
    expect(await cardTitles(page)).toEqual([SOURCES[4]!.title]);
    expect(seen.cspErrors).toEqual([]);
    await context.close();
  }, 120_000);

  test("bulk: select with x and a click, add a tag to all, then archive them", async () => {
    const { context, page, ids } = await signedInPage("keys-bulk@example.com");
    const bar = page.getByRole("form", { name: "Selected sources" });
    expect(await bar.isVisible()).toBe(false);
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await page.getByRole("checkbox", { name: `Select ${SOURCES[3]!.title}` }).check();
    await bar.waitFor();
    expect(await bar.locator("[data-sel-count]").textContent()).toBe("3 selected");

    await bar.getByLabel("Tag for the selected sources").fill("later");
    await bar.getByRole("button", { name: "Add tag" }).click();
    await page.locator("#lib-announce").filter({ hasText: "Tagged 3 sources #later." }).waitFor();
    expect(await page.locator('[data-card] a.tag:text-is("#later")').count()).toBe(3);
    // The selection survives the cards being re-rendered.
    expect(await bar.locator("[data-sel-count]").textContent()).toBe("3 selected");

    await bar.getByRole("button", { name: "Archive", exact: true }).click();
    await page.locator("#lib-announce").filter({ hasText: "Archived 3 sources." }).waitFor();
    expect(await page.locator("[data-card]").count()).toBe(SOURCES.length - 3);
    expect(await bar.isVisible()).toBe(false);
    await page.goto(`${app.base}/library?view=archive&tag=later`);
    expect(await page.locator("[data-card]").count()).toBe(3);
    expect(await page.locator(`#s-${ids[0]}`).count()).toBe(1);
    await context.close();
  }, 120_000);

  test("the list view is remembered after a reload; ? opens the keys dialog and Esc closes it", async () => {
    const { context, page } = await signedInPage("keys-view@example.com");
    expect(await page.locator("ul.cards").count()).toBe(1);
    await page.getByRole("button", { name: "List" }).click();
    await page.locator("ul.rows").waitFor();
    await page.reload();
    expect(await page.locator("ul.rows").count()).toBe(1);
    expect(await page.getByRole("button", { name: "List" }).getAttribute("aria-pressed")).toBe("true");

    // Typing in a field is typing: no shortcut fires.
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("lib-q");
    await page.keyboard.type("j?");
    expect(await page.getByLabel("Search the library").inputValue()).toBe("j?");
    expect(await page.locator("dialog#keys").evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);

    await page.locator("h1").click();
    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Archive (or move back to the inbox)");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.keyboard.press("a");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-url");
    await context.close();
  }, 120_000);
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

describe("accessibility of the library", () => {
  test("cards and list, light and dark, desktop and phone: no serious or critical violations, no sideways scroll", async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.route("**/sources/*/image", (route) =>
      route.fulfill({
        status: 200,
        contentType: "image/png",
        body: Buffer.from(gradient(240, route.request().url().length)),
      }),
    );
    await signUp(page, app.base, "library-a11y@example.com");
    await seed("library-a11y@example.com");
    const problems: string[] = [];
    for (const layout of ["Cards", "List"]) {
      await page.goto(`${app.base}/library`);
      await page.getByRole("button", { name: layout }).click();
      await page.waitForLoadState();
      // One selected, so the bulk bar is audited too.
      await page.locator("input.pick").first().check();
      for (const scheme of ["light", "dark"] as const)
        for (const size of [
          { name: "desktop", width: 1280, height: 900 },
          { name: "phone", width: 390, height: 844 },
        ]) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize({ width: size.width, height: size.height });
          const label = `${layout} · ${scheme} · ${size.name}`;
          if (SHOTS)
            await page.screenshot({
              path: join(SHOTS, `library-${layout}-${scheme}-${size.name}.png`),
              fullPage: true,
            });
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (wide > 0) problems.push(`${label}: ${wide}px too wide`);
          if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
          const found = await page.evaluate(() =>
            (
              window as unknown as {
                axe: { run(d: Document, o: object): Promise<{ violations: Violation[] }> };
              }
            ).axe
              .run(document, { resultTypes: ["violations"] })
              .then((r) => r.violations),
          );
          for (const v of found)
            if (v.impact === "serious" || v.impact === "critical")
              problems.push(
                `${label}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
              );
        }
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});

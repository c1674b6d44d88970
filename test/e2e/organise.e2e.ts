// Organising in real Chromium: a suggested tag taken from a card with one click, two look-alike tags
// merged from the Tags page, and the note editor's picker finding a source among many as one types
// (and the notebook page adding several at once). Run with `bun run test:e2e`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { systemActor } from "../../src/actor.ts";
import { sqlRow } from "../../src/db/inspect.ts";
import { insertReadySource } from "../../src/features/podcasts/testing.ts";
import { launchChromium, signUp, startLiveApp, watch, type LiveApp } from "./browser.ts";

let app: LiveApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let userId: string;
const ids: string[] = [];

beforeAll(async () => {
  app = startLiveApp();
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  await signUp(page, app.base, "organise@example.com");
  userId = (
    (await sqlRow(app.ctx.db, "SELECT id FROM users WHERE email = ?", "organise@example.com")) as { id: string }
  ).id;
  for (let i = 0; i < 120; i++)
    ids.push(
      await insertReadySource(app.ctx.services, userId, {
        title: i === 77 ? "The heron at dawn" : `Field note ${i}`,
        markdown: `Notes from the estuary, day ${i}.`,
      }),
    );
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.server.stop(true);
});

describe("organising", () => {
  test("a suggested tag on a card becomes a tag with one click, in place", async () => {
    const actor = systemActor(userId, "e2e");
    await app.ctx.services.sources.update(actor, ids[119]!, { tags: ["birds"] });
    await app.ctx.services.sources.update(actor, ids[118]!, { suggested_tags: ["birds", "estuary"] });
    const seen = watch(page);
    await page.goto(`${app.base}/library?view=all`);
    const card = page.locator(`#s-${ids[118]}`);
    await card.getByRole("button", { name: /\+ birds/ }).click();
    await card.getByRole("link", { name: "#birds" }).waitFor();
    expect(await card.getByRole("button", { name: /\+ birds/ }).count()).toBe(0);
    expect(await card.getByRole("button", { name: /\+ estuary/ }).count()).toBe(1);
    expect((await app.ctx.services.sources.get(actor, ids[118]!)).tags).toBe('["birds"]');
    expect(seen.cspErrors).toEqual([]);
  });

  test("look-alike tags are proposed on the Tags page and merged with one click", async () => {
    const actor = systemActor(userId, "e2e");
    await app.ctx.services.sources.update(actor, ids[10]!, { tags: ["Web-Dev"] });
    await app.ctx.services.sources.update(actor, ids[11]!, { tags: ["web dev"] });
    await app.ctx.services.sources.update(actor, ids[12]!, { tags: ["web dev"] });
    await page.goto(`${app.base}/tags`);
    await page.getByRole("button", { name: "Merge Web-Dev into web dev" }).click();
    await page.waitForURL(/\/tags\/web%20dev\?notice=merged/);
    expect(await page.getByText("3 sources").first().isVisible()).toBe(true);
    const tags = await app.ctx.services.sources.tagCounts(actor);
    expect(tags.find((t) => t.name === "Web-Dev")).toBeUndefined();
  });

  test("the note editor finds a source among many as one types, and links it", async () => {
    await page.goto(`${app.base}/notes/new`);
    await page.getByLabel("Note (Markdown)").fill("Herons are patient.");
    await page.getByLabel(/Find a source/).fill("heron");
    const match = page.getByRole("checkbox", { name: "The heron at dawn" });
    await match.waitFor();
    await match.check();
    // Checked, it joins the chosen ones and stays when the search changes.
    await page.getByLabel(/Find a source/).fill("field note 3");
    await page.getByRole("checkbox", { name: "Field note 3", exact: true }).waitFor();
    expect(await page.getByRole("checkbox", { name: "The heron at dawn" }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Save note" }).click();
    await page.waitForURL(/\/notes\/note_[0-9A-Z]{26}\?notice=created/);
    expect(await page.getByRole("link", { name: "The heron at dawn" }).first().isVisible()).toBe(true);
  });

  test("a notebook page adds several sources at once", async () => {
    const nb = await app.ctx.services.notebooks.create(systemActor(userId, "e2e"), { name: "Birds" });
    await page.goto(`${app.base}/notebooks/${nb.id}`);
    await page.getByLabel(/Find a source/).fill("field note 5");
    await page.getByRole("checkbox", { name: "Field note 5", exact: true }).check();
    await page.getByRole("checkbox", { name: "Field note 50", exact: true }).check();
    await page.getByRole("button", { name: "Add the chosen sources" }).click();
    await page.waitForURL(/notice=added/);
    const listed = await app.ctx.services.sources.list(systemActor(userId, "e2e"), { limit: 10, notebookId: nb.id });
    expect(listed.data.map((s) => s.title).sort()).toEqual(["Field note 5", "Field note 50"]);
  });
});

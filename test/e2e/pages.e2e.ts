// Every page of the signed-in app with content that stresses its layout — long unbroken titles,
// addresses, tags and notebook names — audited in real Chromium: axe-core (no serious or critical
// violation) and no sideways overflow, light and dark, at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { systemActor } from "../../src/actor.ts";
import { sqlRow } from "../../src/db/inspect.ts";
import { insertReadySource } from "../../src/features/podcasts/testing.ts";
import { audit, blocking, WIDTHS } from "./audit.ts";
import { launchChromium, signUp, startLiveApp, type LiveApp } from "./browser.ts";

let browser: Browser;
let app: LiveApp;
let context: BrowserContext;
let page: Page;
const ids: Record<string, string> = {};

const LONG_WORD = "Supercalifragilisticexpialidocious".repeat(4);
const LONG_URL = `https://example.com/${"very-long-path-segment/".repeat(12)}?utm=${"x".repeat(80)}`;

beforeAll(async () => {
  app = startLiveApp();
  browser = await launchChromium();
  context = await browser.newContext({ bypassCSP: true, viewport: WIDTHS[0] });
  page = await context.newPage();
  await signUp(page, app.base, "pages@example.com");
  const { ctx } = app;
  const user = (await sqlRow(ctx.db, "SELECT id FROM users WHERE email = ?", "pages@example.com")) as { id: string };
  const actor = systemActor(user.id, "e2e");
  const markdown = [
    `# ${LONG_WORD}`,
    "",
    `Tide pools hold sea stars and anemones. ${LONG_WORD} appears here too, and a link: <${LONG_URL}>.`,
    "",
    "## Holding on",
    "",
    "Sea stars grip the rock with tube feet. Limpets clamp down. Anemones fold inward.",
    "",
    "| Column with a long header | Another |",
    "|---|---|",
    `| ${LONG_WORD} | ${LONG_URL} |`,
  ].join("\n");
  ids.source = await insertReadySource(ctx.services, user.id, {
    title: `${LONG_WORD} at low tide`,
    markdown,
    url: LONG_URL,
  });
  await ctx.services.sources.update(actor, ids.source, { tags: [LONG_WORD.slice(0, 90), "tide pools"] });
  const nb = await ctx.services.notebooks.create(actor, { name: `Notebook ${LONG_WORD}`.slice(0, 200) });
  ids.notebook = nb.id;
  await ctx.services.sources.addToNotebook(actor, nb.id, ids.source);
  const note = await ctx.services.notes.create(actor, {
    content: `# ${LONG_WORD}\n\n${LONG_URL}`,
    notebook_id: nb.id,
    source_ids: [ids.source],
  });
  ids.note = note.id;
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.server.stop(true);
});

const PAGES: [name: string, path: () => string][] = [
  ["library", () => "/library?view=all"],
  ["reader", () => `/library/sources/${ids.source}`],
  ["notebooks", () => "/notebooks"],
  ["notebook", () => `/notebooks/${ids.notebook}`],
  ["notes", () => "/notes"],
  ["note", () => `/notes/${ids.note}`],
  ["note-new", () => "/notes/new"],
  ["search", () => "/search?q=tide+pools"],
  ["tags", () => "/tags"],
  ["highlights", () => "/highlights"],
  ["tag", () => "/tags/tide%20pools"],
  ["podcasts", () => "/podcasts"],
  ["workflows", () => "/workflows"],
  ["feeds", () => "/feeds"],
  ["settings", () => "/settings"],
  ["keys", () => "/settings/keys"],
  ["account", () => "/settings/account"],
  ["import-export", () => "/settings/import-export"],
  ["extension", () => "/settings/extension"],
];

describe("every page, stressed with long content", () => {
  for (const [name, path] of PAGES) {
    test(`${name}: no serious or critical axe violation, no sideways overflow at 390 px`, async () => {
      const res = await page.goto(`${app.base}${path()}`);
      expect(res?.status()).toBe(200);
      const { violations, overflow } = await audit(page, `page-${name}`);
      if (blocking(violations).length) console.log(blocking(violations).join("\n"));
      expect(blocking(violations)).toEqual([]);
      expect(overflow).toEqual([]);
    }, 60_000);
  }
});

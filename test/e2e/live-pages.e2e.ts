// Browser tests of pages that follow a changing object without a reload, in real Chromium: a podcast
// being made (its player and transcript appear when it is ready), a workflow run (its steps appear as
// they finish), an import (its counts change). Each page is then audited with axe-core in light and
// dark and checked for sideways overflow at 390 px with long titles and URLs.
// Run with `bun test --timeout 120000 ./test/e2e/live-pages.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { runImports, upload } from "../../src/features/imports/test-support.ts";
import { insertReadySource } from "../../src/features/podcasts/testing.ts";
import { fire, webhookWorkflow } from "../../src/features/workflows/testing.ts";
import { userWithKey, type TestContext } from "../helpers.ts";
import { startOutsideWeb } from "../outside-web.ts";
import { launchChromium, startLiveApp, watch } from "./browser.ts";

const AXE_SOURCE = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
const SHOTS = process.env.E2E_SCREENSHOT_DIR;
const LONG_TITLE = `Tide pools, rock pools and the ${"extraordinarily".repeat(6)} long afternoon on the shore`;
const LONG_WORD = "Supercalifragilisticexpialidocious".repeat(3);

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
let me: Awaited<ReturnType<typeof userWithKey>>;
const web = startOutsideWeb();

// The workflow's call waits here until the test lets it go, so the run page is seen mid-run.
let releaseCall: () => void = () => {};
const callReleased = new Promise<void>((r) => (releaseCall = r));
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch() {
    await callReleased;
    return Response.json({ ok: true });
  },
});

beforeAll(async () => {
  // No spacing between an import's fetches to one host: the test's site is on loopback.
  ({ base, ctx, server } = startLiveApp({ IMPORT_HOST_SPACING_MS: "0" }));
  browser = await launchChromium();
  me = await userWithKey(ctx, "live-pages@example.com");
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  releaseCall();
  await browser?.close();
  await server?.stop(true);
  await receiver.stop(true);
  void web.stop();
  await ctx?.services.podcasts.close();
}, 120_000);

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

/** Opens a live page and waits for its event stream to be answered, so the work starts after it listens. */
async function openLive(page: Page, path: string): Promise<void> {
  const stream = page.waitForResponse((r) => r.url().includes("/events/stream"), { timeout: 30_000 });
  await page.goto(`${base}${path}`);
  await stream;
}

/** A marker on the window survives only if the page is not reloaded; navigations are counted too. */
async function stays(page: Page) {
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  let navigations = 0;
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) navigations++;
  });
  return async () => {
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(navigations).toBe(0);
  };
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core in light and dark at 1280 px and 390 px: serious or critical findings, and sideways overflow at 390 px. */
async function audit(path: string, name: string): Promise<void> {
  const { context, page } = await signedIn({ bypassCSP: true });
  await page.goto(`${base}${path}`);
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${scheme}-${width}.png`), fullPage: true });
      if (width === 390)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
      const violations = await page.evaluate(() =>
        (
          window as unknown as {
            axe: { run(d: Document, o: object): Promise<{ violations: Violation[] }> };
          }
        ).axe
          .run(document, { resultTypes: ["violations"] })
          .then((r) => r.violations),
      );
      for (const v of violations)
        if (v.impact === "serious" || v.impact === "critical")
          found.push(
            `${name} · ${scheme} · ${width}: ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
          );
    }
  }
  expect(found).toEqual([]);
  await context.close();
}

describe("pages that follow a changing object", () => {
  test("a podcast's page shows the player and transcript the moment the episode is ready, without a reload", async () => {
    const actor = { userId: me.userId, auth: { type: "api_key" as const, key_id: me.keyId, key_name: "t" } };
    const src = await insertReadySource(ctx.services, me.userId, {
      title: LONG_TITLE,
      markdown: `# Tide pools\n\nTide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet. However, a hot day can still dry them out. ${LONG_WORD} is not a word anyone says on a beach.\n`,
    });
    const pod = await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [src] });
    const { context, page } = await signedIn();
    const seen = watch(page);
    await openLive(page, `/podcasts/${pod.id}`);
    const region = page.locator(".podcast-live");
    expect(await region.locator(".podcast-status .status").textContent()).toBe("Queued");
    expect(await region.locator("progress").count()).toBe(1);
    // The reload hint is for pages without script.
    expect(await page.getByText("to see where it is").isVisible()).toBe(false);
    expect(await page.locator("audio").count()).toBe(0);
    const noReload = await stays(page);

    await ctx.runner.drain({ timeoutMs: 110_000 });
    const audio = page.locator(".podcast-live audio");
    await audio.waitFor({ timeout: 30_000 });
    expect(await audio.getAttribute("src")).toBe(`/podcasts/${pod.id}/audio`);
    const duration = await audio.evaluate(
      (a: HTMLAudioElement) =>
        new Promise<number>((resolve, reject) => {
          if (a.readyState >= 1) return resolve(a.duration);
          a.addEventListener("loadedmetadata", () => resolve(a.duration));
          a.addEventListener("error", () => reject(new Error(`audio error ${a.error?.code}`)));
        }),
    );
    expect(duration).toBeGreaterThan(3);
    expect(await region.locator(".podcast-status .status").textContent()).toBe("Ready");
    expect(await page.locator(".podcast-live progress").count()).toBe(0);
    expect(await page.getByText("Writing the script").count()).toBe(0);
    expect(await page.locator(".transcript li").count()).toBeGreaterThan(2);
    expect(await page.locator(".transcript .speaker").first().textContent()).toBe("Maya · narrator");
    await page.waitForFunction(() => /Ready/.test(document.querySelector(".live-announcer")?.textContent ?? ""));
    await noReload();
    expect(seen.cspErrors).toEqual([]);
    await context.close();

    await audit(`/podcasts/${pod.id}`, "podcast-ready");
    await audit("/podcasts", "podcast-list");
  }, 180_000);

  test("a failed podcast shows its error without a reload", async () => {
    const actor = { userId: me.userId, auth: { type: "api_key" as const, key_id: me.keyId, key_name: "t" } };
    const src = await insertReadySource(ctx.services, me.userId, { title: "Soon gone", markdown: "Short text." });
    const pod = await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [src] });
    const { context, page } = await signedIn();
    await openLive(page, `/podcasts/${pod.id}`);
    const noReload = await stays(page);
    await ctx.services.sources.delete(actor, src); // nothing left to talk about: the episode fails
    await ctx.runner.drain({ timeoutMs: 60_000 });
    await page.getByRole("alert").waitFor({ timeout: 30_000 });
    expect(await page.getByRole("alert").textContent()).toContain("This episode could not be made");
    expect(await page.locator(".podcast-live .podcast-status .status").textContent()).toBe("Failed");
    expect(await page.locator(".podcast-live progress").count()).toBe(0);
    await noReload();
    await context.close();
    await audit(`/podcasts/${pod.id}`, "podcast-failed");
  }, 120_000);

  test("a run's page shows its steps as they finish and its final status", async () => {
    const wf = await webhookWorkflow(ctx, me.key, [
      { id: "first", type: "create_notebook", name: `Notes on ${LONG_WORD}` },
      { id: "call", type: "http_request", url: `http://127.0.0.1:${receiver.port}/${LONG_WORD}/${LONG_WORD}` },
    ]);
    const { runs } = await fire(ctx, wf.path, { from: "test" });
    const { context, page } = await signedIn();
    const seen = watch(page);
    await openLive(page, `/runs/${runs[0]}`);
    expect(await page.getByText("No step has run yet.").count()).toBe(1);
    const noReload = await stays(page);

    // The runner works in the background while the call waits for the test.
    ctx.runner.start();
    await page.locator("#step-first .status.succeeded").waitFor({ timeout: 30_000 });
    expect(await page.locator(".run-live dl.facts .status").first().textContent()).not.toBe("succeeded");
    releaseCall();
    await page.locator("#step-call .status.succeeded").waitFor({ timeout: 30_000 });
    await page.locator(".run-live dl.facts .status.succeeded").first().waitFor({ timeout: 30_000 });
    expect(await page.getByRole("button", { name: "Replay from start" }).count()).toBe(1);
    await noReload();
    expect(seen.cspErrors).toEqual([]);
    await ctx.runner.stop({ graceMs: 1000 });
    await context.close();
    await audit(`/runs/${runs[0]}`, "run");
  }, 120_000);

  test("an import's page shows its counts as they change", async () => {
    const urls = [
      web.url("/article"),
      web.url("/notes.txt"),
      web.url(`/missing/${LONG_WORD}?${LONG_WORD}`),
      "javascript:alert(1)",
    ];
    const made = await upload(ctx, me.key, urls.join("\n"), { format: "urls", filename: `${LONG_WORD}.txt` });
    expect(made.status).toBe(202);
    const id = made.body.id as string;
    const { context, page } = await signedIn();
    await openLive(page, `/settings/import-export/${id}`);
    expect(await page.locator(".import-live").textContent()).toContain("0 of 4");
    const noReload = await stays(page);

    await runImports(ctx);
    await page.getByText(/4 of 4: 3 new, 0 already saved, 1 invalid/).waitFor({ timeout: 30_000 });
    // The pages it queued are fetched next: the fetch counts follow the sources' own events.
    await ctx.runner.drain({ timeoutMs: 60_000 });
    await page.getByText(/Pages fetched: 2 ready, 1 failed, 0 waiting/).waitFor({ timeout: 30_000 });
    await noReload();
    await context.close();
    await audit(`/settings/import-export/${id}`, "import");
    await audit("/settings/import-export", "imports");
  }, 120_000);
});

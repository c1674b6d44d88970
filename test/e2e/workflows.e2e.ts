// Browser tests of workflows in real Chromium: build a webhook workflow with a condition and an HTTP
// request in the form editor, call its URL, read the run, regenerate the token; watch a feed and poll it
// from the Feeds page; the editor without JavaScript. Run with `bun test --timeout 120000 ./test/e2e/workflows.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { rss, startFeedServer } from "../../src/features/feeds/testing.ts";
import type { TestContext } from "../helpers.ts";
import { audit, blocking } from "./audit.ts";
import { launchChromium, startLiveApp, signUp } from "./browser.ts";

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
const received: { body: unknown; headers: Headers }[] = [];
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    received.push({ body: await req.json(), headers: req.headers });
    return Response.json({ thanks: "<b>ok</b>" });
  },
});
const feeds = startFeedServer();

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp());
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
  void receiver.stop(true);
  void feeds.stop();
});

/** Dialogs, script errors and CSP violations, which must never happen on our pages. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(`script error: ${e.message}`));
  return problems;
}

const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

async function addAction(page: Page, list: string, type: string, button: string) {
  await field(page, `add_type:${list}`).selectOption(type);
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.waitForLoadState();
}

/** The editor's serious and critical axe violations and any sideways overflow, light and dark, 1280 and 390 px. */
async function auditEditor(page: Page, state: string): Promise<string[]> {
  const found = await audit(page, `editor-${state}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  return [...blocking(found.violations), ...found.overflow];
}

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("workflows in a browser", () => {
  test("build a webhook workflow with a condition and an HTTP request, run it, regenerate its token", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await signUp(page, base, "flows@example.com");

    await page.goto(`${base}/workflows`);
    await page.getByRole("link", { name: "New workflow" }).click();
    await page.waitForURL(`${base}/workflows/new`);
    // Enter in a field saves (the form's default button), it does not press a move or remove button.
    await page.getByLabel("Name").press("Enter");
    await page.getByText("The workflow was not saved").waitFor();

    await page.getByLabel("Name").fill("Links to chat");
    await addAction(page, "actions", "condition", "Add action");
    await field(page, "actions[0].id").fill("is_link");
    await field(page, "actions[0].if.all[0].left").fill("{{ kind }}");
    await field(page, "actions[0].if.all[0].op").selectOption("eq");
    await field(page, "actions[0].if.all[0].right").fill("link");
    await addAction(page, "actions[0].then", "http_request", "Add action to Then");
    await field(page, "actions[0].then[0].url").fill(`http://127.0.0.1:${receiver.port}/hook`);
    await field(page, "actions[0].then[0].body").fill('{"text": "New: {{ title }}"}');
    await field(page, "actions[0].then[0].store_response").check();
    await page.getByRole("button", { name: "Save workflow" }).first().click();

    const urlBox = page.locator("#webhook-url");
    await urlBox.waitFor();
    const url = await urlBox.inputValue();
    expect(url).toMatch(new RegExp(`^${base}/api/webhooks/workflows/cpw_[A-Za-z0-9_-]{43}$`));
    expect(await page.getByRole("button", { name: "Copy" }).isVisible()).toBe(true);
    // A reload is a plain GET of the workflow's page, which never shows the URL again.
    await page.reload();
    expect(new URL(page.url()).pathname).toMatch(/^\/workflows\/wf_/);
    expect(await page.locator("#webhook-url").count()).toBe(0);

    const hit = await postJson(url, { kind: "link", title: "Tide pools" });
    expect(hit.status).toBe(202);
    const runId = ((await hit.json()) as { runs: string[] }).runs[0]!;
    await ctx.runner.drain();
    expect(received.map((r) => r.body)).toEqual([{ text: "New: Tide pools" }]);
    expect(received[0]!.headers.get("idempotency-key")).toBe(`${runId}:request`);

    await page.reload();
    await page.getByRole("link", { name: `Open run ${runId}` }).click();
    await page.waitForURL(`${base}/runs/${runId}`);
    expect(await page.locator(`[data-live-id="${runId}"] dl.facts .status`).first().textContent()).toBe("succeeded");
    const steps = (await page.locator("section.step h3").allTextContents()).map((t) => t.replace(/\s+/g, " ").trim());
    expect(steps).toEqual(["1. is_link condition succeeded", "2. request http_request succeeded"]);
    expect(await page.locator('pre[aria-label="the output of request"]').textContent()).toContain(
      '"thanks": "<b>ok</b>"',
    );

    await page.goto(`${base}/settings/webhook-tokens`);
    await page.getByRole("link", { name: /^Regenerate cpw_/ }).click();
    await page.getByRole("button", { name: "Regenerate" }).click();
    await page.getByText("The old URL stopped working.").waitFor();
    const fresh = await page.locator("#webhook-url").inputValue();
    expect(fresh).not.toBe(url);
    expect((await postJson(url, { kind: "link" })).status).toBe(404);
    expect((await postJson(fresh, { kind: "other" })).status).toBe(202);

    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  test("the editor adds actions without a reload, offers notebooks by name and refuses a bad variable", async () => {
    // axe-core is injected as an inline script, which the CSP rightly refuses: this context ignores it
    // (the test above runs the editor's script under the real CSP).
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page);
    await signUp(page, base, "editor@example.com");
    for (const name of ["Reading", "Archive"]) {
      await page.goto(`${base}/notebooks`);
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Create notebook" }).click();
      await page.waitForURL(/\/notebooks\/nb_/);
    }

    await page.goto(`${base}/workflows/new`);
    await page.getByLabel("Name").fill("Reading list");
    await page.getByLabel("Body fields (optional)").fill("title, url");
    // A mark on the window survives only if the page is not reloaded.
    await page.evaluate(() => ((window as unknown as { stays: boolean }).stays = true));
    await field(page, "add_type:actions").selectOption("create_source");
    await page.getByRole("button", { name: "Add action", exact: true }).click();
    await field(page, "actions[0].url").waitFor();
    expect(await page.evaluate(() => (window as unknown as { stays?: boolean }).stays)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("actions[0].id");
    await field(page, "actions[0].url").fill("{{ url }}");
    await page.getByRole("group", { name: "Notebooks" }).getByLabel("Reading").check();

    await field(page, "add_type:actions").selectOption("add_source_to_notebook");
    await page.getByRole("button", { name: "Add action", exact: true }).click();
    await field(page, "actions[1].notebook_id").waitFor();
    expect(await page.evaluate(() => (window as unknown as { stays?: boolean }).stays)).toBe(true);
    // The first card can now move down: it is no longer the last.
    expect(await page.getByRole("button", { name: "Move down save" }).isDisabled()).toBe(false);
    expect(await field(page, "actions[1].notebook_id").locator("option").allTextContents()).toEqual([
      "Choose a notebook…",
      "Archive",
      "Reading",
    ]);
    await field(page, "actions[1].source_id").fill("{{ steps.save.source.id }}");
    await field(page, "actions[1].notebook_id").selectOption({ label: "Reading" });

    await field(page, "add_type:actions").selectOption("create_notebook");
    await page.getByRole("button", { name: "Add action", exact: true }).click();
    await field(page, "actions[2].name").fill("{{ titel }}");
    await page.getByRole("button", { name: "Save workflow" }).first().click();
    await page.getByText("The workflow was not saved").waitFor();
    const error = await page.locator("#f-actions-2-name-error").textContent();
    expect(error).toStartWith(
      '{{ titel }}: the webhook declares no body field "titel"; available: {{ title }}, {{ url }}',
    );
    expect(await field(page, "actions[1].notebook_id").inputValue()).toMatch(/^nb_/);
    expect((await auditEditor(page, "errors")).join("\n")).toBe("");

    await field(page, "actions[2].name").fill("{{ title }}");
    await page.getByRole("button", { name: "Save workflow" }).first().click();
    await page.locator("#webhook-url").waitFor();
    const summary = await page.locator("ol.action-summaries").textContent();
    expect(summary).toContain("add_to_notebook");
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await page.waitForURL(/\/edit$/);
    expect(await field(page, "actions[1].notebook_id").locator("option:checked").textContent()).toBe("Reading");
    expect((await auditEditor(page, "saved")).join("\n")).toBe("");
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  test("watch a feed with a workflow and poll it from the Feeds page", async () => {
    feeds.set("/tides.xml", { body: rss([{ id: "1", title: "Spring tides" }], { title: "Tide Times" }) });
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await signUp(page, base, "feeds@example.com");

    await page.goto(`${base}/workflows/new`);
    await page.getByLabel("Name").fill("Tide news");
    await addAction(page, "actions", "watch_feed", "Add action");
    await field(page, "actions[0].feed_url").fill(feeds.url("/tides.xml"));
    await page.getByRole("button", { name: "Save workflow" }).first().click();
    const url = await page.locator("#webhook-url").inputValue();
    expect((await postJson(url, {})).status).toBe(202);
    await ctx.runner.drain();

    await page.goto(`${base}/feeds`);
    expect(await page.locator("li.step h3").textContent()).toContain("Tide Times");
    feeds.set("/tides.xml", {
      body: rss(
        [
          { id: "2", title: "Neap tides" },
          { id: "1", title: "Spring tides" },
        ],
        { title: "Tide Times" },
      ),
    });
    await page.getByRole("button", { name: "Poll now: Tide Times" }).click();
    await page.getByText("Polled: 1 new entry saved as sources.").waitFor();
    expect(await page.locator("li.step").textContent()).toContain("1 new entry");
    await page.goto(`${base}/library`);
    expect(await page.content()).toContain("Neap tides");
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  test("the editor works with JavaScript turned off", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signUp(page, base, "nojs-flows@example.com");
    await page.goto(`${base}/workflows/new`);
    await page.getByLabel("Name").fill("No script");
    await addAction(page, "actions", "create_notebook", "Add action");
    await addAction(page, "actions", "create_source", "Add action");
    await page.getByRole("button", { name: "Move up save" }).click();
    await page.waitForLoadState();
    expect(await field(page, "actions[0].type").inputValue()).toBe("create_source");
    await page.getByRole("button", { name: "Remove notebook" }).click();
    await page.waitForLoadState();
    await field(page, "actions[0].url").fill("{{ url }}");
    await page.getByRole("button", { name: "Advanced: JSON" }).first().click();
    const json = JSON.parse(await page.locator("#f-json").inputValue());
    expect(json.actions).toEqual([{ id: "save", type: "create_source", url: "{{ url }}" }]);
    await page.getByRole("button", { name: "Save workflow" }).click();
    await page.locator("#webhook-url").waitFor();
    expect(await page.getByRole("button", { name: "Copy" }).count()).toBe(0);
    await context.close();
  }, 120_000);
});

// Settings → Feeds: watches made by watch_feed with their polling state, "Poll now" bringing new entries,
// outside titles and errors shown as text, delete after asking.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { call } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { rss, startFeedServer } from "../../features/feeds/testing.ts";
import { fire, webhookWorkflow } from "../../features/workflows/testing.ts";
import { post, setup } from "../library/test-helpers.ts";

const EVIL = `<img src=x onerror="alert(1)">News`;
let feeds: ReturnType<typeof startFeedServer>;
beforeEach(() => {
  feeds = startFeedServer();
  feeds.set("/feed.xml", { body: rss([{ id: "1", title: "One" }], { title: EVIL }) });
});
afterEach(() => feeds.stop());

/** A signed-in user whose watch_feed workflow has run once (the baseline poll). */
async function watching() {
  const s = await setup({ FEED_HOST_SPACING_MS: "0" });
  const wf = await webhookWorkflow(s.ctx, s.me.key, [
    { id: "watch", type: "watch_feed", feed_url: feeds.url("/feed.xml"), schedule: "0 * * * *" },
  ]);
  await fire(s.ctx, wf.path, {});
  await s.ctx.runner.drain();
  const feedId = (await call(s.ctx, "GET", "/api/v1/feeds", { key: s.me.key })).body.data[0].id as string;
  return { ...s, wf, feedId };
}

describe("feeds page", () => {
  test("lists each watch with its feed, workflow, schedule, last and next poll; titles are text", async () => {
    const { b, feedId, wf } = await watching();
    const page = await b.get("/settings/feeds");
    expect(page.status).toBe(200);
    const { document } = parseHTML(page.text);
    expect(document.querySelectorAll("main img").length).toBe(0);
    expect(document.querySelector("li.step h3")!.textContent).toContain(EVIL);
    expect(page.text).toContain(`<a href="${feeds.url("/feed.xml")}" rel="noreferrer noopener" class="mono">`);
    expect(page.text).toContain(`<a href="/workflows/${wf.id}">test</a>`);
    expect(page.text).toContain('<dd class="mono">0 * * * *</dd>');
    expect(page.text).toContain("ok (HTTP 200), 0 new entries");
    expect(page.text).toMatch(/Next poll<\/dt><dd><time datetime="[^"]+T\d\d:00:00.000Z">/);
    expect(page.text).toContain(`action="/settings/feeds/${feedId}/poll"`);
  });

  test("Poll now saves new entries as sources and says how many", async () => {
    const { ctx, b, me, feedId } = await watching();
    feeds.set("/feed.xml", {
      body: rss(
        [
          { id: "2", title: "Two" },
          { id: "1", title: "One" },
        ],
        { title: "Renamed" },
      ),
    });
    const polled = await post(ctx, b, `/settings/feeds/${feedId}/poll`);
    expect(polled.location).toBe("/settings/feeds?notice=polled&new=1");
    const page = await b.get(polled.location!);
    expect(page.text).toContain("Polled: 1 new entry saved as sources.");
    expect(page.text).toContain("ok (HTTP 200), 1 new entry");
    expect(page.text).toContain("2 entries seen, 1 source saved");
    const sources = (await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data;
    expect(sources.map((s: { url: string }) => s.url)).toEqual(["https://news.example/2"]);
    // Unchanged since: a conditional GET answers 304.
    const again = await post(ctx, b, `/settings/feeds/${feedId}/poll`);
    expect(again.location).toBe("/settings/feeds?notice=not_modified");
    expect((await b.get("/settings/feeds")).text).toContain("not modified (304), 0 new entries");
  });

  test("a failing feed shows its error as text", async () => {
    const { ctx, b, feedId } = await watching();
    feeds.set("/feed.xml", { body: "gone", status: 503 });
    const polled = await post(ctx, b, `/settings/feeds/${feedId}/poll`);
    expect(polled.location).toBe("/settings/feeds?notice=poll_failed");
    let page = await b.get(polled.location!);
    expect(page.text).toContain("failing × 1");
    expect(page.text).toContain("failed (HTTP 503)");
    // Error texts can carry what a server said; they render as text.
    await sqlRows(ctx.db, "UPDATE feed_watches SET last_error = ? WHERE id = ?", `<script>alert(1)</script>`, feedId);
    page = await b.get("/settings/feeds");
    expect(page.text).toContain('<dd class="error-text">&lt;script&gt;alert(1)&lt;/script&gt;</dd>');
  });

  test("delete asks first; the sources stay", async () => {
    const { ctx, b, me, feedId } = await watching();
    const confirm = await b.get(`/settings/feeds/${feedId}/delete`);
    expect(confirm.text).toContain("Stop watching this feed?");
    expect(confirm.text).toContain("&lt;img src=x");
    const gone = await post(ctx, b, `/settings/feeds/${feedId}/delete`);
    expect(gone.location).toBe("/settings/feeds?notice=deleted");
    expect((await call(ctx, "GET", "/api/v1/feeds", { key: me.key })).body.data).toEqual([]);
    expect((await b.get("/settings/feeds")).text).toContain("No feeds are watched.");
  });
});

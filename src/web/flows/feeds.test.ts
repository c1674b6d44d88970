// Feeds in the web app, without script: subscribe by pasting a site (choosing when it offers several feeds,
// an error listing what was tried when it offers none), the list and a feed's page with its entries,
// pause/resume, poll now, settings and unsubscribe; outside titles and errors shown as text.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { call } from "../../../test/helpers.ts";
import { hiddenFields } from "../../../test/browser-client.ts";
import { sqlRows } from "../../db/inspect.ts";
import { rss, startFeedServer, type Item } from "../../features/feeds/testing.ts";
import { fire, webhookWorkflow } from "../../features/workflows/testing.ts";
import { post, send, setup, signedInPerson } from "../library/test-helpers.ts";

const EVIL = `<img src=x onerror="alert(1)">News`;
let feeds: ReturnType<typeof startFeedServer>;
const item = (n: number): Item => ({ id: `p${n}`, title: `Post ${n}`, link: feeds.url(`/posts/${n}`) });
const page = (head: string) => `<!doctype html><html><head><title>Site</title>${head}</head><body>Hi</body></html>`;

beforeEach(() => {
  feeds = startFeedServer();
  feeds.set("/feed.xml", { body: rss([item(1)], { title: EVIL }) });
  feeds.set("/atom.xml", { body: rss([item(1)], { title: "Atom one" }) });
  feeds.set("/", {
    type: "text/html",
    body: page(`<link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">`),
  });
});
afterEach(() => feeds.stop());

const idOf = (location: string | null) => /\/feeds\/(feed_[0-9A-Z]{26})/.exec(location ?? "")![1]!;

describe("subscribing", () => {
  test("pasting a site: its feed is found, the feed's page shows it; the first poll fills it in", async () => {
    const { ctx, b, me } = await setup({ FEED_HOST_SPACING_MS: "0" });
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: me.key, body: { name: "Reading <list>" } })).body;
    const list = await b.get("/feeds");
    expect(list.status).toBe(200);
    expect(list.text).toContain('<a href="/feeds" aria-current="page">Feeds</a>');
    expect(list.text).toContain("You follow no feeds yet.");
    expect(list.text).toContain(`<input type="checkbox" name="notebook_ids" value="${nb.id}"> Reading &lt;list&gt;`);

    const r = await post(ctx, b, "/feeds", {
      url: feeds.url("/"),
      schedule: "0 */6 * * *",
      backfill: "3",
      notebook_ids: [nb.id],
    });
    expect(r.status).toBe(303);
    expect(r.location).toMatch(/^\/feeds\/feed_[0-9A-Z]{26}\?notice=subscribed$/);
    const id = idOf(r.location);
    let detail = await b.get(r.location!);
    expect(detail.text).toContain("Subscribed. The first poll runs now");
    expect(detail.text).toContain("Not polled yet");
    expect(detail.text).toContain('<option value="0 */6 * * *" selected>Every 6 hours</option>');
    expect(detail.text).toContain(`value="${nb.id}" checked`);

    await ctx.runner.drain();
    detail = await b.get(`/feeds/${id}`);
    const { document } = parseHTML(detail.text);
    expect(document.querySelectorAll("main img").length).toBe(0);
    expect(document.querySelector("main h1")!.textContent).toContain(EVIL);
    expect(detail.text).toContain("ok (HTTP 200), 1 new entry");
    const entry = document.querySelector("ul.entries li a")!;
    const sourceId = (await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data[0].id;
    expect(entry.getAttribute("href")).toBe(`/library/sources/${sourceId}`);
    expect(detail.text).toMatch(/Next poll<\/dt><dd><time datetime="[^"]+">/);
  });

  test("a page offering several feeds asks which one; the choice keeps the schedule", async () => {
    const { ctx, b, me } = await setup({ FEED_HOST_SPACING_MS: "0" });
    feeds.set("/multi", {
      type: "text/html",
      body: page(
        `<link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">` +
          `<link rel="alternate" type="application/atom+xml" title="Comments" href="/atom.xml">`,
      ),
    });
    const choose = await post(ctx, b, "/feeds", { url: feeds.url("/multi"), schedule: "0 7 * * *", backfill: "0" });
    expect(choose.status).toBe(200);
    expect(choose.text).toContain("Choose a feed");
    const radios = [...parseHTML(choose.text).document.querySelectorAll('input[type="radio"][name="url"]')];
    expect(radios.map((r) => r.getAttribute("value"))).toEqual([feeds.url("/atom.xml"), feeds.url("/feed.xml")]);
    const fields = hiddenFields(choose.text, "/feeds");
    expect(fields.schedule).toBe("0 7 * * *");
    const form = new URLSearchParams({ ...fields, url: feeds.url("/feed.xml") });
    const done = await send(ctx, b, "/feeds", form);
    expect(done.status).toBe(303);
    const feed = (await call(ctx, "GET", `/api/v1/feeds/${idOf(done.location)}`, { key: me.key })).body;
    expect(feed).toMatchObject({ feed_url: feeds.url("/feed.xml"), schedule: "0 7 * * *" });
  });

  test("nothing found: the form comes back (422) with the address and what was tried", async () => {
    const { ctx, b } = await setup({ FEED_HOST_SPACING_MS: "0" });
    feeds.set("/bare", { type: "text/html", body: page("") });
    for (const p of ["/feed.xml", "/atom.xml"]) feeds.set(p, { body: "not here", status: 404 });
    const r = await post(ctx, b, "/feeds", { url: feeds.url("/bare"), schedule: "0 * * * *", backfill: "0" });
    expect(r.status).toBe(422);
    const { document } = parseHTML(r.text);
    expect(document.querySelector("#f-url")!.getAttribute("value")).toBe(feeds.url("/bare"));
    expect(document.querySelector("#f-url")!.getAttribute("aria-invalid")).toBe("true");
    const errors = [...document.querySelectorAll("#f-url-error li")].map((li) => li.textContent);
    expect(errors[0]).toBe(`${feeds.url("/bare")}: an HTML page that advertises no feed`);
    expect(errors).toContain(`${feeds.url("/rss.xml")}: HTTP 404`);
    expect(r.text).toContain('<option value="0 * * * *" selected>Every hour</option>');
    // Subscribing twice lands on the one feed.
    feeds.set("/feed.xml", { body: rss([item(1)]) });
    await post(ctx, b, "/feeds", { url: feeds.url("/feed.xml") });
    const again = await post(ctx, b, "/feeds", { url: feeds.url("/") });
    expect(again.location).toEndWith("?notice=already");
  });
});

describe("managing a feed", () => {
  async function subscribed() {
    const s = await setup({ FEED_HOST_SPACING_MS: "0" });
    const r = await post(s.ctx, s.b, "/feeds", { url: feeds.url("/feed.xml") });
    await s.ctx.runner.drain();
    return { ...s, id: idOf(r.location) };
  }

  test("pause and resume from the list; poll now brings new entries; settings save", async () => {
    const { ctx, b, me, id } = await subscribed();
    const paused = await post(ctx, b, `/feeds/${id}/pause`, { back: "/feeds" });
    expect(paused.location).toBe("/feeds?notice=paused");
    let list = await b.get("/feeds");
    expect(list.text).toContain("None while paused");
    expect(list.text).toContain(`action="/feeds/${id}/resume"`);
    const resumed = await post(ctx, b, `/feeds/${id}/resume`, { back: `/feeds/${id}` });
    expect(resumed.location).toBe(`/feeds/${id}?notice=resumed`);
    list = await b.get("/feeds");
    expect(list.text).toContain(`action="/feeds/${id}/pause"`);

    feeds.set("/feed.xml", { body: rss([item(2), item(1)], { title: "Renamed" }) });
    const polled = await post(ctx, b, `/feeds/${id}/poll`, { back: `/feeds/${id}` });
    expect(polled.location).toBe(`/feeds/${id}?notice=polled&new=1`);
    const detail = await b.get(polled.location!);
    expect(detail.text).toContain("Polled: 1 new entry saved as sources.");
    expect(detail.text).toContain(">Post 2</a>");

    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: me.key, body: { name: "N" } })).body;
    const saved = await post(ctx, b, `/feeds/${id}/settings`, { schedule: "0 7 * * *", notebook_ids: [nb.id] });
    expect(saved.location).toBe(`/feeds/${id}?notice=saved`);
    expect((await call(ctx, "GET", `/api/v1/feeds/${id}`, { key: me.key })).body).toMatchObject({
      schedule: "0 7 * * *",
      notebook_ids: [nb.id],
    });
    // Unchecking every notebook clears them.
    await post(ctx, b, `/feeds/${id}/settings`, { schedule: "0 7 * * *" });
    expect((await call(ctx, "GET", `/api/v1/feeds/${id}`, { key: me.key })).body.notebook_ids).toEqual([]);
  });

  test("a failing feed shows its error as text; unsubscribe asks first and keeps the sources", async () => {
    const { ctx, b, me, id } = await subscribed();
    feeds.set("/feed.xml", { body: "gone", status: 503 });
    const polled = await post(ctx, b, `/feeds/${id}/poll`, {});
    expect(polled.location).toBe("/feeds?notice=poll_failed");
    await sqlRows(ctx.db, "UPDATE feed_watches SET last_error = ? WHERE id = ?", `<script>alert(1)</script>`, id);
    const list = await b.get("/feeds");
    expect(list.text).toContain("failing × 1");
    expect(list.text).toContain('<dd class="error-text">&lt;script&gt;alert(1)&lt;/script&gt;</dd>');

    await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: feeds.url("/posts/9") } });
    const confirm = await b.get(`/feeds/${id}/unsubscribe`);
    expect(confirm.text).toContain("Unsubscribe from this feed?");
    expect(confirm.text).toContain("&lt;img src=x");
    const gone = await post(ctx, b, `/feeds/${id}/unsubscribe`);
    expect(gone.location).toBe("/feeds?notice=unsubscribed");
    expect((await b.get("/feeds")).text).toContain("You follow no feeds yet.");
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(1);
  });

  test("a workflow's watch is listed with its workflow; the old Settings address redirects; others' feeds are 404", async () => {
    const s = await setup({ FEED_HOST_SPACING_MS: "0" });
    const wf = await webhookWorkflow(s.ctx, s.me.key, [
      { id: "watch", type: "watch_feed", feed_url: feeds.url("/feed.xml"), schedule: "0 * * * *" },
    ]);
    await fire(s.ctx, wf.path, {});
    await s.ctx.runner.drain();
    const list = await s.b.get("/feeds");
    expect(list.text).toContain(`<a href="/workflows/${wf.id}">test</a>`);
    expect(list.text).toContain("<dd>Every hour</dd>");
    const old = await s.ctx.app.handle(new Request("http://localhost/settings/feeds"));
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe("/feeds");
    const id = (await call(s.ctx, "GET", "/api/v1/feeds", { key: s.me.key })).body.data[0].id;
    expect((await s.b.get(`/feeds/${id}`)).status).toBe(200);
    const other = await signedInPerson(s.ctx);
    const mine = await post(s.ctx, other.b, "/feeds", { url: feeds.url("/feed.xml") });
    expect(idOf(mine.location)).not.toBe(id);
    expect((await other.b.get(`/feeds/${id}`)).status).toBe(404);
    expect((await post(s.ctx, other.b, `/feeds/${id}/pause`)).status).toBe(404);
  });
});

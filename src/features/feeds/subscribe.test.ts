// Subscribing over /api/v1/feeds against a local site: discovery from a page's alternate links (relative,
// several, none), one watch per feed however it was made (twice, watch_feed, OPML), the first poll in the
// job runner, entries, pause/resume stopping polls, unsubscribe keeping sources, and bad input.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { systemActor } from "../../actor.ts";
import { fakeClock, type FakeClock } from "../../jobs/testing.ts";
import { atom, insertWorkflow, rss, startFeedServer, type Item } from "./testing.ts";

let server: ReturnType<typeof startFeedServer>;
let ctx: TestContext;
let clock: FakeClock;

const page = (head: string) =>
  `<!doctype html><html><head><title>A blog</title>${head}</head><body><p>Hello</p></body></html>`;
const HTML = "text/html; charset=utf-8";
// Entry links point at the local site, so saving them fetches nothing outside.
const item = (n: number): Item => ({
  id: `p${n}`,
  title: `Post ${n}`,
  link: server.url(`/posts/${n}`),
  date: `2024-03-0${n}T08:00:00Z`,
});

beforeEach(() => {
  server = startFeedServer();
  clock = fakeClock(Date.UTC(2030, 0, 1, 10, 0));
  ctx = createTestContext({ FEED_HOST_SPACING_MS: "0" }, { clock });
  server.set("/blog/feed.xml", { body: rss([item(2), item(1)], { title: "The RSS feed" }) });
  server.set("/blog/atom.xml", {
    body: atom([item(2), item(1)], { title: "The Atom feed" }),
    type: "application/atom+xml",
  });
});
afterEach(() => {
  void server.stop();
  ctx.db.close();
});

/** The first slot of `cron` at least `ms` from now (cron is read in the server's time zone). */
const slotAfter = (cron: string, ms: number) =>
  new Date(ctx.services.scheduler.nextRun(cron, clock.now() + ms - 1)!).toISOString();
const subscribe = (key: string, body: Record<string, unknown>) => call(ctx, "POST", "/api/v1/feeds", { key, body });

describe("POST /api/v1/feeds", () => {
  test("a feed address: 201, pending; the first poll runs in the job runner and saves the backfill", async () => {
    const a = await userWithKey(ctx);
    const nb = await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Blogs" } });
    const r = await subscribe(a.key, {
      url: server.url("/blog/feed.xml"),
      schedule: "0 * * * *",
      notebook_ids: [nb.body.id],
      backfill: 1,
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/v1/feeds/${r.body.id}`);
    expect(r.body).toMatchObject({
      feed_url: server.url("/blog/feed.xml"),
      workflow_id: null,
      schedule: "0 * * * *",
      notebook_ids: [nb.body.id],
      active: true,
      paused: false,
      status: "pending",
      last_polled_at: null,
    });
    // Nothing was parsed in the request: the poll is a job.
    expect(server.hits("/blog/feed.xml")).toHaveLength(1);
    await ctx.runner.drain();
    expect(server.hits("/blog/feed.xml")).toHaveLength(2);
    const feed = (await call(ctx, "GET", `/api/v1/feeds/${r.body.id}`, { key: a.key })).body;
    expect(feed).toMatchObject({ status: "ok", title: "The RSS feed", entries_seen: 2, sources_created: 1 });
    expect(feed.next_poll_at).toBe(slotAfter("0 * * * *", 5 * 60_000));

    const entries = await call(ctx, "GET", `/api/v1/feeds/${r.body.id}/entries`, { key: a.key });
    expect(entries.status).toBe(200);
    expect(entries.body.data).toMatchObject([
      { title: "Post 2", url: server.url("/posts/2"), seen_at: feed.last_polled_at },
    ]);
    const source = (await call(ctx, "GET", `/api/v1/sources/${entries.body.data[0].source_id}`, { key: a.key })).body;
    expect(source.notebook_ids).toEqual([nb.body.id]);
  });

  test("an HTML page: its advertised feed (relative href) is found; Atom is preferred; discover lists both", async () => {
    const a = await userWithKey(ctx);
    server.set("/blog/", {
      type: HTML,
      body: page(
        `<link rel="stylesheet" href="/s.css"><link rel="alternate" type="application/rss+xml" title="RSS" href="feed.xml">` +
          `<link rel="alternate" type="application/atom+xml" title="Atom &amp; more" href="atom.xml">`,
      ),
    });
    const found = await call(ctx, "POST", "/api/v1/feeds/discover", {
      key: a.key,
      body: { url: server.url("/blog/") },
    });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      url: server.url("/blog/"),
      feeds: [
        { url: server.url("/blog/atom.xml"), title: "Atom & more", kind: "atom" },
        { url: server.url("/blog/feed.xml"), title: "RSS", kind: "rss" },
      ],
      tried: [{ url: server.url("/blog/"), outcome: "an HTML page advertising 2 feed(s)" }],
    });
    const r = await subscribe(a.key, { url: server.url("/blog/") });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ feed_url: server.url("/blog/atom.xml"), title: "Atom & more" });
    await ctx.runner.drain();
    expect((await call(ctx, "GET", `/api/v1/feeds/${r.body.id}`, { key: a.key })).body.title).toBe("The Atom feed");
  });

  test("a page with no alternate link: the usual places are tried; nothing anywhere is 422 on url listing them", async () => {
    const a = await userWithKey(ctx);
    server.set("/plain", { type: HTML, body: page(`<link rel="alternate" hreflang="fr" href="/fr/">`) });
    const r = await subscribe(a.key, { url: server.url("/plain") });
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.body.errors[0].path).toBe("url");
    expect(r.body.errors[0].message).toStartWith("no feed found; tried");
    expect(r.body.errors.slice(1)).toEqual([
      { path: "url", message: `${server.url("/plain")}: an HTML page that advertises no feed` },
      ...["/feed", "/feed.xml", "/rss.xml", "/atom.xml", "/index.xml"].map((p) => ({
        path: "url",
        message: `${server.url(p)}: HTTP 404`,
      })),
    ]);
    expect((await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data).toEqual([]);
    // A site keeping its feed at a usual place is found there.
    server.set("/rss.xml", { body: rss([item(1)]) });
    const found = await subscribe(a.key, { url: server.url("/plain") });
    expect(found.status).toBe(201);
    expect(found.body.feed_url).toBe(server.url("/rss.xml"));
  });

  test("an address refused by the fetch rules is 422 saying so, and nothing else is asked", async () => {
    const strict = createTestContext({ ALLOW_PRIVATE_NETWORK: "false" });
    const a = await userWithKey(strict);
    const r = await call(strict, "POST", "/api/v1/feeds", { key: a.key, body: { url: server.url("/blog/feed.xml") } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toHaveLength(2);
    expect(r.body.errors[1].message).toContain("blocked_address");
    expect(server.requests).toHaveLength(0);
    strict.db.close();
  });

  test("bad input is 422 naming the field", async () => {
    const a = await userWithKey(ctx);
    const cases: [Record<string, unknown>, string][] = [
      [{ url: "ftp://example.com/feed" }, "url"],
      [{ url: server.url("/blog/feed.xml"), schedule: "every day" }, "schedule"],
      [{ url: server.url("/blog/feed.xml"), notebook_ids: ["nb_01J00000000000000000000000"] }, "notebook_ids[0]"],
      [{ url: server.url("/blog/feed.xml"), colour: "red" }, "colour"],
    ];
    for (const [body, path] of cases) {
      const r = await subscribe(a.key, body);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body.errors)).toContain(path);
    }
    expect((await call(ctx, "POST", "/api/v1/feeds", { body: { url: server.url("/blog/feed.xml") } })).status).toBe(
      401,
    );
  });
});

describe("one watch per feed", () => {
  test("subscribing twice, by the feed or by its page, gives the one watch (200), notebooks added", async () => {
    const a = await userWithKey(ctx);
    server.set("/blog/", {
      type: HTML,
      body: page(`<link rel="alternate" type="application/rss+xml" href="/blog/feed.xml">`),
    });
    const first = await subscribe(a.key, { url: server.url("/blog/feed.xml") });
    const nb = await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Later" } });
    const again = await subscribe(a.key, { url: server.url("/blog/feed.xml"), notebook_ids: [nb.body.id] });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, notebook_ids: [nb.body.id] });
    const viaPage = await subscribe(a.key, { url: server.url("/blog/") });
    expect(viaPage.status).toBe(200);
    expect(viaPage.body.id).toBe(first.body.id);
    expect((await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data).toHaveLength(1);
    // Another user's subscription to the same feed is their own.
    const b = await userWithKey(ctx);
    expect((await subscribe(b.key, { url: server.url("/blog/feed.xml") })).status).toBe(201);
  });

  test("a watch_feed step naming a subscribed feed reuses the watch as it is; subscribing takes over a workflow's", async () => {
    const a = await userWithKey(ctx);
    const sub = await subscribe(a.key, { url: server.url("/blog/feed.xml"), schedule: "0 7 * * *" });
    const wf = await insertWorkflow(ctx.db, a.userId);
    const actor = systemActor(a.userId, `workflow:${wf}`, 1);
    const out = await ctx.services.feeds.watch(actor, wf, {
      feed_url: server.url("/blog/feed.xml"),
      schedule: "*/5 * * * *",
    });
    expect(out.feed_id).toBe(sub.body.id);
    const list = (await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data;
    expect(list).toMatchObject([{ id: sub.body.id, workflow_id: null, schedule: "0 7 * * *" }]);

    // The other way round: the workflow's watch comes first, then the person subscribes to it.
    const own = await ctx.services.feeds.watch(actor, wf, { feed_url: server.url("/blog/atom.xml") });
    expect((await call(ctx, "GET", `/api/v1/feeds/${own.feed_id}`, { key: a.key })).body.workflow_id).toBe(wf);
    const taken = await subscribe(a.key, { url: server.url("/blog/atom.xml") });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ id: own.feed_id, workflow_id: null, active: true });
    expect((await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data).toHaveLength(2);
  });

  test("an OPML import naming a subscribed feed adds no watch", async () => {
    const a = await userWithKey(ctx);
    const sub = await subscribe(a.key, { url: server.url("/blog/feed.xml") });
    const opml = `<?xml version="1.0"?><opml version="2.0"><body><outline text="Blog" xmlUrl="${server.url("/blog/feed.xml")}"/><outline text="Atom" xmlUrl="${server.url("/blog/atom.xml")}"/></body></opml>`;
    const form = new FormData();
    form.set("file", new File([opml], "subs.opml"));
    const res = await ctx.app.handle(
      new Request("http://localhost/api/v1/imports", {
        method: "POST",
        headers: { authorization: `Bearer ${a.key}` },
        body: form,
      }),
    );
    expect(res.status).toBe(202);
    const imp = (await res.json()) as { id: string };
    await ctx.runner.drain();
    const counts = (await call(ctx, "GET", `/api/v1/imports/${imp.id}`, { key: a.key })).body.counts;
    expect(counts).toMatchObject({ feeds_watched: 1, already_saved: 1 });
    const list = (await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data;
    expect(list.map((f: { feed_url: string }) => f.feed_url).sort()).toEqual(
      [server.url("/blog/atom.xml"), server.url("/blog/feed.xml")].sort(),
    );
    expect(list.find((f: { id: string }) => f.id === sub.body.id)).toBeDefined();
  });
});

describe("PATCH /api/v1/feeds/{id} and entries", () => {
  test("pause stops scheduled polls; resume brings them back; poll now still works while paused", async () => {
    const a = await userWithKey(ctx);
    const sub = await subscribe(a.key, { url: server.url("/blog/feed.xml") });
    await ctx.runner.drain();
    const paused = await call(ctx, "PATCH", `/api/v1/feeds/${sub.body.id}`, { key: a.key, body: { active: false } });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ active: false, paused: true, next_poll_at: null });
    const polls = () => server.hits("/blog/feed.xml").length;
    const before = polls();
    clock.advance(3 * 60 * 60_000);
    expect(await ctx.services.feedScheduler.dispatchDue()).toBe(0);
    await ctx.runner.drain();
    expect(polls()).toBe(before);

    const resumed = await call(ctx, "PATCH", `/api/v1/feeds/${sub.body.id}`, { key: a.key, body: { active: true } });
    expect(resumed.body).toMatchObject({ active: true, paused: false });
    expect(await ctx.services.feedScheduler.dispatchDue()).toBe(1);
    await ctx.runner.drain();
    expect(polls()).toBe(before + 1);

    await call(ctx, "PATCH", `/api/v1/feeds/${sub.body.id}`, { key: a.key, body: { active: false } });
    server.set("/blog/feed.xml", { body: rss([item(3), item(2), item(1)]) });
    const now = await call(ctx, "POST", `/api/v1/feeds/${sub.body.id}/poll`, { key: a.key });
    expect(now.body.poll).toMatchObject({ status: "updated", new_entries: 1 });
  });

  test("schedule and notebooks change; bad values and other users' feeds are refused", async () => {
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const sub = await subscribe(a.key, { url: server.url("/blog/feed.xml") });
    await ctx.runner.drain();
    const nb = await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "N" } });
    const r = await call(ctx, "PATCH", `/api/v1/feeds/${sub.body.id}`, {
      key: a.key,
      body: { schedule: "0 7 * * *", notebook_ids: [nb.body.id] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ schedule: "0 7 * * *", notebook_ids: [nb.body.id] });
    expect(r.body.next_poll_at).toBe(slotAfter("0 7 * * *", 5 * 60_000));
    const bad = await call(ctx, "PATCH", `/api/v1/feeds/${sub.body.id}`, { key: a.key, body: { schedule: "soon" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("schedule");
    const extra = await call(ctx, "PATCH", `/api/v1/feeds/${sub.body.id}`, { key: a.key, body: { paused: true } });
    expect(extra.status).toBe(422);
    for (const [m, p] of [
      ["PATCH", ""],
      ["GET", "/entries"],
    ] as const) {
      const other = await call(ctx, m, `/api/v1/feeds/${sub.body.id}${p}`, {
        key: b.key,
        body: m === "PATCH" ? { active: false } : undefined,
      });
      expect(other.status).toBe(404);
    }
  });

  test("entries page newest first; unsubscribing keeps the saved sources", async () => {
    const a = await userWithKey(ctx);
    const sub = await subscribe(a.key, { url: server.url("/blog/feed.xml") });
    await ctx.runner.drain();
    server.set("/blog/feed.xml", { body: rss([item(4), item(3), item(2), item(1)]) });
    await call(ctx, "POST", `/api/v1/feeds/${sub.body.id}/poll`, { key: a.key });
    const p1 = await call(ctx, "GET", `/api/v1/feeds/${sub.body.id}/entries?limit=1`, { key: a.key });
    expect(p1.body.data.map((e: { title: string }) => e.title)).toEqual(["Post 4"]);
    expect(p1.headers.get("link")).toContain('rel="next"');
    const p2 = await call(ctx, "GET", `/api/v1/feeds/${sub.body.id}/entries?limit=5&cursor=${p1.body.next_cursor}`, {
      key: a.key,
    });
    expect(p2.body).toMatchObject({ data: [{ title: "Post 3" }], next_cursor: null });

    const gone = await call(ctx, "DELETE", `/api/v1/feeds/${sub.body.id}`, { key: a.key });
    expect(gone.status).toBe(200);
    expect((await call(ctx, "GET", `/api/v1/feeds/${sub.body.id}`, { key: a.key })).status).toBe(404);
    const sources = (await call(ctx, "GET", "/api/v1/sources", { key: a.key })).body.data;
    expect(sources.map((s: { url: string }) => s.url).sort()).toEqual([server.url("/posts/3"), server.url("/posts/4")]);
  });
});

// Polling when things go wrong or move: errors and backoff, malformed XML, discovery, channels, restarts.
import { afterEach, describe, expect, test } from "bun:test";
import { closeDatabase, sharedTestDatabase } from "../../jobs/testing.ts";
import { feedsTestContext, ownerWithWorkflow, sourceRows, type FeedsTestContext } from "./test-setup.ts";
import { rss, startFeedServer, videoFeed, type Item } from "./testing.ts";

const MIN = 60_000;
const cleanup: (() => unknown)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

function setup(opts: Parameters<typeof feedsTestContext>[0] = {}) {
  const server = startFeedServer();
  const ctx = feedsTestContext(opts);
  cleanup.push(
    () => server.stop(),
    () => ctx.db.close(),
  );
  return { server, ctx };
}

const item = (n: number): Item => ({
  id: `p${n}`,
  title: `Item ${n}`,
  link: `https://news.example/p${n}`,
  date: `2024-02-${String(n).padStart(2, "0")}T00:00:00Z`,
});
const nextIn = async (
  ctx: FeedsTestContext,
  actor: Parameters<FeedsTestContext["feeds"]["service"]["get"]>[0],
  id: string,
) => Date.parse((await ctx.feeds.service.get(actor, id)).next_poll_at!) - ctx.clock.now();

describe("errors", () => {
  test("a failing feed backs off exponentially, keeps its watch, and resumes when it recovers", async () => {
    const { server, ctx } = setup();
    const owner = await ownerWithWorkflow(ctx);
    server.set("/feed.xml", { body: rss([item(1)]) });
    const { feed_id } = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
      schedule: "* * * * *",
    });
    expect(await nextIn(ctx, owner.actor, feed_id)).toBe(5 * MIN);

    server.set("/feed.xml", { body: "down for maintenance", status: 500 });
    const delays: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const { poll, feed } = await ctx.feeds.service.pollNow(owner.actor, feed_id);
      expect(poll).toMatchObject({ status: "failed", http_status: 500, error: "HTTP 500 Internal Server Error" });
      expect(feed).toMatchObject({
        status: "failing",
        consecutive_failures: i,
        last_error: "HTTP 500 Internal Server Error",
        active: true,
      });
      delays.push(await nextIn(ctx, owner.actor, feed_id));
    }
    expect(delays).toEqual([5 * MIN, 10 * MIN, 20 * MIN, 40 * MIN]);
    for (let i = 0; i < 10; i++) await ctx.feeds.service.pollNow(owner.actor, feed_id);
    expect(await nextIn(ctx, owner.actor, feed_id)).toBe(24 * 60 * MIN);

    server.set("/feed.xml", { body: rss([item(2), item(1)]) });
    const back = await ctx.feeds.service.pollNow(owner.actor, feed_id);
    expect(back.poll).toMatchObject({ status: "updated", new_entries: 1 });
    expect(back.feed).toMatchObject({ status: "ok", consecutive_failures: 0, last_error: null, last_status: 200 });
    expect(await nextIn(ctx, owner.actor, feed_id)).toBe(5 * MIN);
  });

  test("Retry-After on a 429 or 503 sets the earliest next poll", async () => {
    const { server, ctx } = setup();
    const owner = await ownerWithWorkflow(ctx);
    server.set("/busy", { body: "slow down", status: 503, headers: { "retry-after": "7200" } });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/busy") });
    expect(out).toMatchObject({ poll_status: "failed", error: "HTTP 503 Service Unavailable", new_entries: 0 });
    expect(await nextIn(ctx, owner.actor, out.feed_id)).toBe(120 * MIN);
  });

  test("<ttl> and Cache-Control max-age are lower bounds on the next poll", async () => {
    const { server, ctx } = setup();
    const owner = await ownerWithWorkflow(ctx);
    server.set("/ttl.xml", { body: rss([item(1)], { ttl: 180 }) });
    server.set("/cc.xml", { body: rss([item(1)]), headers: { "cache-control": "public, max-age=3600" } });
    const ttl = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/ttl.xml") });
    const cc = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/cc.xml") });
    expect(await nextIn(ctx, owner.actor, ttl.feed_id)).toBe(180 * MIN);
    expect(await nextIn(ctx, owner.actor, cc.feed_id)).toBe(60 * MIN);
  });

  test("malformed XML is recorded on the watch, not thrown; a fixed feed then gets its baseline", async () => {
    const { server, ctx } = setup();
    const owner = await ownerWithWorkflow(ctx);
    server.set("/broken.xml", { body: `<rss version="2.0"><channel><title>Half</title><item><title>Cut</tit` });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/broken.xml"),
      backfill: 5,
    });
    expect(out.poll_status).toBe("failed");
    expect(out.error).toStartWith("malformed feed:");
    expect(await ctx.feeds.service.get(owner.actor, out.feed_id)).toMatchObject({
      status: "failing",
      last_status: 200,
      consecutive_failures: 1,
    });
    server.set("/broken.xml", { body: rss([item(1), item(2)]) });
    const fixed = await ctx.feeds.service.pollNow(owner.actor, out.feed_id);
    expect(fixed.poll.new_entries).toBe(2);
    expect(fixed.feed.status).toBe("ok");
  });

  test("network failures and blocked addresses are recorded too", async () => {
    const { server, ctx } = setup({ env: { ALLOW_PRIVATE_NETWORK: "false" } });
    const owner = await ownerWithWorkflow(ctx);
    server.set("/feed.xml", { body: rss([item(1)]) });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/feed.xml") });
    expect(out.poll_status).toBe("failed");
    expect(out.error).toStartWith("blocked_address:");
    expect(server.requests).toHaveLength(0);
  });
});

describe("finding the feed", () => {
  test("a page that advertises its feed is followed, and later polls go straight to the feed", async () => {
    const { server, ctx } = setup();
    const owner = await ownerWithWorkflow(ctx);
    server.set("/blog/", {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head><title>Blog</title><link rel="alternate" type="application/rss+xml" href="feed.xml"></head><body>Hi</body></html>`,
    });
    server.set("/blog/feed.xml", { body: rss([item(1)]) });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/blog/"),
      backfill: 1,
    });
    expect(out).toMatchObject({ new_entries: 1, title: "Example News", feed_url: server.url("/blog/") });
    expect((await ctx.feeds.service.get(owner.actor, out.feed_id)).fetch_url).toBe(server.url("/blog/feed.xml"));
    await ctx.feeds.service.pollNow(owner.actor, out.feed_id);
    expect(server.hits("/blog/")).toHaveLength(1);
    expect(server.hits("/blog/feed.xml").map((r) => r.status)).toEqual([200, 304]);
  });

  test("a page without a feed is an error on the watch", async () => {
    const { server, ctx } = setup();
    const owner = await ownerWithWorkflow(ctx);
    server.set("/page", {
      type: "text/html",
      body: "<!doctype html><html><head><title>x</title></head><body>No feed</body></html>",
    });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/page") });
    expect(out.error).toBe("the page is HTML and advertises no feed");
  });

  test("a channel URL on the (injected) video host polls the channel's feed; entries are keyed by video id", async () => {
    const server = startFeedServer();
    cleanup.push(() => server.stop());
    const ctx = feedsTestContext({ videoSite: { hosts: [server.host], origin: server.origin } });
    cleanup.push(() => ctx.db.close());
    const owner = await ownerWithWorkflow(ctx);
    const channel = "UCabcdefghijklmnopqrstuv";
    const feedPath = `/feeds/videos.xml?channel_id=${channel}`;
    server.set(feedPath, {
      type: "application/atom+xml",
      body: videoFeed(server.origin, channel, [
        { id: "vid00000001", title: "First video", date: "2024-01-01T00:00:00Z" },
      ]),
    });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: `${server.origin}/channel/${channel}`,
      backfill: 1,
    });
    expect(server.requests.map((r) => r.path)).toEqual([feedPath]);
    expect(out).toMatchObject({ new_entries: 1, title: "Example Channel" });
    expect((await sourceRows(ctx, owner.userId)).map((s) => [s.url, s.title])).toEqual([
      [`${server.origin}/watch?v=vid00000001`, "First video"],
    ]);
    expect((await ctx.feeds.service.get(owner.actor, out.feed_id)).fetch_url).toBe(server.url(feedPath));

    // The same video with a changed link (tracking parameter) is still the same video.
    const videos = [
      { id: "vid00000002", title: "Second video", date: "2024-01-02T00:00:00Z" },
      { id: "vid00000001", title: "First video (edited)", date: "2024-01-01T00:00:00Z" },
    ];
    server.set(feedPath, {
      type: "application/atom+xml",
      body: videoFeed(server.origin, channel, videos).replace(
        "watch?v=vid00000001",
        "watch?v=vid00000001&amp;feature=x",
      ),
    });
    const next = await ctx.feeds.service.pollNow(owner.actor, out.feed_id);
    expect(next.poll.new_entries).toBe(1);
    expect((await sourceRows(ctx, owner.userId)).map((s) => s.title)).toEqual(["First video", "Second video"]);
  });
});

describe("dedupe across restarts", () => {
  test("new services over the same database file remember what was seen, by guid, then link, then content", async () => {
    const shared = sharedTestDatabase();
    cleanup.push(shared.cleanup);
    const path = shared.location;
    const server = startFeedServer();
    cleanup.push(() => server.stop());
    const noLink = (n: number): Item => ({ id: `n${n}`, title: `Linkless ${n}`, link: null, content: `body ${n}` });

    const first = feedsTestContext({ dbPath: path });
    const owner = await ownerWithWorkflow(first);
    server.set("/feed.xml", { body: rss([item(2), item(1)]), etag: false });
    server.set("/nolinks.xml", { body: rss([noLink(1)], { guids: false }), etag: false });
    const a = await first.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
      backfill: 2,
    });
    const b = await first.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/nolinks.xml") });
    expect(a.new_entries).toBe(2);
    await closeDatabase(first.db);

    // Restart. The feed now repeats old entries under new disguises, plus one truly new entry of each kind.
    const second = feedsTestContext({ dbPath: path, clock: first.clock });
    cleanup.push(() => second.db.close());
    const sameGuidNewLink = { ...item(1), link: "https://news.example/p1-renamed" };
    const sameLinkNewGuid = { ...item(2), id: "p2-new-guid" };
    server.set("/feed.xml", { body: rss([item(3), sameLinkNewGuid, sameGuidNewLink]), etag: false });
    server.set("/nolinks.xml", { body: rss([noLink(2), noLink(1)], { guids: false }), etag: false });
    const a2 = await second.feeds.service.pollNow(owner.actor, a.feed_id);
    const b2 = await second.feeds.service.pollNow(owner.actor, b.feed_id);
    expect(a2.poll).toMatchObject({ status: "updated", new_entries: 1 });
    expect(b2.poll).toMatchObject({ status: "updated", new_entries: 1 });
    expect((await sourceRows(second, owner.userId)).map((s) => s.title)).toEqual(["Item 1", "Item 2", "Item 3"]);
  });
});

// Polling against a local feed server: baseline, conditional GET, new entries as sources, formats, backfill.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { iso } from "../../time.ts";
import { eventsOf, feedsTestContext, ownerWithWorkflow, sourceRows, type FeedsTestContext } from "./test-setup.ts";
import { atom, jsonFeed, rdf, rss, startFeedServer, type Item } from "./testing.ts";

let server: ReturnType<typeof startFeedServer>;
let ctx: FeedsTestContext;
beforeEach(() => {
  server = startFeedServer();
  ctx = feedsTestContext();
});
afterEach(() => {
  void server.stop();
  ctx.db.close();
});

const item = (n: number, day = n): Item => ({
  id: `post-${n}`,
  title: `Post number ${n}`,
  link: `https://news.example/post-${n}`,
  date: `2024-03-${String(day).padStart(2, "0")}T08:00:00Z`,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => item(from + i));

describe("RSS end to end", () => {
  test("first poll is a baseline; unchanged polls are 304s; new entries become sources in the notebooks", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const notebook = await ctx.services.notebooks.create(owner.actor, { name: "Reading" });
    server.set("/feed.xml", { body: rss(range(1, 3).reverse()) });

    const first = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
      notebook_ids: [notebook.id],
    });
    expect(first).toMatchObject({
      feed_url: server.url("/feed.xml"),
      title: "Example News",
      new_entries: 0,
      sources: [],
      poll_status: "updated",
      error: null,
    });
    expect(await sourceRows(ctx, owner.userId)).toEqual([]);
    const watch = await ctx.feeds.service.get(owner.actor, first.feed_id);
    expect(watch).toMatchObject({
      status: "ok",
      entries_seen: 3,
      sources_created: 0,
      last_status: 200,
      consecutive_failures: 0,
      active: true,
    });

    const again = await ctx.feeds.service.pollNow(owner.actor, first.feed_id);
    expect(again.poll).toMatchObject({ status: "not_modified", http_status: 304, new_entries: 0 });
    expect(server.hits("/feed.xml")[1]!.ifNoneMatch).toMatch(/^".+"$/);

    server.set("/feed.xml", { body: rss(range(1, 5).reverse()) });
    const later = await ctx.feeds.service.pollNow(owner.actor, first.feed_id);
    expect(later.poll).toMatchObject({ status: "updated", http_status: 200, new_entries: 2 });
    const saved = await sourceRows(ctx, owner.userId);
    expect(saved.map((s) => [s.url, s.title])).toEqual([
      ["https://news.example/post-4", "Post number 4"],
      ["https://news.example/post-5", "Post number 5"],
    ]);
    expect(later.poll.sources).toEqual(saved.map((s) => s.id));
    const created = await eventsOf(ctx, "source.created");
    expect(created).toHaveLength(2);
    expect(JSON.parse(created[0]!.data).notebook_ids).toEqual([notebook.id]);
    expect(created[0]!.depth).toBe(1);
    expect(later.feed).toMatchObject({ entries_seen: 5, sources_created: 2 });

    expect((await ctx.feeds.service.pollNow(owner.actor, first.feed_id)).poll.new_entries).toBe(0);
    expect(await sourceRows(ctx, owner.userId)).toHaveLength(2);
  });

  test("a feed of more than 1,000 entries listed oldest first still yields its newest entries", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const hourly = (n: number): Item => ({
      id: `h-${n}`,
      title: `Hour ${n}`,
      link: `https://news.example/h-${n}`,
      date: new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString(),
    });
    const hours = (count: number) => Array.from({ length: count }, (_, n) => hourly(n));
    server.set("/long.xml", { body: rss(hours(1100)) });
    const first = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/long.xml"),
      backfill: 1,
    });
    expect(first).toMatchObject({ poll_status: "updated", new_entries: 1 });
    expect((await sourceRows(ctx, owner.userId)).map((s) => s.title)).toEqual(["Hour 1099"]);

    server.set("/long.xml", { body: rss(hours(1102)) });
    const later = await ctx.feeds.service.pollNow(owner.actor, first.feed_id);
    expect(later.poll).toMatchObject({ status: "updated", new_entries: 2 });
    expect((await sourceRows(ctx, owner.userId)).map((s) => s.title)).toEqual(["Hour 1099", "Hour 1100", "Hour 1101"]);
  });

  test("Last-Modified is stored and sent back as If-Modified-Since", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const lm = "Tue, 05 Mar 2024 09:00:00 GMT";
    server.set("/lm.xml", { body: rss(range(1, 2)), etag: false, lastModified: lm });
    const first = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/lm.xml") });
    const again = await ctx.feeds.service.pollNow(owner.actor, first.feed_id);
    expect(server.hits("/lm.xml")[1]).toMatchObject({ ifModifiedSince: lm, ifNoneMatch: null, status: 304 });
    expect(again.poll.status).toBe("not_modified");
  });

  test("a server with no validators sending the same bytes is not parsed again", async () => {
    const owner = await ownerWithWorkflow(ctx);
    server.set("/plain.xml", { body: rss(range(1, 2)), etag: false });
    const first = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/plain.xml") });
    const again = await ctx.feeds.service.pollNow(owner.actor, first.feed_id);
    expect(again.poll).toMatchObject({ status: "not_modified", http_status: 200 });
  });
});

describe("backfill", () => {
  test("the first poll imports only the `backfill` newest entries, oldest first", async () => {
    const owner = await ownerWithWorkflow(ctx);
    // Out of date order on purpose: newest is decided by date, not position.
    server.set("/feed.xml", { body: rss([item(2), item(5), item(1), item(4), item(3)]) });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
      backfill: 2,
    });
    expect(out.new_entries).toBe(2);
    expect((await sourceRows(ctx, owner.userId)).map((s) => s.title)).toEqual(["Post number 4", "Post number 5"]);
    expect(await ctx.feeds.service.get(owner.actor, out.feed_id)).toMatchObject({
      entries_seen: 5,
      sources_created: 2,
    });
    server.set("/feed.xml", { body: rss([item(6), item(2), item(5), item(1), item(4), item(3)]) });
    const next = await ctx.feeds.service.pollNow(owner.actor, out.feed_id);
    expect(next.poll.new_entries).toBe(1);
    expect((await sourceRows(ctx, owner.userId)).map((s) => s.title)).toEqual([
      "Post number 4",
      "Post number 5",
      "Post number 6",
    ]);
  });

  test("backfill larger than the feed imports everything", async () => {
    const owner = await ownerWithWorkflow(ctx);
    server.set("/feed.xml", { body: rss(range(1, 3)) });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
      backfill: 50,
    });
    expect(out.new_entries).toBe(3);
  });
});

describe("formats", () => {
  test.each([
    ["Atom", (items: Item[]) => atom(items), "application/atom+xml"],
    ["JSON Feed", (items: Item[]) => jsonFeed(items), "application/feed+json"],
    ["RDF", (items: Item[]) => rdf(items), "application/rdf+xml"],
  ] as const)("%s: baseline, then new entries become sources", async (_name, build, type) => {
    const owner = await ownerWithWorkflow(ctx);
    const mk = (n: number): Item => ({
      id: `e${n}`,
      title: `Entry ${n}`,
      link: `https://site.example/e${n}`,
      date: `2024-01-0${n}T00:00:00Z`,
    });
    server.set("/f", { body: build([mk(1)]), type });
    const out = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/f") });
    expect(out.new_entries).toBe(0);
    server.set("/f", { body: build([mk(2), mk(1)]), type });
    const next = await ctx.feeds.service.pollNow(owner.actor, out.feed_id);
    expect(next.poll.new_entries).toBe(1);
    expect((await sourceRows(ctx, owner.userId)).map((s) => [s.url, s.title])).toEqual([
      ["https://site.example/e2", "Entry 2"],
    ]);
  });
});

describe("watch settings", () => {
  test("the same workflow and URL keep one watch; a changed schedule or notebooks updates it", async () => {
    const owner = await ownerWithWorkflow(ctx);
    server.set("/feed.xml", { body: rss(range(1, 1)) });
    const nb = await ctx.services.notebooks.create(owner.actor, { name: "Later" });
    const a = await ctx.feeds.service.watch(owner.actor, owner.workflowId, { feed_url: server.url("/feed.xml") });
    ctx.clock.advance(1000);
    const b = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
      schedule: "0 * * * *",
      notebook_ids: [nb.id],
    });
    expect(b.feed_id).toBe(a.feed_id);
    const w = await ctx.feeds.service.get(owner.actor, a.feed_id);
    expect(w).toMatchObject({ schedule: "0 * * * *", notebook_ids: [nb.id] });
    expect(w.updated_at).toBe(iso(ctx.clock.now()));
    expect((await ctx.feeds.service.list(owner.actor, { limit: 10 })).data).toHaveLength(1);
  });

  test.each([
    [{ feed_url: "ftp://example.com/feed" }, "feed_url"],
    [{ feed_url: "https://example.com/feed", schedule: "every five minutes" }, "schedule"],
    [{ feed_url: "https://example.com/feed", schedule: "61 * * * *" }, "schedule"],
    [{ feed_url: "https://example.com/feed", notebook_ids: ["nb_01HZZZZZZZZZZZZZZZZZZZZZZZ"] }, "notebook_ids[0]"],
    [{ feed_url: "https://example.com/feed", backfill: -1 }, "backfill"],
  ])("invalid input %j is a 422 on %s", async (input, path) => {
    const owner = await ownerWithWorkflow(ctx);
    let err: any;
    try {
      await ctx.feeds.service.ensure(owner.actor, owner.workflowId, input);
    } catch (e) {
      err = e;
    }
    expect(err?.status).toBe(422);
    expect(err?.extra.errors[0].path).toBe(path);
    expect((await ctx.feeds.service.list(owner.actor, { limit: 10 })).data).toEqual([]);
  });
});

// /api/v1/feeds over HTTP: listing, reading and polling one's own watches; other users' are 404.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { systemActor } from "../../actor.ts";
import { insertWorkflow, rss, startFeedServer } from "./testing.ts";

let server: ReturnType<typeof startFeedServer>;
let ctx: TestContext;
beforeEach(() => {
  server = startFeedServer();
  server.set("/feed.xml", { body: rss([{ id: "1", title: "One" }]) });
  server.set("/other.xml", { body: rss([{ id: "1", title: "One" }]) });
  ctx = createTestContext({ FEED_HOST_SPACING_MS: "0" });
});
afterEach(() => server.stop());

async function ownerWithWatches(paths: string[]) {
  const user = await userWithKey(ctx);
  const wf = await insertWorkflow(ctx.db, user.userId);
  const actor = systemActor(user.userId, "test");
  const ids: string[] = [];
  for (const p of paths) ids.push((await ctx.services.feeds.watch(actor, wf, { feed_url: server.url(p) })).feed_id);
  return { ...user, ids, workflowId: wf };
}

describe("GET /api/v1/feeds", () => {
  test("lists the caller's watches, newest first, with paging", async () => {
    const owner = await ownerWithWatches(["/feed.xml", "/other.xml"]);
    const other = await ownerWithWatches([]);
    const page1 = await call(ctx, "GET", "/api/v1/feeds?limit=1", { key: owner.key });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((f: any) => f.id)).toEqual([owner.ids[1]]);
    expect(page1.headers.get("link")).toContain('rel="next"');
    const page2 = await call(ctx, "GET", `/api/v1/feeds?limit=1&cursor=${page1.body.next_cursor}`, { key: owner.key });
    expect(page2.body).toMatchObject({
      data: [{ id: owner.ids[0], feed_url: server.url("/feed.xml"), status: "ok", active: true }],
      next_cursor: null,
    });
    expect((await call(ctx, "GET", "/api/v1/feeds", { key: other.key })).body).toEqual({ data: [], next_cursor: null });
    const byWorkflow = await call(ctx, "GET", `/api/v1/feeds?workflow_id=${owner.workflowId}`, { key: owner.key });
    expect(byWorkflow.body.data).toHaveLength(2);
  });

  test("needs a key", async () => {
    expect((await call(ctx, "GET", "/api/v1/feeds")).status).toBe(401);
  });
});

describe("GET /api/v1/feeds/{id}", () => {
  test("returns the watch with its state; another user's watch or an unknown id is 404", async () => {
    const owner = await ownerWithWatches(["/feed.xml"]);
    const other = await ownerWithWatches([]);
    const r = await call(ctx, "GET", `/api/v1/feeds/${owner.ids[0]}`, { key: owner.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: owner.ids[0],
      workflow_id: owner.workflowId,
      title: "Example News",
      schedule: "*/30 * * * *",
      notebook_ids: [],
      backfill: 0,
      status: "ok",
      last_status: 200,
      last_error: null,
      consecutive_failures: 0,
      entries_seen: 1,
      sources_created: 0,
    });
    expect(r.body.next_poll_at).toMatch(/Z$/);
    expect(r.body).not.toHaveProperty("etag");
    expect((await call(ctx, "GET", `/api/v1/feeds/${owner.ids[0]}`, { key: other.key })).status).toBe(404);
    expect((await call(ctx, "GET", "/api/v1/feeds/feed_01HZZZZZZZZZZZZZZZZZZZZZZZ", { key: owner.key })).status).toBe(
      404,
    );
  });
});

describe("POST /api/v1/feeds/{id}/poll", () => {
  test("polls now and reports what came in", async () => {
    const owner = await ownerWithWatches(["/feed.xml"]);
    server.set("/feed.xml", {
      body: rss([
        { id: "2", title: "Two" },
        { id: "1", title: "One" },
      ]),
    });
    const r = await call(ctx, "POST", `/api/v1/feeds/${owner.ids[0]}/poll`, { key: owner.key });
    expect(r.status).toBe(200);
    expect(r.body.poll).toMatchObject({ status: "updated", http_status: 200, new_entries: 1, error: null });
    expect(r.body.poll.sources).toHaveLength(1);
    expect(r.body.feed).toMatchObject({ id: owner.ids[0], sources_created: 1 });
    const src = await call(ctx, "GET", `/api/v1/sources/${r.body.poll.sources[0]}`, { key: owner.key });
    expect(src.body).toMatchObject({ url: "https://news.example/2", title: "Two" });
  });

  test("another user's watch is 404 and is not polled", async () => {
    const owner = await ownerWithWatches(["/feed.xml"]);
    const other = await ownerWithWatches([]);
    const before = server.requests.length;
    expect((await call(ctx, "POST", `/api/v1/feeds/${owner.ids[0]}/poll`, { key: other.key })).status).toBe(404);
    expect(server.requests.length).toBe(before);
  });
});

describe("DELETE /api/v1/feeds/{id}", () => {
  test("stops the watch; another user's is 404 and stays", async () => {
    const owner = await ownerWithWatches(["/feed.xml"]);
    const other = await ownerWithWatches([]);
    expect((await call(ctx, "DELETE", `/api/v1/feeds/${owner.ids[0]}`, { key: other.key })).status).toBe(404);
    expect((await call(ctx, "GET", `/api/v1/feeds/${owner.ids[0]}`, { key: owner.key })).status).toBe(200);
    const del = await call(ctx, "DELETE", `/api/v1/feeds/${owner.ids[0]}`, { key: owner.key });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(owner.ids[0]);
    expect((await call(ctx, "GET", `/api/v1/feeds/${owner.ids[0]}`, { key: owner.key })).status).toBe(404);
    expect((await call(ctx, "GET", "/api/v1/feeds", { key: owner.key })).body.data).toEqual([]);
  });
});

// watch_feed as a workflow action: save-time checks, a run that sets up the watch, and the workflow's lifecycle.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { sqlRow } from "../../db/inspect.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { fire, runToEnd, webhookWorkflow } from "../workflows/testing.ts";
import { rss, startFeedServer } from "./testing.ts";
import { sqlRows } from "../../db/inspect.ts";

let server: ReturnType<typeof startFeedServer>;
let ctx: TestContext;
beforeEach(() => {
  server = startFeedServer();
  server.set("/feed.xml", {
    body: rss([
      { id: "2", title: "Two", date: "2024-01-02T00:00:00Z" },
      { id: "1", title: "One", date: "2024-01-01T00:00:00Z" },
    ]),
  });
  ctx = createTestContext({ FEED_HOST_SPACING_MS: "0" });
});
afterEach(() => server.stop());

describe("saving", () => {
  test("a bad cron expression or URL is a 422 naming the field; a templated one waits for the run", async () => {
    const { key } = await userWithKey(ctx);
    const bad = await call(ctx, "POST", "/api/v1/workflows", {
      key,
      body: {
        name: "w",
        trigger: { type: "webhook" },
        actions: [{ id: "f", type: "watch_feed", feed_url: "ftp://x.example/feed", schedule: "*/99 * * * *" }],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "actions[0].feed_url",
      "actions[0].schedule",
    ]);
    const templated = await call(ctx, "POST", "/api/v1/workflows", {
      key,
      body: {
        name: "w",
        trigger: { type: "webhook" },
        actions: [{ id: "f", type: "watch_feed", feed_url: "{{ url }}", schedule: "{{ cron }}" }],
      },
    });
    expect(templated.status, templated.text).toBe(201);
  });
});

describe("running", () => {
  test("sets up the watch, polls now, and reports; a later email can use the output", async () => {
    const { key } = await userWithKey(ctx);
    const nb = await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name: "Feeds" } });
    const wf = await webhookWorkflow(ctx, key, [
      {
        id: "news",
        type: "watch_feed",
        feed_url: "{{ url }}",
        notebook_ids: "{{ notebook }}",
        backfill: "{{ how_many }}",
        schedule: "0 * * * *",
      },
      {
        id: "tell",
        type: "send_email",
        to: "me@example.test",
        subject: "{{ steps.news.new_entries }} new from {{ steps.news.title }}",
        text: "See {{ steps.news.sources | json }}",
      },
    ]);
    const run = await runToEnd(
      ctx,
      key,
      (await fire(ctx, wf.path, { url: server.url("/feed.xml"), notebook: nb.body.id, how_many: 1 })).runs[0]!,
    );
    expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
    const out = run.steps[0]!.output;
    expect(out).toMatchObject({
      feed_url: server.url("/feed.xml"),
      title: "Example News",
      new_entries: 1,
      poll_status: "updated",
    });
    expect(out.sources).toHaveLength(1);
    const src = await call(ctx, "GET", `/api/v1/sources/${out.sources[0]}`, { key });
    expect(src.body).toMatchObject({ title: "Two", notebook_ids: [nb.body.id] });

    const feeds = await call(ctx, "GET", "/api/v1/feeds", { key });
    expect(feeds.body.data).toMatchObject([
      { id: out.feed_id, workflow_id: wf.id, schedule: "0 * * * *", active: true, sources_created: 1 },
    ]);
    const mail = run.steps[1]!.output;
    expect(mail).toMatchObject({ transport: "outbox", subject: "1 new from Example News" });
    const kept = await sqlRow<{ message: string }>(
      ctx.db,
      "SELECT message FROM mail_outbox WHERE name = ?",
      mail.outbox,
    );
    expect(kept?.message).toContain(out.sources[0]);

    // Running again keeps the one watch and imports nothing new.
    const again = await runToEnd(
      ctx,
      key,
      (await fire(ctx, wf.path, { url: server.url("/feed.xml"), notebook: nb.body.id, how_many: 1 })).runs[0]!,
    );
    expect(again.steps[0]!.output).toMatchObject({ feed_id: out.feed_id, new_entries: 0, poll_status: "not_modified" });
    expect((await call(ctx, "GET", "/api/v1/feeds", { key })).body.data).toHaveLength(1);
  });

  test("deactivating the workflow stops the watch; deleting it removes the watch", async () => {
    const { key } = await userWithKey(ctx);
    const wf = await webhookWorkflow(ctx, key, [{ id: "news", type: "watch_feed", feed_url: server.url("/feed.xml") }]);
    const run = await runToEnd(ctx, key, (await fire(ctx, wf.path)).runs[0]!);
    const feedId = run.steps[0]!.output.feed_id;
    const off = await call(ctx, "PATCH", `/api/v1/workflows/${wf.id}`, { key, body: { active: false } });
    expect(off.status, off.text).toBe(200);
    expect((await call(ctx, "GET", `/api/v1/feeds/${feedId}`, { key })).body).toMatchObject({
      active: false,
      next_poll_at: null,
    });
    expect((await call(ctx, "DELETE", `/api/v1/workflows/${wf.id}`, { key })).status).toBeLessThan(300);
    expect((await call(ctx, "GET", `/api/v1/feeds/${feedId}`, { key })).status).toBe(404);
  });

  test("a feed declaring XML entities fails the step and records last_error; nothing is expanded or saved", async () => {
    const { key, userId } = await userWithKey(ctx);
    server.set("/laughs.xml", {
      body:
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol9 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>` +
        `<rss version="2.0"><channel><title>&lol9;</title><item><title>A</title><link>https://x.example/1</link></item></channel></rss>`,
    });
    const wf = await webhookWorkflow(ctx, key, [
      { id: "news", type: "watch_feed", feed_url: server.url("/laughs.xml"), backfill: 5 },
    ]);
    const run = await runToEnd(ctx, key, (await fire(ctx, wf.path)).runs[0]!);
    expect(run.status).toBe("failed");
    expect(run.steps[0]!.error.code).toBe("feed_refused");
    expect(run.steps[0]!.error.message).toContain("DTD");
    const feeds = (await call(ctx, "GET", "/api/v1/feeds", { key })).body.data;
    expect(feeds).toHaveLength(1);
    expect(feeds[0]).toMatchObject({ title: null, status: "failing", consecutive_failures: 1 });
    expect(feeds[0].last_error).toContain("entity declarations are never expanded");
    const polled = await call(ctx, "POST", `/api/v1/feeds/${feeds[0].id}/poll`, { key });
    expect(polled.body.poll).toEqual({
      status: "failed",
      http_status: 200,
      new_entries: 0,
      sources: [],
      error: feeds[0].last_error,
    });
    expect(await sqlRows(ctx.db, "SELECT count(*) AS n FROM sources WHERE user_id = ?", userId)).toEqual([{ n: 0 }]);
  });

  test("a templated notebook that does not exist fails the step with a validation error", async () => {
    const { key } = await userWithKey(ctx);
    const wf = await webhookWorkflow(ctx, key, [
      { id: "news", type: "watch_feed", feed_url: server.url("/feed.xml"), notebook_ids: ["{{ nb }}"] },
    ]);
    const run = await runToEnd(ctx, key, (await fire(ctx, wf.path, { nb: "nb_01HZZZZZZZZZZZZZZZZZZZZZZZ" })).runs[0]!);
    expect(run.status).toBe("failed");
    expect(run.steps[0]!.error.code).toBe("validation_failed");
    expect(server.requests).toHaveLength(0);
  });
});

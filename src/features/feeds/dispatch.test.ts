// The scheduler side: due watches of active workflows become durable feed.poll jobs, one per slot.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { sqlRows } from "../../db/inspect.ts";
import { FEED_DISPATCH_JOB, FEED_POLL_JOB } from "./dispatch.ts";
import { feedsTestContext, ownerWithWorkflow, type FeedsTestContext } from "./test-setup.ts";
import { rss, startFeedServer } from "./testing.ts";

const MIN = 60_000;
let server: ReturnType<typeof startFeedServer>;
let ctx: FeedsTestContext;
beforeEach(() => {
  server = startFeedServer();
  server.set("/a.xml", { body: rss([{ id: "1", title: "One" }]) });
  server.set("/b.xml", { body: rss([{ id: "1", title: "One" }]) });
  ctx = feedsTestContext();
});
afterEach(() => {
  ctx.feeds.dispatcher.stop();
  void server.stop();
  ctx.db.close();
});

const pollJobs = () =>
  sqlRows<{ id: string; payload: string; run_at: number; status: string }>(
    ctx.db,
    "SELECT id, payload, run_at, status FROM jobs WHERE type = ? ORDER BY run_at, id",
    FEED_POLL_JOB.type,
  );

describe("dispatching", () => {
  test("a due watch gets one job per slot; running it polls and moves the slot", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const id = await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/a.xml") });
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(1);
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(0);
    expect(JSON.parse((await pollJobs())[0]!.payload)).toEqual({ watch_id: id, slot: ctx.clock.now() });

    expect(await ctx.runner.drain()).toMatchObject({ succeeded: 1, failed: 0 });
    expect(server.hits("/a.xml")).toHaveLength(1);
    const watch = await ctx.feeds.service.get(owner.actor, id);
    expect(watch.status).toBe("ok");
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(0);

    ctx.clock.set(Date.parse(watch.next_poll_at!));
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(1);
    await ctx.runner.drain();
    expect(server.hits("/a.xml").map((r) => r.status)).toEqual([200, 304]);
  });

  test("watches of one host due together are spread out by the host spacing", async () => {
    ctx.db.close();
    ctx = feedsTestContext({ env: { FEED_HOST_SPACING_MS: "1500" } });
    const owner = await ownerWithWorkflow(ctx);
    await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/a.xml") });
    await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/b.xml") });
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(2);
    expect((await pollJobs()).map((j) => j.run_at - ctx.clock.now())).toEqual([0, 1500]);
  });

  test("a job whose slot was already polled (poll now, watch_feed) does nothing", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const id = await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/a.xml") });
    await ctx.feeds.dispatcher.dispatchDue();
    await ctx.feeds.service.pollNow(owner.actor, id);
    await ctx.runner.drain();
    expect(server.hits("/a.xml")).toHaveLength(1);
  });

  test("deactivating the workflow stops its watches; reactivating resumes them; deleting removes them", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const id = await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/a.xml") });
    await ctx.feeds.dispatcher.dispatchDue();
    await sqlRows(ctx.db, "UPDATE workflows SET active = FALSE WHERE id = ?", owner.workflowId);
    await ctx.runner.drain();
    expect(server.requests).toHaveLength(0);
    ctx.clock.advance(60 * MIN);
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(0);
    expect(await ctx.feeds.service.get(owner.actor, id)).toMatchObject({ active: false, next_poll_at: null });

    await sqlRows(ctx.db, "UPDATE workflows SET active = TRUE WHERE id = ?", owner.workflowId);
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(1);
    await ctx.runner.drain();
    expect(server.requests).toHaveLength(1);

    await sqlRows(ctx.db, "DELETE FROM workflows WHERE id = ?", owner.workflowId);
    await expect(ctx.feeds.service.get(owner.actor, id)).rejects.toThrow("Feed not found");
    expect(await sqlRows(ctx.db, "SELECT count(*) AS n FROM feed_entries")).toEqual([{ n: 0 }]);
  });

  test("removing the watch_feed action from the workflow stops its watches", async () => {
    const owner = await ownerWithWorkflow(ctx);
    const id = await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/a.xml") });
    await sqlRows(
      ctx.db,
      `UPDATE workflows SET actions_json = '[{"id":"x","type":"condition","if":{"all":[]}}]' WHERE id = ?`,
      owner.workflowId,
    );
    expect(await ctx.feeds.dispatcher.dispatchDue()).toBe(0);
    expect(await ctx.feeds.service.get(owner.actor, id)).toMatchObject({ active: false });
    await ctx.runner.drain();
    expect(server.requests).toHaveLength(0);
  });

  test("start() registers a croner schedule whose slot job dispatches; stop() removes it", async () => {
    const owner = await ownerWithWorkflow(ctx);
    await ctx.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/a.xml") });
    await ctx.feeds.dispatcher.start();
    expect(ctx.services.scheduler.has("feeds.dispatch")).toBe(true);
    expect(await pollJobs()).toHaveLength(1);
    await sqlRows(ctx.db, "DELETE FROM jobs");
    // The schedule enqueues the dispatch job of its minute slot: once, however often (or wherever) it fires.
    await ctx.services.scheduler.runNow("feeds.dispatch");
    await ctx.services.scheduler.runNow("feeds.dispatch");
    const dispatches = await sqlRows<{ idempotency_key: string }>(
      ctx.db,
      "SELECT idempotency_key FROM jobs WHERE type = ?",
      FEED_DISPATCH_JOB.type,
    );
    const slot = Math.floor(ctx.clock.now() / MIN) * MIN;
    expect(dispatches).toEqual([{ idempotency_key: `feeds.dispatch:${new Date(slot).toISOString()}` }]);
    expect(await pollJobs()).toHaveLength(0);
    await ctx.runner.drain();
    expect(await pollJobs()).toHaveLength(1);
    ctx.feeds.dispatcher.stop();
    expect(ctx.services.scheduler.has("feeds.dispatch")).toBe(false);
  });
});

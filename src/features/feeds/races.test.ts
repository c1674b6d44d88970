// Two polls of one watch asked for at once are one poll: one request to the feed's server.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { feedsTestContext, ownerWithWorkflow, type FeedsTestContext } from "./test-setup.ts";
import { rss, startFeedServer } from "./testing.ts";

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

describe("feeds: concurrent polls of one watch", () => {
  test("the second joins the first", async () => {
    const owner = await ownerWithWorkflow(ctx);
    server.set("/feed.xml", { body: rss([]) });
    const { feed_id } = await ctx.feeds.service.watch(owner.actor, owner.workflowId, {
      feed_url: server.url("/feed.xml"),
    });
    const before = server.hits("/feed.xml").length;
    const [a, b] = await Promise.all([
      ctx.feeds.service.pollNow(owner.actor, feed_id),
      ctx.feeds.service.pollNow(owner.actor, feed_id),
    ]);
    expect(a.poll).toEqual(b.poll);
    expect(server.hits("/feed.xml").length - before).toBe(1);
  }, 30_000);
});

// Feeds with several processes on one PostgreSQL schema (each a full set of services with its own pool,
// runner and scheduler): a watch polls once per slot, host spacing holds across them, polls never overlap.
import { afterEach, describe, expect, test } from "bun:test";
import { databaseUrl } from "../../config.ts";
import { closeDatabase, fakeClock, sharedTestDatabase } from "../../jobs/testing.ts";
import { feedsTestContext, ownerWithWorkflow, type FeedsTestContext } from "./test-setup.ts";
import { rss, startFeedServer } from "./testing.ts";

let contexts: FeedsTestContext[] = [];
let server: ReturnType<typeof startFeedServer>;
afterEach(async () => {
  contexts.forEach((c) => c.feeds.dispatcher.stop());
  await Promise.all(contexts.splice(0).map((c) => closeDatabase(c.db)));
  void server?.stop();
});

/** n processes' worth of services on one fresh schema, sharing one (fake) clock. */
async function processes(n: number, env: Record<string, string> = {}): Promise<FeedsTestContext[]> {
  const { location } = sharedTestDatabase();
  const clock = fakeClock();
  const first = feedsTestContext({ dbPath: location, clock, env });
  await first.db.ready;
  contexts = [first, ...Array.from({ length: n - 1 }, () => feedsTestContext({ dbPath: location, clock, env }))];
  return contexts;
}

describe.skipIf(!databaseUrl())("feeds across processes on PostgreSQL", () => {
  test("a watch with three processes running polls once per slot", async () => {
    server = startFeedServer();
    server.set("/feed.xml", { body: rss([{ id: "1", title: "One" }]) });
    const [a, ...others] = await processes(3);
    const owner = await ownerWithWorkflow(a!);
    const id = await a!.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/feed.xml") });
    for (let slot = 1; slot <= 2; slot++) {
      // Every process starts its dispatcher (a dispatch at start-up, then the schedule's slot job) and drains.
      await Promise.all(contexts.map((c) => c.feeds.dispatcher.start()));
      await Promise.all(contexts.map((c) => c.services.scheduler.runNow("feeds.dispatch")));
      await Promise.all(contexts.map((c) => c.runner.drain()));
      expect(server.hits("/feed.xml")).toHaveLength(slot);
      const watch = await others[0]!.feeds.service.get(owner.actor, id);
      a!.clock.set(Date.parse(watch.next_poll_at!));
    }
  }, 30_000);

  test("two processes polling one watch's slot at once make one request", async () => {
    server = startFeedServer();
    server.set("/slow.xml", { body: rss([{ id: "1", title: "One" }]), delayMs: 300 });
    const [a, b] = await processes(2);
    const owner = await ownerWithWorkflow(a!);
    const id = await a!.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url("/slow.xml") });
    const slot = a!.clock.now();
    const [ra, rb] = await Promise.all([a!.feeds.poller.pollSlot(id, slot), b!.feeds.poller.pollSlot(id, slot)]);
    expect(server.hits("/slow.xml")).toHaveLength(1);
    // One of them polled, the other found the watch busy and skipped its copy of the slot.
    expect([ra, rb].filter((r) => r === null)).toHaveLength(1);
  }, 30_000);

  test("requests to one host keep FEED_HOST_SPACING_MS apart across processes", async () => {
    const spacing = 500;
    server = startFeedServer();
    for (const p of ["/a.xml", "/b.xml", "/c.xml"]) server.set(p, { body: rss([{ id: "1", title: "One" }]) });
    const ctxs = await processes(3, { FEED_HOST_SPACING_MS: String(spacing) });
    const owner = await ownerWithWorkflow(ctxs[0]!);
    const ids: string[] = [];
    for (const p of ["/a.xml", "/b.xml", "/c.xml"])
      ids.push(await ctxs[0]!.feeds.service.ensure(owner.actor, owner.workflowId, { feed_url: server.url(p) }));
    const start = Date.now();
    await Promise.all(ctxs.map((c, i) => c.feeds.service.pollNow(owner.actor, ids[i]!)));
    const times = server.requests.map((r) => r.at).sort((x, y) => x - y);
    expect(times).toHaveLength(3);
    // The three book their slots at about `start`, so the k-th request may start no earlier than
    // k spacings later. Arrival times are compared with that, not with each other: a busy machine
    // can only delay a request past its slot, which would shrink the gap between two arrivals
    // without the gate being wrong. A few ms of slack: slots are booked on the database's clock.
    // (Without the gate all three arrive within a few ms of `start`.)
    for (let k = 1; k < times.length; k++) expect(times[k]! - start).toBeGreaterThanOrEqual(k * spacing - 25);
  }, 30_000);
});

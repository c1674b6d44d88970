// Podcast progress: script → speech → encoding with rising percentages, rate-bounded, published live
// to the owner's streams only and never stored.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestContext, userWithKey } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { dataOf, sseReader } from "../events/sse-client.ts";
import type { PublishedEvent } from "../events/service.ts";
import { createProgressReporter, type ProgressNote } from "./progress.ts";
import { insertReadySource } from "./testing.ts";

describe("progress reporter", () => {
  test("the same phase at most once per interval; a new phase always goes out", () => {
    const now = { t: 0 };
    const sent: ProgressNote[] = [];
    const p = createProgressReporter(
      (n) => sent.push(n),
      () => now.t,
      500,
    );
    p.script();
    p.speech(1, 10);
    now.t = 100;
    p.speech(2, 10); // dropped: too soon
    now.t = 600;
    p.speech(3, 10);
    p.encoding();
    expect(sent.map((n) => [n.phase, n.percent, n.detail])).toEqual([
      ["script", 0, "Writing the script"],
      ["speech", 14, "Speaking line 1 of 10"],
      ["speech", 31, "Speaking line 3 of 10"],
      ["encoding", 90, "Encoding the MP3"],
    ]);
  });
});

describe("podcast generation progress", () => {
  const ctx = createTestContext();
  afterAll(() => ctx.services.podcasts.close());

  test("a generating episode publishes its phases to the owner's stream, and none of it is stored", async () => {
    const owner = await userWithKey(ctx);
    const other = await userWithKey(ctx);
    const sourceId = await insertReadySource(ctx.services, owner.userId, {
      title: "Tide pools",
      markdown:
        "# Tide pools\n\nTide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet.\n",
    });
    const published: PublishedEvent[] = [];
    ctx.services.events.onPublished((e) => published.push(e));
    const open = (key: string) =>
      ctx.app.handle(
        new Request("http://localhost/api/v1/events/stream", { headers: { authorization: `Bearer ${key}` } }),
      );
    const mine = sseReader(await open(owner.key));
    const theirs = sseReader(await open(other.key));
    const actor = { userId: owner.userId, auth: { type: "system" as const, reason: "test" } };
    const pod = await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] });
    await ctx.runner.drain({ timeoutMs: 100_000 });
    expect((await ctx.services.podcasts.get(actor, pod.id)).status).toBe("ready");

    const phases = published.map((e) => e.data.phase);
    expect(phases[0]).toBe("script");
    expect(phases).toContain("speech");
    expect(phases.at(-1)).toBe("encoding");
    const percents = published.map((e) => e.data.percent as number);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(published.every((e) => e.user_id === owner.userId && e.data.id === pod.id)).toBe(true);

    // The owner's stream carried them between the stored podcast events; the other user's did not.
    const types: string[] = [];
    while (types.at(-1) !== "podcast.updated" || !types.includes("podcast.progress"))
      types.push(dataOf(await mine.event()).type);
    expect(types).toContain("podcast.progress");
    expect((await theirs.drainFor(50)).filter((f) => f.data)).toEqual([]);
    expect(await sqlRows(ctx.db, "SELECT count(*) AS n FROM events WHERE type = 'podcast.progress'")).toEqual([
      { n: 0 },
    ]);
    // Once ready, the hub forgets the episode's progress.
    expect(ctx.services.live.hub.progress(pod.id)).toBeUndefined();
    await mine.cancel();
    await theirs.cancel();
  }, 120_000);

  test("with no stream open, progress is still held for pages and forgotten when the episode is done", async () => {
    const owner = await userWithKey(ctx);
    const sourceId = await insertReadySource(ctx.services, owner.userId, {
      title: "Short",
      markdown: "# Short\n\nOne small sentence about rock pools and crabs.\n",
    });
    const seen: (number | undefined)[] = [];
    const stop = ctx.services.events.onPublished((e) =>
      seen.push(ctx.services.live.hub.progress(e.data.id)?.data.percent as number | undefined),
    );
    const actor = { userId: owner.userId, auth: { type: "system" as const, reason: "test" } };
    const pod = await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] });
    await ctx.runner.drain({ timeoutMs: 100_000 });
    stop();
    expect(ctx.services.live.hub.connections()).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => typeof p === "number")).toBe(true);
    await Bun.sleep(0);
    expect(ctx.services.live.hub.progress(pod.id)).toBeUndefined();
  }, 120_000);
});

// Quick podcasts: a source saved with generate_quick_podcast gets one episode once it is ready, and only one.
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { parseMp3Frames } from "./audio/mp3-parse.ts";
import { episodeFile } from "./testing.ts";

const web = startOutsideWeb();
const contexts: TestContext[] = [];
afterAll(async () => {
  await web.stop();
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  contexts.push(ctx);
  return { ctx, a: await userWithKey(ctx) };
}

const podcastsOf = async (ctx: TestContext, key: string) =>
  (await call(ctx, "GET", "/api/v1/podcasts", { key })).body.data;

describe("quick podcasts", () => {
  test("saved with generate_quick_podcast: one episode in the chosen format once the source is ready, none again on refetch", async () => {
    const { ctx, a } = await setup();
    const saved = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: web.url("/article"), generate_quick_podcast: true, podcast_format: "brief" },
    });
    expect(saved.status).toBe(201);
    expect(await podcastsOf(ctx, a.key)).toEqual([]);
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const [episode, ...rest] = await podcastsOf(ctx, a.key);
    expect(rest).toEqual([]);
    expect(episode).toMatchObject({
      format: "brief",
      status: "ready",
      source_ids: [saved.body.id],
      title: "Life in the tide pools",
    });
    expect(episode.transcript.map((t: { text: string }) => t.text).join(" ")).toContain("tide");
    const info = parseMp3Frames(episodeFile(ctx.services, episode.id));
    expect(Math.abs(info.durationSeconds - episode.duration_seconds) / episode.duration_seconds).toBeLessThan(0.05);

    expect((await call(ctx, "POST", `/api/v1/sources/${saved.body.id}/refetch`, { key: a.key })).status).toBe(202);
    await ctx.runner.drain({ timeoutMs: 170_000 });
    expect((await call(ctx, "GET", `/api/v1/sources/${saved.body.id}`, { key: a.key })).body.status).toBe("ready");
    expect((await podcastsOf(ctx, a.key)).map((p: { id: string }) => p.id)).toEqual([episode.id]);
    // Deleting the episode does not bring it back on the next refetch either.
    await call(ctx, "DELETE", `/api/v1/podcasts/${episode.id}`, { key: a.key });
    await call(ctx, "POST", `/api/v1/sources/${saved.body.id}/refetch`, { key: a.key });
    await ctx.runner.drain({ timeoutMs: 170_000 });
    expect(await podcastsOf(ctx, a.key)).toEqual([]);
  }, 180_000);

  test("no flag, no episode; the default format is deep_dive", async () => {
    const { ctx, a } = await setup();
    await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: web.url("/notes.txt") } });
    await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: web.url("/readme.md"), generate_quick_podcast: true },
    });
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const list = await podcastsOf(ctx, a.key);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ format: "deep_dive", status: "ready" });
  }, 180_000);

  test("out of credit: the source is still ready and the episode says why it failed, uncharged", async () => {
    const { ctx, a } = await setup({ DEFAULT_MONTHLY_CREDITS: "1" });
    const saved = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: web.url("/article"), generate_quick_podcast: true },
    });
    await ctx.runner.drain({ timeoutMs: 170_000 });
    expect((await call(ctx, "GET", `/api/v1/sources/${saved.body.id}`, { key: a.key })).body.status).toBe("ready");
    const [episode] = await podcastsOf(ctx, a.key);
    expect(episode).toMatchObject({ status: "failed", error: "insufficient_credit", credits_used: null });
    expect(await ctx.queue.counts("podcast.generate")).toMatchObject({ queued: 0, succeeded: 0 });
    expect((await call(ctx, "GET", "/api/v1/account", { key: a.key })).body.credits.used).toBe(0);
  });
});

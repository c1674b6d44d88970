// Every podcast format made for real with the builtin engines, to a playable MP3 of the length it reports,
// spoken by the format's hosts and charged what it used. Kept out of `bun test` (`bun run test:slow`, which
// CI runs): six episodes of real speech take half a minute on a quiet machine and minutes on a busy one.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createTestContext, userWithKey } from "../../../test/helpers.ts";
import { parseMp3Frames } from "./audio/mp3-parse.ts";
import { FORMATS, PODCAST_FORMATS } from "./formats.ts";
import { episodeFile, tinySourceOwner } from "./testing.ts";

const ctx = createTestContext();
afterAll(() => ctx.services.podcasts.close());

async function setup() {
  const user = await userWithKey(ctx);
  const { actor, sourceId } = await tinySourceOwner(ctx.services, user);
  return { ctx, actor, sourceId };
}

const partFiles = () => {
  const dir = join(ctx.config.dataDir, "podcasts");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".part")) : [];
};

describe("every format, offline", () => {
  test("each becomes a ready episode whose MP3 parses and lasts what it reports", async () => {
    const { ctx, actor, sourceId } = await setup();
    const ids: string[] = [];
    for (const format of PODCAST_FORMATS)
      ids.push((await ctx.services.podcasts.create(actor, { format, source_ids: [sourceId] })).id);
    await ctx.runner.drain({ timeoutMs: 280_000 });
    for (const [i, id] of ids.entries()) {
      const p = await ctx.services.podcasts.get(actor, id);
      const format = PODCAST_FORMATS[i]!;
      expect({ format, status: p.status, error: p.error }).toEqual({ format, status: "ready", error: null });
      const info = parseMp3Frames(episodeFile(ctx.services, id));
      expect(info.bitrateKbps).toBeGreaterThanOrEqual(48);
      expect(info.bitrateKbps).toBeLessThanOrEqual(64);
      expect(Math.abs(info.durationSeconds - p.duration_seconds!) / p.duration_seconds!).toBeLessThan(0.05);
      expect(p.audio_bytes).toBe(episodeFile(ctx.services, id).length);
      const speakers = new Set(p.transcript!.map((t) => t.speaker));
      expect([...speakers].sort()).toEqual(FORMATS[format].speakers.map((s) => s.name).sort());
      expect(p.credits_used).toBeGreaterThan(0);
      expect(p.credits_used!).toBeLessThanOrEqual(p.credits_quoted);
    }
    expect(partFiles()).toEqual([]);
    expect((await ctx.services.credits.balance(actor.userId)).used).toBe(
      (await Promise.all(ids.map(async (id) => (await ctx.services.podcasts.get(actor, id)).credits_used!))).reduce(
        (n, c) => n + c,
        0,
      ),
    );
  }, 300_000);
});

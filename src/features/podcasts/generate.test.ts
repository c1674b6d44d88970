// Generation with the builtin engines: two voices, retries, crashes, deletion. Every format made to a
// playable MP3 is formats.slow.ts (`bun run test:slow`): minutes of speech on a busy machine.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { sqlRow } from "../../db/inspect.ts";
import type { AudioClip, SpeechEngine } from "../../ai/speech/port.ts";
import { AppError } from "../../errors.ts";
import { createNotebooksRepo } from "../library/notebooks/repo.ts";
import { createHighlightsRepo } from "../library/highlights/repo.ts";
import { createNotesRepo } from "../library/notes/repo.ts";
import { createLibraryReader } from "../library/reader.ts";
import { createSourcesRepo } from "../library/sources/repo.ts";
import { createPodcastGenerator } from "./generate.ts";
import { createPodcastsRepo } from "./repo.ts";
import { createBuiltinScriptWriter } from "./script/builtin.ts";
import type { ScriptWriter } from "./script/port.ts";
import { tinySourceOwner } from "./testing.ts";

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

let shared: TestContext | undefined;

/** One app for the whole file (its speech and encoder threads warm up once); a new user per test. */
async function setup() {
  const ctx = (shared ??= createTestContext());
  if (!contexts.includes(ctx)) contexts.push(ctx);
  const user = await userWithKey(ctx);
  const { actor, sourceId } = await tinySourceOwner(ctx.services, user);
  return { ctx, user, actor, sourceId };
}

/** The real builtin engine, recording which voice spoke each clip; optionally failing on one call. */
function recording(engine: SpeechEngine, failOn?: { call: number; error: () => Error; then?: () => void }) {
  const clips: { voice: string; clip: AudioClip }[] = [];
  let calls = 0;
  const speech: SpeechEngine = {
    id: engine.id,
    voices: engine.voices,
    async synthesize(text, voice, opts) {
      calls++;
      if (failOn && calls === failOn.call) {
        failOn.then?.();
        throw failOn.error();
      }
      const clip = await engine.synthesize(text, voice, opts);
      clips.push({ voice, clip: { samples: clip.samples.slice(), sampleRate: clip.sampleRate } });
      return clip;
    },
  };
  return { speech, clips };
}

function counting(writer: ScriptWriter) {
  let calls = 0;
  return {
    writer: { id: writer.id, write: (req: Parameters<ScriptWriter["write"]>[0]) => (calls++, writer.write(req)) },
    calls: () => calls,
  };
}

function generatorWith(ctx: TestContext, parts: { speech?: SpeechEngine; writer?: ScriptWriter }) {
  const s = ctx.services;
  return createPodcastGenerator({
    db: s.db,
    repo: createPodcastsRepo(s.db),
    library: createLibraryReader({
      sources: createSourcesRepo(s.db),
      notebooks: createNotebooksRepo(s.db),
      notes: createNotesRepo(s.db),
      highlights: createHighlightsRepo(s.db),
    }),
    events: s.events,
    credits: s.credits,
    writer: parts.writer ?? createBuiltinScriptWriter(),
    speech: parts.speech ?? s.ai.speech,
    encoder: s.podcasts.encoder,
    blobs: s.blobs,
    config: s.config,
    clock: s.clock,
    logger: s.logger,
  });
}

/** Median pitch over voiced frames by autocorrelation (60–400 Hz). */
function medianPitch(samples: Float32Array, rate: number): number {
  const frame = Math.round(rate * 0.04);
  const [minLag, maxLag] = [Math.floor(rate / 400), Math.ceil(rate / 60)];
  const peak = samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
  const pitches: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += frame) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[start + i]! ** 2;
    if (Math.sqrt(energy / frame) < peak * 0.1) continue;
    let [best, bestLag] = [0, 0];
    for (let lag = minLag; lag <= maxLag; lag++) {
      let [cross, shifted] = [0, 0];
      for (let i = 0; i < frame; i++) {
        const y = samples[start + i + lag]!;
        cross += samples[start + i]! * y;
        shifted += y * y;
      }
      const r = cross / Math.sqrt(energy * shifted + 1e-12);
      if (r > best) [best, bestLag] = [r, lag];
    }
    if (best > 0.6) pitches.push(rate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

const partFiles = (ctx: TestContext) => {
  const dir = join(ctx.config.dataDir, "podcasts");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".part")) : [];
};

describe("voices", () => {
  test("a two-host episode is spoken by two clearly different voices", async () => {
    const { ctx, actor, sourceId } = await setup();
    const rec = recording(ctx.services.ai.speech);
    const id = (await ctx.services.podcasts.create(actor, { format: "debate", source_ids: [sourceId] })).id;
    await generatorWith(ctx, { speech: rec.speech }).generate(id, { attempt: 1 });
    const p = await ctx.services.podcasts.get(actor, id);
    expect(p.status).toBe("ready");
    expect(new Set(p.transcript!.map((t) => t.speaker))).toEqual(new Set(["Maya", "Theo"]));
    const byVoice = (v: string) => rec.clips.filter((c) => c.voice === v).map((c) => c.clip);
    expect(byVoice("host_a").length).toBeGreaterThan(0);
    expect(byVoice("host_b").length).toBeGreaterThan(0);
    const pitch = (clips: AudioClip[]) => {
      const some = clips.slice(0, 3);
      const joined = new Float32Array(some.reduce((n, c) => n + c.samples.length, 0));
      some.reduce((at, c) => (joined.set(c.samples, at), at + c.samples.length), 0);
      return medianPitch(joined, some[0]!.sampleRate);
    };
    expect(pitch(byVoice("host_a"))).toBeGreaterThan(pitch(byVoice("host_b")) * 1.3);
  }, 180_000);
});

describe("failures, retries and crashes", () => {
  test("a crash mid-speech: the episode waits as queued, keeps its script, and the next attempt finishes cleanly", async () => {
    const { ctx, actor, sourceId } = await setup();
    const id = (await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] })).id;
    mkdirSync(join(ctx.config.dataDir, "podcasts"), { recursive: true });
    writeFileSync(join(ctx.config.dataDir, "podcasts", `${id}.OLD.part`), "left by a crashed process");
    const writer = counting(createBuiltinScriptWriter());
    const crashing = recording(ctx.services.ai.speech, {
      call: 2,
      error: () => new Error("speech worker crashed: thread exited"),
    });
    const err = await generatorWith(ctx, { speech: crashing.speech, writer: writer.writer })
      .generate(id, { attempt: 1 })
      .catch((e: unknown) => e);
    expect(String(err)).toContain("worker crashed");
    const waiting = await ctx.services.podcasts.get(actor, id);
    expect(waiting).toMatchObject({ status: "queued", error: null, audio_url: null });
    expect(waiting.transcript!.length).toBeGreaterThan(2);
    expect(partFiles(ctx)).toEqual([]);
    await generatorWith(ctx, { writer: writer.writer }).generate(id, { attempt: 2 });
    const done = await ctx.services.podcasts.get(actor, id);
    expect(done.status).toBe("ready");
    expect(done.transcript).toEqual(waiting.transcript);
    expect(writer.calls()).toBe(1);
    expect((await ctx.services.credits.balance(actor.userId)).used).toBe(done.credits_used!);
  }, 180_000);

  test("the last attempt failing marks the episode failed, and nothing is charged", async () => {
    const { ctx, actor, sourceId } = await setup();
    const id = (await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] })).id;
    const down = recording(ctx.services.ai.speech, {
      call: 1,
      error: () => new AppError("upstream_error", "speech server answered HTTP 500: secret-ish body"),
    });
    await generatorWith(ctx, { speech: down.speech }).generate(id, { attempt: 3 });
    const p = await ctx.services.podcasts.get(actor, id);
    expect(p).toMatchObject({ status: "failed", error: "speech_failed", credits_used: null, audio_url: null });
    expect(p.error_detail).not.toContain("secret");
    expect((await ctx.services.credits.balance(actor.userId)).used).toBe(0);
    expect(existsSync(join(ctx.config.dataDir, "podcasts", `${id}.mp3`))).toBe(false);
  }, 180_000);

  test("a run that kept crashing past every attempt is recorded as failed; so is a job the queue gave up on", async () => {
    const { ctx, actor, sourceId } = await setup();
    const first = (await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] })).id;
    await generatorWith(ctx, {}).generate(first, { attempt: 4 });
    expect(await ctx.services.podcasts.get(actor, first)).toMatchObject({
      status: "failed",
      error: "generation_stopped",
    });
    const second = await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] });
    const jobId = (await sqlRow<{ job_id: string }>(ctx.db, "SELECT job_id FROM podcasts WHERE id = ?", second.id))!
      .job_id;
    expect((await ctx.queue.claim("a-worker-that-dies", 10, 60_000)).map((j) => j.id)).toContain(jobId);
    expect(await ctx.queue.fail(jobId, new Error("gave up"))).toBe(true);
    expect(await ctx.services.podcasts.get(actor, second.id)).toMatchObject({
      status: "failed",
      error: "generation_stopped",
    });
    expect((await ctx.services.credits.balance(actor.userId)).used).toBe(0);
  });

  test("an episode deleted while it is being spoken stops and leaves no file", async () => {
    const { ctx, actor, sourceId } = await setup();
    const id = (await ctx.services.podcasts.create(actor, { format: "deep_dive", source_ids: [sourceId] })).id;
    let deleted = false;
    const base = ctx.services.ai.speech;
    const speech: SpeechEngine = {
      ...base,
      async synthesize(text, voice, opts) {
        if (!deleted) {
          deleted = true;
          await ctx.services.podcasts.delete(actor, id);
        }
        return base.synthesize(text, voice, opts);
      },
    };
    await generatorWith(ctx, { speech }).generate(id, { attempt: 1 });
    expect(readdirSync(join(ctx.config.dataDir, "podcasts")).filter((f) => f.startsWith(id))).toEqual([]);
    expect((await ctx.services.credits.balance(actor.userId)).used).toBe(0);
  }, 180_000);

  test("sources deleted before generation: failed with no_content", async () => {
    const { ctx, actor, sourceId } = await setup();
    const id = (await ctx.services.podcasts.create(actor, { format: "brief", source_ids: [sourceId] })).id;
    await ctx.services.sources.delete(actor, sourceId);
    await ctx.runner.drain();
    expect(await ctx.services.podcasts.get(actor, id)).toMatchObject({
      status: "failed",
      error: "no_content",
      source_ids: [sourceId],
    });
  });
});

// The OpenAI-compatible script writer and speech against a local fake server: outline, segments,
// validation with retries and a clear failure, voices, language, and retries of a failing speech server.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../../test/fake-openai.ts";
import { fakeClock } from "../../jobs/testing.ts";
import { parseMp3Frames } from "./audio/mp3-parse.ts";
import { episodeFile, insertReadySource } from "./testing.ts";

const ARTICLE =
  "# Tide pools\n\nTide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet.\n";

type Body = { messages: { role: string; content: string }[] };
const lastUser = (b: Body) => b.messages.filter((m) => m.role === "user").at(-1)!.content;
const isOutline = (b: Body) => b.messages.some((m) => m.role === "user" && m.content.includes("Plan a"));

/** A well-behaved model: a two-part outline, then two turns per segment. */
function goodModel(b: Body): string {
  if (isOutline(b))
    return JSON.stringify({
      segments: [
        { title: "What tide pools are", points: ["small animals"] },
        { title: "Holding on", points: ["tube feet"] },
      ],
    });
  const n = /Write segment (\d+)/.exec(lastUser(b))?.[1];
  return JSON.stringify({
    turns: [
      { speaker: "Maya", text: `Segment ${n}: tide pools hold small animals.` },
      { speaker: "theo", text: `Segment ${n}: sea stars grip the rock.` },
    ],
  });
}

let fake: FakeOpenAI;
const contexts: TestContext[] = [];
afterEach(async () => {
  await fake?.stop();
});
afterAll(async () => {
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

async function setup(chatReply: (b: Body) => string, clock = fakeClock(Date.now())) {
  fake = startFakeOpenAI({ chatReply: (b) => chatReply(b as Body) });
  const ctx = createTestContext(
    { AI_BASE_URL: `${fake.url}/v1`, AI_CHAT_MODEL: "fake-chat", AI_TTS_MODEL: "fake-tts" },
    { clock },
  );
  contexts.push(ctx);
  const a = await userWithKey(ctx);
  const src = await insertReadySource(ctx.services, a.userId, { title: "Tide pools", markdown: ARTICLE });
  return { ctx, a, src, clock };
}

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const speechCalls = () => fake.requests.filter((r) => r.path === "/v1/audio/speech");

describe("openai script writer and speech", () => {
  test("outline, then each segment as JSON turns; one speech call per turn with each host's voice", async () => {
    const { ctx, a, src } = await setup(goodModel);
    expect(ctx.services.podcasts.writer.id).toBe("fake-chat");
    expect(ctx.services.ai.speech.id).toBe("openai");
    const id = (
      await call(ctx, "POST", "/api/v1/podcasts", {
        key: a.key,
        body: { source_ids: [src], format: "deep_dive", language: "fr" },
      })
    ).body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const p = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body;
    expect(p.status).toBe("ready");
    expect(p.transcript).toEqual([
      { speaker: "Maya", text: "Segment 1: tide pools hold small animals." },
      { speaker: "Theo", text: "Segment 1: sea stars grip the rock." },
      { speaker: "Maya", text: "Segment 2: tide pools hold small animals." },
      { speaker: "Theo", text: "Segment 2: sea stars grip the rock." },
    ]);
    const chats = chatCalls();
    expect(chats).toHaveLength(3);
    const first = chats[0]!.body as Body & { response_format?: unknown; model: string };
    expect(first).toMatchObject({ model: "fake-chat", response_format: { type: "json_object" } });
    expect(first.messages[0]!.content).toContain("Write in French");
    expect(first.messages[0]!.content).toContain("Maya (host) and Theo (co-host)");
    expect(lastUser(chats[1]!.body as Body)).toContain("Sea stars grip the rock with tube feet.");
    const voices = speechCalls().map((r) => (r.body as { voice: string; model: string }).voice);
    expect(voices).toEqual(["alloy", "onyx", "alloy", "onyx"]);
    expect(speechCalls().every((r) => (r.body as { model: string }).model === "fake-tts")).toBe(true);
    const info = parseMp3Frames(episodeFile(ctx.services, id));
    expect(info.sampleRate).toBe(24_000);
    expect(Math.abs(info.durationSeconds - p.duration_seconds) / p.duration_seconds).toBeLessThan(0.05);
  }, 180_000);

  test("a malformed transcript is asked for again with the reason, and then accepted", async () => {
    let segmentCalls = 0;
    const { ctx, a, src } = await setup((b) =>
      isOutline(b) || ++segmentCalls > 1 ? goodModel(b) : '{"turns": [{"speaker": "Narrator", "text": "Hi"}]}',
    );
    const id = (await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src] } })).body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
    expect((await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body.status).toBe("ready");
    const retry = chatCalls()[2]!.body as Body;
    expect(lastUser(retry)).toContain('speaker "Narrator", but the only speakers are "Maya" and "Theo"');
  }, 180_000);

  test("a model that keeps sending broken JSON: three tries, then a failed episode with a clear error, nothing spoken or charged", async () => {
    const { ctx, a, src } = await setup((b) =>
      isOutline(b) ? goodModel(b) : "Sure! Here is your script: [{speaker: Maya",
    );
    const id = (await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src] } })).body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const p = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body;
    expect(p).toMatchObject({ status: "failed", error: "script_invalid", audio_url: null, credits_used: null });
    expect(p.error_detail).toMatch(
      /^The chat model \(fake-chat\) sent an unusable transcript for segment 1 3 times; the last problem: the reply is not valid JSON/,
    );
    expect(chatCalls()).toHaveLength(1 + 3);
    expect(speechCalls()).toHaveLength(0);
    expect(await ctx.queue.counts("podcast.generate")).toMatchObject({ queued: 0, failed: 0 });
    expect((await call(ctx, "GET", "/api/v1/account", { key: a.key })).body.credits.used).toBe(0);
  }, 180_000);

  test("a speech server error is retried by the queue: queued in between, ready after, one charge", async () => {
    const { ctx, a, src, clock } = await setup(goodModel);
    fake.queue("/v1/audio/speech", { status: 500, json: { error: { message: "overloaded, key sk-secret" } } });
    const id = (
      await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src], format: "debate" } })
    ).body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const waiting = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body;
    expect(waiting).toMatchObject({ status: "queued", error: null });
    expect(waiting.transcript).toHaveLength(4);
    clock.advance(60_000);
    await ctx.runner.drain({ timeoutMs: 170_000 });
    expect((await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body.status).toBe("ready");
    expect(chatCalls()).toHaveLength(3); // the script was kept, not written again
    expect(await sqlRows(ctx.db, "SELECT count(*) AS n FROM credit_ledger")).toEqual([{ n: 1 }]);
  }, 180_000);

  test("unabridged reads the source itself: no chat calls", async () => {
    const { ctx, a, src } = await setup(goodModel);
    const id = (
      await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src], format: "unabridged" } })
    ).body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const p = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body;
    expect(p.status).toBe("ready");
    expect(p.transcript.map((t: { text: string }) => t.text)).toContain(
      "Tide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet.",
    );
    expect(chatCalls()).toHaveLength(0);
  }, 180_000);
});

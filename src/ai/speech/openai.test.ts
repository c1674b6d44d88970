// The OpenAI-compatible speech adapter against a local fake server: request shape, WAV/PCM replies, errors.
import { afterAll, describe, expect, test } from "bun:test";
import { AppError } from "../../errors.ts";
import { createOpenAISpeech } from "./openai.ts";
import { encodeWav } from "./wav.ts";

interface SpeechBody {
  model: string;
  input: string;
  voice: string;
  response_format: string;
}
const seen: { body: SpeechBody; auth: string | null; path: string }[] = [];
let reply: (body: SpeechBody) => Response | Promise<Response> = () => new Response("unset", { status: 500 });

/** 10 ms of a constant level per input character, so each chunk's length is checkable. */
function wavFor(input: string, rate = 24000): Uint8Array<ArrayBuffer> {
  return encodeWav({ samples: new Float32Array((input.length * rate) / 100).fill(0.25), sampleRate: rate });
}

const server = Bun.serve({
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as SpeechBody;
    seen.push({ body, auth: req.headers.get("authorization"), path: new URL(req.url).pathname });
    return reply(body);
  },
});
afterAll(() => server.stop(true));

const speech = (extra: Partial<Parameters<typeof createOpenAISpeech>[0]> = {}) =>
  createOpenAISpeech({
    baseUrl: `http://localhost:${server.port}/`,
    apiKey: "sk-test",
    model: "tts-1",
    timeoutMs: 5000,
    ...extra,
  });

describe("openai speech adapter", () => {
  test("posts the documented request and decodes the WAV reply", async () => {
    seen.length = 0;
    reply = (b) => new Response(wavFor(b.input), { headers: { "content-type": "audio/wav" } });
    const clip = await speech().synthesize("Hello there.", "host_b");
    expect(seen).toEqual([
      {
        path: "/v1/audio/speech",
        auth: "Bearer sk-test",
        body: { model: "tts-1", input: "Hello there.", voice: "onyx", response_format: "wav" },
      },
    ]);
    expect(clip.sampleRate).toBe(24000);
    expect(clip.samples.length).toBe(12 * 240);
    expect(clip.samples[0]).toBeCloseTo(0.25, 3);
  });

  test("passes other voice names through and folds stereo WAV to mono", async () => {
    seen.length = 0;
    reply = () => {
      const wav = wavFor("ab", 44100); // mono; rewrite the header as 2 channels of half the frames
      const v = new DataView(wav.buffer);
      v.setUint16(22, 2, true);
      v.setUint16(32, 4, true);
      return new Response(wav, { headers: { "content-type": "audio/wav" } });
    };
    const clip = await speech({ voices: ["nova", "echo"] }).synthesize("ab", "shimmer");
    expect(seen[0]?.body.voice).toBe("shimmer");
    expect(clip.sampleRate).toBe(44100);
    expect(clip.samples.length).toBe(441);
  });

  test("decodes raw PCM when the server answers in pcm format", async () => {
    reply = () =>
      new Response(new Int16Array([0, 16384, -16384, 8192]).buffer, { headers: { "content-type": "audio/pcm" } });
    const clip = await speech().synthesize("x", "host_a");
    expect(clip.sampleRate).toBe(24000);
    expect([...clip.samples]).toEqual([0, 0.5, -0.5, 0.25]);
  });

  test("long input goes out in sentence-sized requests and comes back as one clip", async () => {
    seen.length = 0;
    reply = (b) => new Response(wavFor(b.input), { headers: { "content-type": "audio/wav" } });
    const text = "First sentence here. Second sentence here. Third one.";
    const clip = await speech({ maxChunkChars: 25 }).synthesize(text, "host_a");
    expect(seen.map((s) => s.body.input)).toEqual(["First sentence here.", "Second sentence here.", "Third one."]);
    expect(clip.samples.length).toBe((20 + 21 + 10) * 240);
  });

  test("a reply that is not audio is a clear upstream error", async () => {
    reply = () => Response.json({ ok: true });
    const err = await speech()
      .synthesize("x", "host_a")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("upstream_error");
    expect((err as AppError).detail).toMatch(/did not send WAV or PCM audio \(content-type "application\/json/);
  });

  test("a truncated WAV and an HTTP error are upstream errors with details", async () => {
    reply = (b) => new Response(wavFor(b.input).subarray(0, 30), { headers: { "content-type": "audio/wav" } });
    await expect(speech().synthesize("x", "host_a")).rejects.toThrow(/unreadable WAV/);
    reply = () => new Response('{"error":{"message":"model not found"}}', { status: 404 });
    await expect(speech().synthesize("x", "host_a")).rejects.toThrow(/HTTP 404: .*model not found/);
  });

  test("a server that never answers times out", async () => {
    reply = () => new Promise<Response>(() => {});
    await expect(speech({ timeoutMs: 150 }).synthesize("x", "host_a")).rejects.toThrow(/timed out after 150 ms/);
  });

  test("an unreachable server is an upstream error", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const port = closed.port;
    await closed.stop(true);
    const err = await createOpenAISpeech({ baseUrl: `http://127.0.0.1:${port}`, model: "m", timeoutMs: 2000 })
      .synthesize("x", "host_a")
      .catch((e: unknown) => e);
    expect((err as AppError).code).toBe("upstream_error");
  });
});

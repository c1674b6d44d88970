// The OpenAI-compatible HTTP client against a local fake server: retries, Retry-After, timeouts, errors.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { startFakeOpenAI, type FakeOpenAI } from "../../test/fake-openai.ts";
import {
  AIError,
  aiErrorToAppError,
  createOpenAIClient,
  joinUrl,
  parseRetryAfter,
  type OpenAIClientOptions,
} from "./openai-client.ts";

let fake: FakeOpenAI;
let sleeps: number[];

beforeEach(async () => {
  await fake?.stop();
  fake = startFakeOpenAI({ chatReply: "Hello there." });
  sleeps = [];
});
afterAll(() => fake?.stop());

function client(extra: Partial<OpenAIClientOptions> = {}) {
  return createOpenAIClient({
    baseUrl: fake.url,
    apiKey: "sk-test",
    timeoutMs: 2_000,
    retryBaseMs: 1,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
}

async function failure(p: Promise<unknown>): Promise<AIError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AIError);
  return err as AIError;
}

const chat = { model: "m", messages: [{ role: "user", content: "hi" }] };

describe("createOpenAIClient", () => {
  test("posts JSON with the key and returns the parsed reply", async () => {
    const reply = (await client().postJSON("/v1/chat/completions", chat)) as any;
    expect(reply.choices[0].message.content).toBe("Hello there.");
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: chat });
    expect(req!.headers["authorization"]).toBe("Bearer sk-test");
    expect(req!.headers["content-type"]).toBe("application/json");
  });

  test("a base URL ending in /v1 is not given a second one", async () => {
    await client({ baseUrl: `${fake.url}/v1/`, apiKey: undefined }).postJSON("/v1/chat/completions", chat);
    expect(fake.requests[0]!.path).toBe("/v1/chat/completions");
    expect(fake.requests[0]!.headers["authorization"]).toBeUndefined();
    expect(joinUrl("http://h:1/api", "/v1/x")).toBe("http://h:1/api/v1/x");
  });

  test("retries a 500 with growing backoff, then succeeds", async () => {
    fake.queue("/v1/chat/completions", { status: 500, json: { error: { message: "boom" } } });
    fake.queue("/v1/chat/completions", { status: 502, text: "bad gateway" });
    const reply = (await client({ retryBaseMs: 100 }).postJSON("/v1/chat/completions", chat)) as any;
    expect(reply.choices[0].message.content).toBe("Hello there.");
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  test("honours Retry-After on 429", async () => {
    fake.queue("/v1/chat/completions", {
      status: 429,
      json: { error: { message: "slow down" } },
      headers: { "retry-after": "2" },
    });
    await client().postJSON("/v1/chat/completions", chat);
    expect(sleeps).toEqual([2000]);
    expect(fake.requests).toHaveLength(2);
  });

  test("a real short Retry-After is waited for", async () => {
    fake.queue("/v1/chat/completions", { status: 503, text: "busy", headers: { "retry-after": "0.01" } });
    const reply = (await client({ sleep: undefined }).postJSON("/v1/chat/completions", chat)) as any;
    expect(reply.choices).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  test("a Retry-After beyond the limit fails at once", async () => {
    fake.queue("/v1/chat/completions", {
      status: 429,
      json: { error: { message: "quota" } },
      headers: { "retry-after": "3600" },
    });
    const err = await failure(client().postJSON("/v1/chat/completions", chat));
    expect(err).toMatchObject({ code: "ai_http_error", status: 429, upstreamMessage: "quota" });
    expect(fake.requests).toHaveLength(1);
  });

  test("gives up after maxRetries with the upstream status and message", async () => {
    for (let i = 0; i < 5; i++)
      fake.queue("/v1/chat/completions", { status: 503, json: { error: { message: "overloaded" } } });
    const err = await failure(client({ maxRetries: 2 }).postJSON("/v1/chat/completions", chat));
    expect(err).toMatchObject({ code: "ai_http_error", status: 503, upstreamMessage: "overloaded" });
    expect(err.message).toContain("503");
    expect(fake.requests).toHaveLength(3);
  });

  test("a 4xx other than 408/429 is not retried", async () => {
    fake.queue("/v1/chat/completions", { status: 401, json: { error: { message: "Incorrect API key provided" } } });
    const err = await failure(client().postJSON("/v1/chat/completions", chat));
    expect(err).toMatchObject({ code: "ai_http_error", status: 401, upstreamMessage: "Incorrect API key provided" });
    expect(fake.requests).toHaveLength(1);
    const app = aiErrorToAppError(err);
    expect(app.code).toBe("upstream_error");
    expect(app.detail).not.toContain("API key");
  });

  test("a hanging server times out, without retrying", async () => {
    fake.queue("/v1/chat/completions", { hang: true });
    const err = await failure(client({ timeoutMs: 150 }).postJSON("/v1/chat/completions", chat));
    expect(err.code).toBe("ai_timeout");
    expect(fake.requests).toHaveLength(1);
    expect(aiErrorToAppError(err).code).toBe("service_unavailable");
  });

  test("a slow but timely answer is accepted; a replaced default answers from then on", async () => {
    fake.setDefault("/v1/chat/completions", ({ body }) => ({ json: { echo: (body as { model: string }).model } }));
    fake.queue("/v1/chat/completions", { delayMs: 30, json: { slow: true } });
    const c = client();
    expect(await c.postJSON("/v1/chat/completions", chat)).toEqual({ slow: true });
    expect(await c.postJSON("/v1/chat/completions", chat)).toEqual({ echo: "m" });
  });

  test("a reply that is not JSON is a bad response", async () => {
    fake.queue("/v1/chat/completions", { text: '{"choices": [', headers: { "content-type": "application/json" } });
    const err = await failure(client().postJSON("/v1/chat/completions", chat));
    expect(err.code).toBe("ai_bad_response");
  });

  test("an unreachable server is reported after retries", async () => {
    const gone = startFakeOpenAI();
    const url = gone.url;
    await gone.stop();
    const err = await failure(client({ baseUrl: url, maxRetries: 2 }).postJSON("/v1/chat/completions", chat));
    expect(err.code).toBe("ai_unreachable");
    expect(sleeps).toHaveLength(2);
  });

  test("uses the fetch it is given", async () => {
    const seen: string[] = [];
    const c = client({ fetch: (input, init) => (seen.push(String(input)), fetch(input, init)) });
    await c.postJSON("/v1/chat/completions", chat);
    expect(seen).toEqual([`${fake.url}/v1/chat/completions`]);
  });

  test("a caller's abort signal stops the call", async () => {
    fake.queue("/v1/chat/completions", { hang: true });
    const ctl = new AbortController();
    const p = client().postJSON("/v1/chat/completions", chat, { signal: ctl.signal });
    ctl.abort();
    expect(
      await p.then(
        () => "resolved",
        (e: unknown) => (e instanceof AIError ? e.code : "aborted"),
      ),
    ).toBe("aborted");
  });

  test("postBinary returns the bytes and content type", async () => {
    const c = client();
    const short = await c.postBinary("/v1/audio/speech", { model: "tts", input: "Hi.", voice: "alloy" });
    const long = await c.postBinary("/v1/audio/speech", {
      model: "tts",
      input: "A much longer line of speech to say.",
      voice: "alloy",
    });
    expect(short.contentType).toBe("audio/wav");
    expect(new TextDecoder().decode(short.body.slice(0, 4))).toBe("RIFF");
    expect(long.body.length).toBeGreaterThan(short.body.length);
    const err = await failure(c.postBinary("/v1/audio/speech", { model: "tts", input: "" }));
    expect(err).toMatchObject({ code: "ai_http_error", status: 400 });
  });

  test("parseRetryAfter reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:00:05 GMT", now)).toBe(5000);
  });
});

// The OpenAI-compatible chat model against a local fake server: request shape, replies, failures.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { startFakeOpenAI, type FakeOpenAI } from "../../../test/fake-openai.ts";
import { AIError, createOpenAIClient } from "../openai-client.ts";
import { createOpenAIChat, formatPassages } from "./openai.ts";

let fake: FakeOpenAI;
beforeEach(async () => {
  await fake?.stop();
  fake = startFakeOpenAI({ chatReply: (body) => `echo: ${body.messages.at(-1).content.length} chars [1]` });
});
afterAll(() => fake?.stop());

function chat(timeoutMs = 2_000) {
  return createOpenAIChat({
    client: createOpenAIClient({ baseUrl: `${fake.url}/v1`, apiKey: "sk-test", timeoutMs, retryBaseMs: 1 }),
    model: "chat-test",
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

const passages = [
  { n: 1, title: "Bread", text: "Feed the starter twice a day." },
  { n: 2, title: null, text: "Tide pools hold anemones." },
];

describe("createOpenAIChat", () => {
  test("answer posts the model, a system prompt and numbered passages, and returns the message", async () => {
    const c = chat();
    expect(c).toMatchObject({ id: "chat-test", extractive: false });
    const answer = await c.answer("How often do I feed it?", passages);
    const req = fake.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test");
    const body = req.body as { model: string; temperature: number; messages: { role: string; content: string }[] };
    expect(body.model).toBe("chat-test");
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(body.messages[0]!.content).toContain("[1]");
    expect(body.messages[1]!.content).toBe(
      `Passages:\n\n${formatPassages(passages)}\n\nQuestion: How often do I feed it?`,
    );
    expect(answer).toBe(`echo: ${body.messages[1]!.content.length} chars [1]`);
  });

  test("formatPassages numbers each passage and puts its title on its own line", () => {
    expect(formatPassages(passages)).toBe("[1] Bread\nFeed the starter twice a day.\n\n[2] Tide pools hold anemones.");
  });

  test("complete can ask for a JSON object", async () => {
    fake.queue("/v1/chat/completions", { json: { choices: [{ message: { content: '{"ok":true}' } }] } });
    expect(await chat().complete!([{ role: "user", content: "hi" }], { json: true, temperature: 0.7 })).toBe(
      '{"ok":true}',
    );
    expect(fake.requests[0]!.body).toMatchObject({ response_format: { type: "json_object" }, temperature: 0.7 });
  });

  test.each([
    ["not JSON", { text: "<html>gateway</html>" }],
    ["no choices", { json: { object: "chat.completion" } }],
    ["empty choices", { json: { choices: [] } }],
    ["content not a string", { json: { choices: [{ message: { content: 42 } }] } }],
  ])("a reply with %s is ai_bad_response", async (_name, reply) => {
    fake.queue("/v1/chat/completions", reply);
    expect((await failure(chat().answer("q", passages))).code).toBe("ai_bad_response");
  });

  test("a refusal is ai_http_error with the upstream status, not retried", async () => {
    fake.queue("/v1/chat/completions", { status: 401, json: { error: { message: "invalid api key" } } });
    const err = await failure(chat().answer("q", passages));
    expect(err).toMatchObject({ code: "ai_http_error", status: 401, upstreamMessage: "invalid api key" });
    expect(fake.requests).toHaveLength(1);
  });

  test("a server error is retried, then the answer comes through", async () => {
    fake.queue("/v1/chat/completions", { status: 503, json: { error: { message: "loading model" } } });
    expect(await chat().answer("q", passages)).toStartWith("echo:");
    expect(fake.requests).toHaveLength(2);
  });

  test("a server that never answers is ai_timeout", async () => {
    fake.queue("/v1/chat/completions", { hang: true });
    expect((await failure(chat(150).answer("q", passages))).code).toBe("ai_timeout");
  });

  test("the caller's abort signal cancels the request", async () => {
    fake.queue("/v1/chat/completions", { hang: true });
    const ctl = new AbortController();
    const p = chat().answer("q", passages, { signal: ctl.signal });
    ctl.abort(new Error("stop"));
    expect(
      await p.then(
        () => "answered",
        (e: Error) => e.message,
      ),
    ).toBe("stop");
  });
});

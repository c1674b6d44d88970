// The OpenAI-compatible embedder against a local fake server: batching, order, validation, retries.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { startFakeOpenAI, type FakeOpenAI } from "../../../test/fake-openai.ts";
import { AIError, createOpenAIClient } from "../openai-client.ts";
import { createBuiltinEmbedder } from "./builtin.ts";
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from "./openai.ts";
import { dot } from "./port.ts";

let fake: FakeOpenAI;
beforeEach(async () => {
  await fake?.stop();
  fake = startFakeOpenAI();
});
afterAll(() => fake?.stop());

function embedder(extra: Partial<OpenAIEmbedderOptions> = {}) {
  const client = createOpenAIClient({ baseUrl: fake.url, timeoutMs: 2_000, retryBaseMs: 1 });
  return createOpenAIEmbedder({ client, model: "text-embed-test", ...extra });
}

async function failure(p: Promise<unknown>): Promise<AIError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AIError);
  return err as AIError;
}

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));
const reply = (data: unknown[]) => ({ json: { object: "list", data, model: "text-embed-test" } });

describe("createOpenAIEmbedder", () => {
  test("batches inputs and keeps input order even when the server reorders", async () => {
    const texts = Array.from({ length: 150 }, (_, i) => `text number ${i} about topic ${i % 7}`);
    const e = embedder({ batchSize: 64 });
    expect(e.id).toBe("text-embed-test");
    expect(e.dimensions).toBe(0);
    const got = await e.embed(texts);
    expect(e.dimensions).toBe(384);
    expect(fake.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([64, 64, 22]);
    expect(fake.requests[0]!.body).toMatchObject({ model: "text-embed-test", encoding_format: "float" });
    // The fake answers with the builtin embedder's vectors, in reverse order.
    const want = await createBuiltinEmbedder().embed(texts);
    expect(got).toHaveLength(150);
    got.forEach((v, i) => expect(dot(v, want[i]!)).toBeCloseTo(1, 5));
  });

  test("no texts, no request", async () => {
    expect(await embedder().embed([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  test("normalises vectors to unit length and reads base64 replies", async () => {
    const b64 = Buffer.from(new Float32Array([0, 3, 4]).buffer).toString("base64");
    fake.queue(
      "/v1/embeddings",
      reply([
        { index: 1, embedding: b64 },
        { index: 0, embedding: [3, 4, 0] },
      ]),
    );
    const [a, b] = await embedder().embed(["x", "y"]);
    expect(Array.from(a!)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6), 0]);
    expect(Array.from(b!)).toEqual([0, expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(norm(a!)).toBeCloseTo(1, 6);
  });

  test("adds query and document prefixes, and asks for dimensions when told to", async () => {
    const e = embedder({
      queryPrefix: "search_query: ",
      documentPrefix: "search_document: ",
      dimensions: 64,
      requestDimensions: true,
    });
    await e.embed(["what is salt"], "query");
    await e.embed(["salt is sodium chloride"]);
    expect(fake.requests.map((r) => r.body)).toEqual([
      { model: "text-embed-test", input: ["search_query: what is salt"], encoding_format: "float", dimensions: 64 },
      {
        model: "text-embed-test",
        input: ["search_document: salt is sodium chloride"],
        encoding_format: "float",
        dimensions: 64,
      },
    ]);
  });

  test("a wrong number of vectors is a bad response", async () => {
    fake.queue("/v1/embeddings", reply([{ index: 0, embedding: [1, 0] }]));
    const err = await failure(embedder().embed(["a", "b"]));
    expect(err.code).toBe("ai_bad_response");
    expect(err.message).toContain("asked for 2 embeddings, got 1");
  });

  test("malformed replies are bad responses", async () => {
    const cases: unknown[] = [
      { json: { object: "list" } },
      reply([{ index: 0, embedding: "not base64 floats!" }]),
      reply([{ index: 0, embedding: [1, "2"] }]),
      reply([{ index: 0, embedding: [] }]),
      reply([{ index: 5, embedding: [1, 2] }]),
      { json: [1, 2, 3] },
      { text: "<html>oops</html>" },
    ];
    for (const c of cases) {
      fake.queue("/v1/embeddings", c as never);
      expect((await failure(embedder().embed(["a"]))).code).toBe("ai_bad_response");
    }
    fake.queue(
      "/v1/embeddings",
      reply([
        { index: 0, embedding: [1, 2] },
        { index: 0, embedding: [1, 2] },
      ]),
    );
    expect((await failure(embedder().embed(["a", "b"]))).message).toContain("twice");
  });

  test("vectors of the wrong length are refused", async () => {
    fake.queue("/v1/embeddings", reply([{ index: 0, embedding: [1, 2, 3] }]));
    const err = await failure(embedder({ dimensions: 4 }).embed(["a"]));
    expect(err.message).toContain("expected vectors of 4 dimensions");
    const e = embedder();
    await e.embed(["learns 384"]);
    fake.queue("/v1/embeddings", reply([{ index: 0, embedding: [1, 2, 3] }]));
    expect((await failure(e.embed(["now 3"]))).code).toBe("ai_bad_response");
  });

  test("retries through the shared client: a 500, then success", async () => {
    fake.queue("/v1/embeddings", { status: 500, json: { error: { message: "model loading" } } });
    const [v] = await embedder().embed(["retry me"]);
    expect(norm(v!)).toBeCloseTo(1, 5);
    expect(fake.requests).toHaveLength(2);
  });

  test("an upstream error surfaces as an HTTP AIError", async () => {
    fake.queue("/v1/embeddings", { status: 404, json: { error: { message: "model 'nope' not found" } } });
    const err = await failure(embedder({ model: "nope" }).embed(["x"]));
    expect(err).toMatchObject({ code: "ai_http_error", status: 404, upstreamMessage: "model 'nope' not found" });
  });
});

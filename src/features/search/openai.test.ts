// Search and ask with the OpenAI-compatible adapters against a local fake model server: embeddings,
// chat, failures that must become clean problems, marker verification, and switching embedders.
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../app.ts";
import { testConfig } from "../../config.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../../test/fake-openai.ts";
import { chunkText, MODES, reopenable, saveNote, search, TEXTS } from "./library.fixture.ts";

const fakes: FakeOpenAI[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function fake(opts: Parameters<typeof startFakeOpenAI>[0] = {}) {
  const f = startFakeOpenAI(opts);
  fakes.push(f);
  return f;
}

async function library(f: FakeOpenAI, env: Record<string, string>) {
  const ctx = createTestContext({ AI_BASE_URL: f.url, ...env });
  const a = await userWithKey(ctx);
  const ids = {
    bread: await saveNote(ctx, a.key, TEXTS.bread, { title: "Bread" }),
    tides: await saveNote(ctx, a.key, TEXTS.tides, { title: "Tide pools" }),
    orbits: await saveNote(ctx, a.key, TEXTS.orbits, { title: "Orbits" }),
  };
  await ctx.runner.drain();
  return { ctx, a, ids };
}

const ask = (ctx: TestContext, key: string, question: string) =>
  call(ctx, "POST", "/api/v1/search/ask", { key, body: { question } });
const used = async (ctx: TestContext, key: string) =>
  (await call(ctx, "GET", "/api/v1/account", { key })).body.credits.used as number;
const chatReply = (content: unknown) => ({
  json: {
    id: "x",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  },
});

describe("openai embedder", () => {
  test("chunks are embedded by the server; the model and dimension are stored with each vector", async () => {
    const f = fake({ dimensions: 96 });
    const { ctx, a, ids } = await library(f, { AI_EMBEDDING_MODEL: "fake-embed" });
    const calls = f.requests.filter((r) => r.path === "/v1/embeddings");
    expect(calls.length).toBeGreaterThan(0);
    expect((calls[0]!.body as { model: string }).model).toBe("fake-embed");
    const models = await sqlRows(ctx.db, "SELECT model, dimensions, state FROM embedding_models");
    expect(models).toEqual([{ model: "fake-embed", dimensions: 96, state: "active" }]);
    const dims = await sqlRows(ctx.db, "SELECT dimensions d, count(*) n FROM chunk_vectors GROUP BY dimensions");
    expect(dims).toEqual([{ d: 96, n: (await sqlRow<{ n: number }>(ctx.db, "SELECT count(*) n FROM chunks"))!.n }]);
    for (const mode of MODES) {
      const r = await search(ctx, a.key, { query: "sourdough starter flour", mode });
      expect(r.body.data[0].id).toBe(ids.bread);
    }
  });

  test.each([
    ["a reply that is not JSON", { text: "<html>oops</html>" }, 502, "upstream_error"],
    ["a reply without data", { json: { object: "list" } }, 502, "upstream_error"],
    ["a refusal", { status: 401, json: { error: { message: "bad key sk-secret" } } }, 502, "upstream_error"],
  ])("%s while embedding a query is a %i problem, not a 500", async (_name, reply, status, code) => {
    const f = fake();
    const { ctx, a } = await library(f, { AI_EMBEDDING_MODEL: "fake-embed" });
    for (const mode of ["vector", "hybrid"]) {
      f.queue("/v1/embeddings", reply);
      const r = await search(ctx, a.key, { query: "sourdough", mode });
      expect(r.status).toBe(status);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      expect(r.body.code).toBe(code);
      expect(r.text).not.toContain("sk-secret");
    }
    // Text search does not need the model.
    expect((await search(ctx, a.key, { query: "sourdough", mode: "text" })).status).toBe(200);
  });
});

describe("openai chat", () => {
  test("the answer comes from the model, with numbered passages sent and citations verified", async () => {
    const f = fake({ chatReply: "Feed the starter twice a day [1]. It should double within six hours [1][7]." });
    const { ctx, a, ids } = await library(f, { AI_CHAT_MODEL: "fake-chat" });
    const r = await ask(ctx, a.key, "How often should I feed a sourdough starter?");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ model: "fake-chat", extractive: false, credits_used: 1 });
    expect(r.body.answer).toBe("Feed the starter twice a day [1]. It should double within six hours [1].");
    expect(r.body.citations).toHaveLength(1);
    const [c] = r.body.citations;
    expect(c).toMatchObject({ n: 1, type: "note", id: ids.bread, title: "Bread" });
    expect(await chunkText(ctx, c.chunk_id)).toContain(c.quote);
    expect(c.quote).toContain("twice a day");
    const sent = f.requests.find((q) => q.path === "/v1/chat/completions")!.body as {
      model: string;
      messages: { role: string; content: string }[];
    };
    expect(sent.model).toBe("fake-chat");
    expect(sent.messages[0]!.role).toBe("system");
    expect(sent.messages[1]!.content).toContain("[1] Bread\n");
    expect(sent.messages[1]!.content).toContain("Question: How often should I feed a sourdough starter?");
  });

  test("markers citing passages that do not exist are dropped and the rest renumbered", async () => {
    const f = fake({
      chatReply: "Sea stars use tube feet [9]. Anemones fold their tentacles [2]. Planets move on ellipses [1, 9].",
    });
    const { ctx, a } = await library(f, { AI_CHAT_MODEL: "fake-chat" });
    const r = await ask(
      ctx,
      a.key,
      "How do sea stars and anemones survive in tide pools, and how do planets move around the sun?",
    );
    expect(r.status).toBe(200);
    expect(r.body.answer).not.toContain("[9]");
    expect(r.body.answer).toMatch(
      /^Sea stars use tube feet\. Anemones fold their tentacles \[1\]\. Planets move on ellipses \[2\]\.$/,
    );
    expect(r.body.citations.map((c: { n: number }) => c.n)).toEqual([1, 2]);
    for (const c of r.body.citations) expect(await chunkText(ctx, c.chunk_id)).toContain(c.quote);
  });

  test.each([
    ["a reply that is not JSON", { text: "not json at all" }, 502, "upstream_error"],
    ["a reply without choices", { json: { id: "x", object: "chat.completion" } }, 502, "upstream_error"],
    ["content that is not a string", chatReply(null), 502, "upstream_error"],
    ["a bad request", { status: 400, json: { error: { message: "context too long" } } }, 502, "upstream_error"],
  ])("%s is a %i problem and charges nothing", async (_name, reply, status, code) => {
    const f = fake();
    const { ctx, a } = await library(f, { AI_CHAT_MODEL: "fake-chat" });
    f.queue("/v1/chat/completions", reply);
    const r = await ask(ctx, a.key, "How often should I feed a sourdough starter?");
    expect(r.status).toBe(status);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body.code).toBe(code);
    expect(await used(ctx, a.key)).toBe(0);
  });

  test("a model server that never answers is a 503 after the timeout, nothing charged", async () => {
    const f = fake();
    const { ctx, a } = await library(f, { AI_CHAT_MODEL: "fake-chat", AI_TIMEOUT_MS: "150" });
    f.queue("/v1/chat/completions", { hang: true });
    const r = await ask(ctx, a.key, "How often should I feed a sourdough starter?");
    expect(r.status).toBe(503);
    expect(r.body.code).toBe("service_unavailable");
    expect(await used(ctx, a.key)).toBe(0);
  });

  test("an empty answer counts as nothing found and is not charged", async () => {
    const f = fake({ chatReply: "   " });
    const { ctx, a } = await library(f, { AI_CHAT_MODEL: "fake-chat" });
    const r = await ask(ctx, a.key, "How often should I feed a sourdough starter?");
    expect(r.body).toMatchObject({ citations: [], credits_used: 0 });
    expect(await used(ctx, a.key)).toBe(0);
  });

  test("the model is not called when nothing relevant was retrieved", async () => {
    const f = fake();
    const { ctx, a } = await library(f, { AI_CHAT_MODEL: "fake-chat" });
    const r = await ask(ctx, a.key, "What is the capital of Mongolia?");
    expect(r.body).toMatchObject({ citations: [], credits_used: 0 });
    expect(f.requests.some((q) => q.path === "/v1/chat/completions")).toBe(false);
  });
});

describe("changing the embedder", () => {
  test("re-embeds in the background; search keeps using the old model until the switch", async () => {
    const dir = mkdtempSync(join(tmpdir(), "commonplace-reembed-"));
    dirs.push(dir);
    const reopen = reopenable(join(dir, "db.sqlite"));
    const open = (env: Record<string, string> = {}) => {
      const db = reopen();
      const services = createServices({ config: testConfig(env), db, logger: silentLogger });
      return { db, services, app: createApp(services), runner: services.runner };
    };

    const first = open();
    const a = await userWithKey(first as unknown as TestContext);
    const bread = await saveNote(first as unknown as TestContext, a.key, TEXTS.bread, { title: "Bread" });
    await saveNote(first as unknown as TestContext, a.key, TEXTS.tides, { title: "Tide pools" });
    await first.runner.drain();
    expect(await first.services.indexer.ensureCurrent()).toBe(false);
    first.db.close();

    const f = fake({ dimensions: 64 });
    const second = open({ AI_BASE_URL: f.url, AI_EMBEDDING_MODEL: "fake-embed" });
    const ctx = second as unknown as TestContext;
    expect(await second.services.indexer.ensureCurrent()).toBe(true);
    const models = () => sqlRows(ctx.db, "SELECT model, state FROM embedding_models ORDER BY slot");
    expect(await models()).toEqual([{ model: "builtin-hash-v1", state: "active" }]);
    // Before the job runs, vector search still answers, with the builtin model's vectors.
    const before = await search(ctx, a.key, { query: "sourdough starter flour", mode: "vector" });
    expect(before.status).toBe(200);
    expect(before.body.data[0].id).toBe(bread);
    expect(f.requests.filter((r) => r.path === "/v1/embeddings")).toHaveLength(0);

    await second.runner.drain();
    expect(await models()).toEqual([
      { model: "builtin-hash-v1", state: "retired" },
      { model: "fake-embed", state: "active" },
    ]);
    const dims = await sqlRows(ctx.db, "SELECT DISTINCT dimensions d FROM chunk_vectors");
    expect(dims).toEqual([{ d: 64 }]);
    const after = await search(ctx, a.key, { query: "sourdough starter flour", mode: "vector" });
    expect(after.body.data[0].id).toBe(bread);
    // The query itself was embedded by the new model.
    expect(f.requests.filter((r) => r.path === "/v1/embeddings").at(-1)!.body).toMatchObject({
      input: ["sourdough starter flour"],
    });
    expect(await second.services.indexer.ensureCurrent()).toBe(false);
    second.db.close();
  });
});

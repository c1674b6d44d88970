// POST /api/v1/search/ask end to end with the builtin extractive model: citations, scoping, credits.
import { sqlRow } from "../../db/inspect.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { NOTHING_FOUND } from "./ask.ts";
import {
  chunkOwner,
  chunkText,
  longLighthouse,
  saveNote,
  saveSource,
  startMarkdownSite,
  TEXTS,
} from "./library.fixture.ts";

const site = startMarkdownSite();
afterAll(() => site.stop());
let page = 0;
const path = (name: string) => `/${name}-${++page}`;

async function library(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  const a = await userWithKey(ctx);
  const ids = {
    bread: await saveSource(ctx, a.key, site, path("bread"), TEXTS.bread),
    lighthouse: await saveSource(ctx, a.key, site, path("lighthouse"), longLighthouse()),
    tides: await saveNote(ctx, a.key, TEXTS.tides, { title: "Tide pools" }),
  };
  await ctx.runner.drain();
  return { ctx, a, ids };
}

const ask = (ctx: TestContext, key: string, body: unknown, headers?: Record<string, string>) =>
  call(ctx, "POST", "/api/v1/search/ask", { key, body, headers });
const used = async (ctx: TestContext, key: string) =>
  (await call(ctx, "GET", "/api/v1/account", { key })).body.credits.used as number;
const ledgerRows = async (ctx: TestContext) =>
  (await sqlRow<{ n: number }>(ctx.db, "SELECT count(*) n FROM credit_ledger"))!.n;

describe("ask", () => {
  test("answers from the library with verified, verbatim citations and charges once", async () => {
    const { ctx, a, ids } = await library();
    const r = await ask(ctx, a.key, { question: "How long should the sourdough starter take to double?" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      model: "builtin-extractive",
      extractive: true,
      credits_used: 1,
      credits_remaining: 499,
    });
    expect(r.body.citations.length).toBeGreaterThan(0);
    expect(r.body.answer).toContain("doubles within six hours");
    // Every marker in the answer has its citation and every citation is used, numbered 1..n.
    const markers = [...new Set([...r.body.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))];
    expect(markers.sort()).toEqual(r.body.citations.map((c: { n: number }) => c.n));
    expect(r.body.citations.map((c: { n: number }) => c.n)).toEqual(
      r.body.citations.map((_: unknown, i: number) => i + 1),
    );
    for (const c of r.body.citations) {
      expect(await chunkText(ctx, c.chunk_id)).toContain(c.quote);
      expect((await chunkOwner(ctx, c.chunk_id))!.docId).toBe(c.id);
    }
    const bread = r.body.citations.find((c: { id: string }) => c.id === ids.bread);
    expect(bread).toMatchObject({ type: "source", title: "Baking sourdough bread" });
    expect(bread.url).toStartWith("http://127.0.0.1:");
    expect(await used(ctx, a.key)).toBe(1);
  });

  test("a note is cited with its title and no url", async () => {
    const { ctx, a, ids } = await library();
    const r = await ask(ctx, a.key, { question: "How do sea stars grip the rock in tide pools?" });
    const note = r.body.citations.find((c: { id: string }) => c.id === ids.tides);
    expect(note).toMatchObject({ type: "note", title: "Tide pools", url: null });
  });

  test("when nothing relevant is found it says so, cites nothing and charges nothing", async () => {
    const { ctx, a } = await library();
    for (const question of ["What is the capital of Mongolia?", "Why?", "!!!"]) {
      const r = await ask(ctx, a.key, { question });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ answer: NOTHING_FOUND, citations: [], credits_used: 0, credits_remaining: 500 });
    }
    expect(await used(ctx, a.key)).toBe(0);
  });

  test("an empty library answers that nothing was found", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const r = await ask(ctx, a.key, { question: "How do I bake bread?" });
    expect(r.body).toMatchObject({ answer: NOTHING_FOUND, citations: [], credits_used: 0 });
  });

  test("source_ids limits retrieval to those sources, even when others match better", async () => {
    const { ctx, a, ids } = await library();
    const r = await ask(ctx, a.key, {
      question: "What do the keeper and the bread have in common at dusk?",
      source_ids: [ids.lighthouse],
    });
    expect(r.status).toBe(200);
    expect(r.body.citations.length).toBeGreaterThan(0);
    for (const c of r.body.citations) expect(c.id).toBe(ids.lighthouse);
  });

  test("asked about one source, the answer opens on that source's answering sentence and cites only it", async () => {
    const { ctx, a, ids } = await library();
    const r = await ask(ctx, a.key, {
      question: "What did the keeper record in a ledger?",
      source_ids: [ids.lighthouse],
    });
    expect(r.status).toBe(200);
    expect(r.body.answer).toStartWith("Ships passing the headland relied on the lighthouse beam");
    expect(r.body.answer).toContain("logged every vessel in a ledger");
    expect(r.body.citations.length).toBeGreaterThan(0);
    for (const c of r.body.citations) expect(c.id).toBe(ids.lighthouse);
  });

  test("notebook_id limits retrieval to the notebook", async () => {
    const { ctx, a, ids } = await library();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Sea" } })).body;
    await call(ctx, "PUT", `/api/v1/notebooks/${nb.id}/sources/${ids.lighthouse}`, { key: a.key });
    const r = await ask(ctx, a.key, {
      question: "How should the sourdough starter be fed, and what did the keeper log?",
      notebook_id: nb.id,
    });
    for (const c of r.body.citations) expect(c.id).toBe(ids.lighthouse);
  });

  test("another user's notebook is 404 and another user's source is 422; nothing is charged", async () => {
    const { ctx, a } = await library();
    const b = await userWithKey(ctx);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "B" } })).body;
    const src = await saveSource(ctx, b.key, site, path("b-bread"), TEXTS.bread);
    expect((await ask(ctx, a.key, { question: "bread?", notebook_id: nb.id })).status).toBe(404);
    const r = await ask(ctx, a.key, { question: "bread?", source_ids: [src] });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe("source_ids[0]");
    expect(await used(ctx, a.key)).toBe(0);
  });

  test("another user's documents are never cited", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const mine = await saveNote(
      ctx,
      a.key,
      "My loaf needs a sourdough starter that I feed every morning with rye flour.",
    );
    await saveSource(ctx, b.key, site, path("b-bread"), TEXTS.bread);
    await saveNote(ctx, b.key, TEXTS.bread, { title: "Sourdough starter feeding" });
    await ctx.runner.drain();
    const r = await ask(ctx, a.key, {
      question: "How often do I feed the sourdough starter, and how long until it doubles?",
    });
    expect(r.body.citations.length).toBeGreaterThan(0);
    for (const c of r.body.citations) {
      expect(c.id).toBe(mine);
      expect((await chunkOwner(ctx, c.chunk_id))!.userId).toBe(a.userId);
    }
    expect(r.body.answer).not.toContain("six hours");
  });

  test.each([
    [{}, "question"],
    [{ question: "" }, "question"],
    [{ question: "x", source_ids: [] }, "source_ids"],
    [{ question: "x", source_ids: ["nope"] }, "source_ids[0]"],
    [{ question: "x", notebook_id: "nb_x" }, "notebook_id"],
  ])("%j is 422 naming %s", async (body, field) => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const r = await ask(ctx, a.key, body);
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe(field);
  });
});

describe("ask credits", () => {
  test("ASK_CREDIT_COST is charged per answer, exactly once per request", async () => {
    const { ctx, a } = await library({ ASK_CREDIT_COST: "3" });
    const q = { question: "At what temperature is the sourdough loaf baked?" };
    const first = await ask(ctx, a.key, q);
    expect(first.body).toMatchObject({ credits_used: 3, credits_remaining: 497 });
    const second = await ask(ctx, a.key, q);
    expect(second.body).toMatchObject({ credits_used: 3, credits_remaining: 494 });
    expect(await used(ctx, a.key)).toBe(6);
    // A replayed request (same Idempotency-Key) returns the first answer without charging again.
    const headers = { "idempotency-key": "ask-once" };
    const r1 = await ask(ctx, a.key, q, headers);
    const r2 = await ask(ctx, a.key, q, headers);
    expect(r2.status).toBe(200);
    expect(r2.body).toEqual(r1.body);
    expect(await used(ctx, a.key)).toBe(9);
  });

  test("a short balance is 402 problem+json and nothing is charged", async () => {
    const { ctx, a } = await library({ ASK_CREDIT_COST: "3", DEFAULT_MONTHLY_CREDITS: "5" });
    const q = { question: "At what temperature is the sourdough loaf baked?" };
    expect((await ask(ctx, a.key, q)).body.credits_remaining).toBe(2);
    const rows = await ledgerRows(ctx);
    const r = await ask(ctx, a.key, q);
    expect(r.status).toBe(402);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toMatchObject({
      type: "/api/problems/insufficient_credit",
      title: "Insufficient credit",
      status: 402,
      code: "insufficient_credit",
    });
    expect(r.body.detail).toContain("3 credits");
    expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
    expect(await ledgerRows(ctx)).toBe(rows);
    expect(await used(ctx, a.key)).toBe(3);
  });

  test("a cost of 0 answers without writing to the ledger", async () => {
    const { ctx, a } = await library({ ASK_CREDIT_COST: "0", DEFAULT_MONTHLY_CREDITS: "0" });
    const r = await ask(ctx, a.key, { question: "At what temperature is the sourdough loaf baked?" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ credits_used: 0, credits_remaining: 0 });
    expect(r.body.citations.length).toBeGreaterThan(0);
    expect(await ledgerRows(ctx)).toBe(0);
  });
});

// Webhook tokens and the incoming endpoint: URL shown once, regeneration, errors, limits, dedupe, commit before 202.
import { describe, expect, test } from "bun:test";
import { sqlRow } from "../../db/inspect.ts";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { createWorkflow, getRun, hookPath, webhookWorkflow } from "../workflows/testing.ts";

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  return { ctx, a: await userWithKey(ctx), b: await userWithKey(ctx) };
}

const noop = [{ id: "c", type: "condition", if: { any: [{ left: "{{ n }}", op: "exists" }] } }];

describe("/api/v1/webhook-tokens", () => {
  test("create shows the URL once; list and get never do", async () => {
    const { ctx, a } = await setup();
    const c = await call(ctx, "POST", "/api/v1/webhook-tokens", { key: a.key });
    expect(c.status).toBe(201);
    expect(c.body.id).toMatch(/^whk_/);
    expect(c.body.url).toMatch(/^http:\/\/localhost:3000\/api\/webhooks\/workflows\/cpw_[A-Za-z0-9_-]{43}$/);
    expect(c.body.hint).toBe(`cpw_…${c.body.url.slice(-4)}`);
    const got = await call(ctx, "GET", `/api/v1/webhook-tokens/${c.body.id}`, { key: a.key });
    expect(got.body).toEqual({
      id: c.body.id,
      hint: c.body.hint,
      workflow_ids: [],
      created_at: c.body.created_at,
      regenerated_at: null,
    });
    const list = await call(ctx, "GET", "/api/v1/webhook-tokens", { key: a.key });
    expect(list.text).not.toContain(c.body.url.split("/").pop());
    const stored = (await sqlRow<{ token_hash: string }>(ctx.db, "SELECT token_hash FROM webhook_tokens"))!;
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("regenerate: a new URL works, the old one is 404 at once", async () => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, noop);
    expect((await call(ctx, "POST", wf.path, { body: { n: 1 } })).status).toBe(202);
    const r = await call(ctx, "POST", `/api/v1/webhook-tokens/${wf.trigger.token_id}/regenerate`, { key: a.key });
    expect(r.status).toBe(200);
    expect(r.body.regenerated_at).toBeString();
    const old = await call(ctx, "POST", wf.path, { body: { n: 1 } });
    expect(old.status).toBe(404);
    expect(old.headers.get("content-type")).toContain("application/problem+json");
    const fresh = await call(ctx, "POST", hookPath(r.body.url), { body: { n: 1 } });
    expect(fresh.status).toBe(202);
    expect(fresh.body.runs).toHaveLength(1);
  });
});

describe("POST /api/webhooks/workflows/{token}", () => {
  test("202 after the delivery, one run per active workflow of the token and their jobs are committed", async () => {
    const { ctx, a } = await setup();
    const one = await webhookWorkflow(ctx, a.key, noop);
    const two = await createWorkflow(ctx, a.key, {
      trigger: { type: "webhook", token_id: one.trigger.token_id },
      actions: noop,
    });
    const off = await createWorkflow(ctx, a.key, {
      active: false,
      trigger: { type: "webhook", token_id: one.trigger.token_id },
      actions: noop,
    });
    const r = await call(ctx, "POST", one.path, { body: { n: 7, nested: { x: [1] } } });
    expect(r.status).toBe(202);
    expect(r.body.delivery_id).toMatch(/^dlv_/);
    expect(r.body.runs).toHaveLength(2);
    const counts = (await sqlRow<{ n: number }>(ctx.db, "SELECT count(*) AS n FROM webhook_deliveries"))!;
    expect(counts.n).toBe(1);
    expect((await ctx.queue.counts("workflow.runs")).queued).toBe(1);
    const runs = await Promise.all(r.body.runs.map((id: string) => getRun(ctx, a.key, id)));
    expect(runs.map((x) => x.status)).toEqual(["queued", "queued"]);
    expect(runs[0]!.trigger).toEqual({
      type: "webhook",
      delivery_id: r.body.delivery_id,
      data: { n: 7, nested: { x: [1] } },
    });
    const byWorkflow = await call(ctx, "GET", `/api/v1/workflows/${two.id}/runs`, { key: a.key });
    expect(byWorkflow.body.data).toHaveLength(1);
    expect((await call(ctx, "GET", `/api/v1/workflows/${off.id}/runs`, { key: a.key })).body.data).toEqual([]);
    await ctx.runner.drain();
    expect((await getRun(ctx, a.key, r.body.runs[0])).status).toBe("succeeded");
  });

  test("webhook-id or Idempotency-Key repeats get the same 202 and start nothing", async () => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, noop);
    const first = await call(ctx, "POST", wf.path, { body: { n: 1 }, headers: { "webhook-id": "msg_1" } });
    const again = await call(ctx, "POST", wf.path, { body: { n: 1 }, headers: { "webhook-id": "msg_1" } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const other = await call(ctx, "POST", wf.path, { body: { n: 1 }, headers: { "idempotency-key": "k-2" } });
    const otherAgain = await call(ctx, "POST", wf.path, { body: { n: 1 }, headers: { "idempotency-key": "k-2" } });
    expect(otherAgain.body).toEqual(other.body);
    expect(other.body.delivery_id).not.toBe(first.body.delivery_id);
    expect((await ctx.queue.counts("workflow.runs")).queued).toBe(2);
  });

  test("a repeat after 24 hours is a new delivery", async () => {
    let now = Date.UTC(2030, 0, 1);
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const a = await userWithKey(ctx);
    const wf = await webhookWorkflow(ctx, a.key, noop);
    const first = await call(ctx, "POST", wf.path, { body: {}, headers: { "webhook-id": "m" } });
    now += 24 * 3600 * 1000 + 1;
    const later = await call(ctx, "POST", wf.path, { body: {}, headers: { "webhook-id": "m" } });
    expect(later.body.delivery_id).not.toBe(first.body.delivery_id);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
  });

  test.each([
    ["text/plain", '{"a":1}', 415, "unsupported_media_type"],
    ["", '{"a":1}', 415, "unsupported_media_type"],
    ["application/json", "{not json", 400, "malformed_json"],
    ["application/json", "[1,2]", 422, "validation_failed"],
    ["application/json", '"text"', 422, "validation_failed"],
    ["application/json", "null", 422, "validation_failed"],
    ["application/json; charset=utf-8", "", 400, "malformed_json"],
  ])("content-type %j body %j → %i", async (type, raw, status, code) => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, noop);
    const r = await call(ctx, "POST", wf.path, { rawBody: raw, headers: type ? { "content-type": type } : {} });
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
    expect((await ctx.queue.counts("workflow.runs")).queued + (await ctx.queue.counts("workflow.step")).queued).toBe(0);
  });

  test("a body nested deeper than MAX_JSON_DEPTH is a 422 problem and starts nothing; realistic nesting is accepted", async () => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, noop);
    const deep = `{"n":${"[".repeat(50_000)}${"]".repeat(50_000)}}`;
    const r = await call(ctx, "POST", wf.path, { rawBody: deep, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "body", message: "nests arrays and objects more than 64 levels deep" }],
    });
    expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
    expect((await ctx.queue.counts("workflow.runs")).queued).toBe(0);
    // A document-style payload (nested lists in a rich-text body) is far shallower than the limit.
    let node: unknown = { type: "text", text: "leaf" };
    for (let i = 0; i < 12; i++) node = { type: "bulletList", content: [{ type: "listItem", content: [node] }] };
    const ok = await call(ctx, "POST", wf.path, { body: { n: 1, doc: node } });
    expect(ok.status).toBe(202);
  });

  test("over the size limit → 413, by Content-Length or while reading a chunked body", async () => {
    const { ctx, a } = await setup({ WEBHOOK_MAX_BYTES: "2048" });
    const wf = await webhookWorkflow(ctx, a.key, noop);
    const big = JSON.stringify({ pad: "x".repeat(3000) });
    expect(
      (await call(ctx, "POST", wf.path, { rawBody: big, headers: { "content-type": "application/json" } })).status,
    ).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const res = await ctx.app.handle(
      new Request(`http://localhost${wf.path}`, {
        method: "POST",
        body: stream,
        headers: { "content-type": "application/json" },
      }),
    );
    expect(res.status).toBe(413);
    expect((await call(ctx, "POST", wf.path, { body: { small: true } })).status).toBe(202);
  });

  test("per-token rate limit → 429 with Retry-After; another token is not affected", async () => {
    const { ctx, a } = await setup({ WEBHOOK_RATE_LIMIT_PER_MINUTE: "2" });
    const wf = await webhookWorkflow(ctx, a.key, noop);
    const other = await webhookWorkflow(ctx, a.key, noop);
    expect((await call(ctx, "POST", wf.path, { body: {} })).headers.get("ratelimit")).toContain('"webhook";r=1');
    await call(ctx, "POST", wf.path, { body: {} });
    const limited = await call(ctx, "POST", wf.path, { body: {} });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(ctx, "POST", other.path, { body: {} })).status).toBe(202);
  });

  test("unknown, malformed and deleted tokens are 404; a token without active workflows accepts and runs nothing", async () => {
    const { ctx, a } = await setup();
    expect((await call(ctx, "POST", "/api/webhooks/workflows/nope", { body: {} })).status).toBe(404);
    expect((await call(ctx, "POST", `/api/webhooks/workflows/cpw_${"A".repeat(43)}`, { body: {} })).status).toBe(404);
    const t = await call(ctx, "POST", "/api/v1/webhook-tokens", { key: a.key });
    const idle = await call(ctx, "POST", hookPath(t.body.url), { body: {} });
    expect(idle.status).toBe(202);
    expect(idle.body.runs).toEqual([]);
    await call(ctx, "DELETE", `/api/v1/webhook-tokens/${t.body.id}`, { key: a.key });
    expect((await call(ctx, "POST", hookPath(t.body.url), { body: {} })).status).toBe(404);
  });
});

// Cross-cutting HTTP behaviour: problem+json everywhere, request ids, auth failures, rate limits, idempotency.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../test/helpers.ts";
import { sqlRow, sqlRows } from "../db/inspect.ts";

const PROBLEM_KEYS = ["type", "title", "status", "detail", "code", "request_id"];

function expectProblem(r: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  for (const k of PROBLEM_KEYS) expect(r.body).toHaveProperty(k);
  expect(r.body.code).toBe(code);
  expect(r.body.status).toBe(status);
  expect(r.body.type).toBe(`/api/problems/${code}`);
  expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
}

describe("authentication", () => {
  test("missing, malformed, bad-checksum, unknown and revoked keys are 401 with WWW-Authenticate", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const good = u.key;
    const flipped = good.slice(0, 10) + (good[10] === "a" ? "b" : "a") + good.slice(11);
    const unknown = (await userWithKey(createTestContext())).key; // valid format, other database
    const revoked = await ctx.services.keys.create(u.userId, "soon revoked");
    await ctx.services.keys.revoke(null, revoked.row.id);

    const none = await call(ctx, "GET", "/api/v1/me");
    expectProblem(none, 401, "unauthorized");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="commonplace"');

    for (const [key, detail] of [
      ["cpk_short", /malformed/],
      [flipped, /checksum/],
      [unknown, /unknown or revoked/],
      [revoked.key, /unknown or revoked/],
      ["some-other-token", /not a valid/],
    ] as const) {
      const r = await call(ctx, "GET", "/api/v1/me", { key });
      expectProblem(r, 401, "unauthorized");
      expect(r.body.detail).toMatch(detail);
      expect(r.headers.get("www-authenticate")).toBe('Bearer realm="commonplace", error="invalid_token"');
    }
    const basic = await call(ctx, "GET", "/api/v1/me", { headers: { authorization: "Basic abc" } });
    expectProblem(basic, 401, "unauthorized");
  });

  test("a key revoked while cached is refused on the very next request", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    expect((await call(ctx, "GET", "/api/v1/me", { key: u.key })).status).toBe(200);
    const del = await call(ctx, "DELETE", `/api/v1/keys/${u.keyId}`, { key: u.key });
    expect(del.status).toBe(200);
    expect(del.body.revoked_at).toBeString();
    expectProblem(await call(ctx, "GET", "/api/v1/me", { key: u.key }), 401, "unauthorized");
  });

  test("a key revoked through another connection (the CLI) is refused at once", async () => {
    const { openDatabase } = await import("../db/client.ts");
    const { createServices } = await import("../services.ts");
    const { createApp } = await import("../app.ts");
    const { testConfig } = await import("../config.ts");
    const { silentLogger } = await import("../log.ts");
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const file = `${mkdtempSync(`${tmpdir()}/cp-`)}/db.sqlite`;
    const config = testConfig();
    const server = createServices({ config, db: openDatabase(file), logger: silentLogger });
    const cli = createServices({ config, db: openDatabase(file), logger: silentLogger });
    const app = createApp(server);
    const user = await cli.accounts.createUser({ email: "a@example.com", password: "password123" });
    const { key, row } = await cli.keys.create(user.id, "k");
    expect((await call({ app }, "GET", "/api/v1/me", { key })).status).toBe(200);
    await cli.keys.revoke(null, row.id);
    // Another connection's commit is seen by requests that start 1 ms or more after it (the change
    // watch reads PRAGMA data_version at most once per ms); a real CLI takes far longer to exit.
    await Bun.sleep(2);
    expect((await call({ app }, "GET", "/api/v1/me", { key })).status).toBe(401);
  }, 60_000);

  test("last_used_at is written at most once a minute", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const u = await userWithKey(ctx);
    const lastUsed = async () =>
      (await sqlRow<{ t: string | null }>(ctx.db, "SELECT last_used_at t FROM api_keys WHERE id = ?", u.keyId))!.t;
    await call(ctx, "GET", "/api/v1/me", { key: u.key });
    const first = await lastUsed();
    expect(first).toBe("2026-01-01T00:00:00.000Z");
    now += 30_000;
    await call(ctx, "GET", "/api/v1/me", { key: u.key });
    expect(await lastUsed()).toBe(first);
    now += 31_000;
    await call(ctx, "GET", "/api/v1/me", { key: u.key });
    expect(await lastUsed()).toBe("2026-01-01T00:01:01.000Z");
  });
});

describe("problem+json for framework errors", () => {
  test("unknown route 404, wrong method 405 with Allow (outside the web app's pages)", async () => {
    const ctx = createTestContext();
    expectProblem(await call(ctx, "GET", "/api/nope"), 404, "not_found");
    expectProblem(await call(ctx, "GET", "/mcp/nope"), 404, "not_found");
    const r = await call(ctx, "DELETE", "/healthz");
    expectProblem(r, 405, "method_not_allowed");
    expect(r.headers.get("allow")).toContain("GET");
  });

  test("malformed JSON 400, wrong content type 415, too large 413, validation 422 with paths", async () => {
    const ctx = createTestContext({ MAX_BODY_BYTES: "2048" });
    const u = await userWithKey(ctx);
    expectProblem(
      await call(ctx, "POST", "/api/v1/keys", {
        key: u.key,
        rawBody: "{nope",
        headers: { "content-type": "application/json" },
      }),
      400,
      "malformed_json",
    );
    expectProblem(
      await call(ctx, "POST", "/api/v1/keys", {
        key: u.key,
        rawBody: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
      "unsupported_media_type",
    );
    expectProblem(
      await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: "x".repeat(5000) } }),
      413,
      "payload_too_large",
    );
    const v = await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: 42 } });
    expectProblem(v, 422, "validation_failed");
    expect(v.body.errors[0].path).toBe("name");
    const q = await call(ctx, "GET", "/api/v1/keys?limit=500", { key: u.key });
    expectProblem(q, 422, "validation_failed");
    expect(q.body.errors[0].path).toBe("query.limit");
    const c = await call(ctx, "GET", "/api/v1/keys?cursor=garbage", { key: u.key });
    expectProblem(c, 422, "validation_failed");
  });

  test("request ids are generated or echoed", async () => {
    const ctx = createTestContext();
    const a = await call(ctx, "GET", "/healthz");
    expect(a.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const b = await call(ctx, "GET", "/healthz", { headers: { "x-request-id": "my-trace-123" } });
    expect(b.headers.get("x-request-id")).toBe("my-trace-123");
  });
});

describe("rate limiting", () => {
  test("RateLimit headers on every response and 429 with Retry-After when exhausted", async () => {
    const ctx = createTestContext({ RATE_LIMIT_PER_MINUTE: "3" });
    const u = await userWithKey(ctx);
    const other = await userWithKey(ctx);
    for (let i = 0; i < 3; i++) {
      const r = await call(ctx, "GET", "/api/v1/me", { key: u.key });
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
      expect(r.headers.get("ratelimit")).toMatch(new RegExp(`^"default";r=${2 - i};t=\\d+$`));
    }
    const limited = await call(ctx, "GET", "/api/v1/me", { key: u.key });
    expectProblem(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit")).toMatch(/r=0/);
    // Buckets are per user.
    expect((await call(ctx, "GET", "/api/v1/me", { key: other.key })).status).toBe(200);
  });
});

describe("idempotency", () => {
  test("a replay returns the first response; a different body with the same key is 422", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const headers = { "idempotency-key": "create-nb-1" };
    const first = await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name: "ci" }, headers });
    expect(first.status).toBe(201);
    const again = await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name: "ci" }, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const list = await call(ctx, "GET", "/api/v1/notebooks", { key: u.key });
    expect(list.body.data.filter((k: any) => k.name === "ci")).toHaveLength(1);
    expectProblem(
      await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name: "other" }, headers }),
      422,
      "idempotency_mismatch",
    );
  });

  test("a response showing a secret once is not stored: the replay is a 409 and creates nothing", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const headers = { "idempotency-key": "create-key-1" };
    const first = await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: "ci" }, headers });
    expect(first.status).toBe(201);
    const stored = JSON.stringify(await sqlRows(ctx.db, "SELECT * FROM idempotency_keys"));
    expect(stored).not.toContain(first.body.key);
    const again = await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: "ci" }, headers });
    expectProblem(again, 409, "conflict");
    expect(again.body.detail).toContain("shown only once");
    const keys = await call(ctx, "GET", "/api/v1/keys", { key: u.key });
    expect(keys.body.data.filter((k: any) => k.name === "ci")).toHaveLength(1);
    const token = await call(ctx, "POST", "/api/v1/webhook-tokens", {
      key: u.key,
      body: {},
      headers: { "idempotency-key": "tok-1" },
    });
    expect(token.status).toBe(201);
    expect(JSON.stringify(await sqlRows(ctx.db, "SELECT * FROM idempotency_keys"))).not.toContain(token.body.url);
  });

  test("a workflow is unstored only when its response shows a new webhook URL", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const actions = [{ id: "n", type: "create_notebook", name: "NB" }];
    const post = (key: string, trigger: unknown) =>
      call(ctx, "POST", "/api/v1/workflows", {
        key: u.key,
        body: { name: "w", trigger, actions },
        headers: { "idempotency-key": key },
      });
    const hook = await post("wf-hook", { type: "webhook" });
    expect(hook.body.webhook_url).toContain("/api/webhooks/workflows/");
    expect(JSON.stringify(await sqlRows(ctx.db, "SELECT * FROM idempotency_keys"))).not.toContain(
      hook.body.webhook_url,
    );
    expectProblem(await post("wf-hook", { type: "webhook" }), 409, "conflict");
    const event = await post("wf-event", { type: "event", event: "source.created" });
    expect(event.status).toBe(201);
    const replay = await post("wf-event", { type: "event", event: "source.created" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(event.body);
  });

  test("a failed request is not recorded, so it can be retried with the same key", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const headers = { "idempotency-key": "k2" };
    const bad = await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: "" }, headers });
    expect(bad.status).toBe(422);
    const ok = await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: "" + "fine" }, headers });
    expect(ok.status).toBe(201);
  });

  test("a concurrent duplicate while the first is in progress is 409", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    await sqlRows(
      ctx.db,
      "INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, created_at) VALUES (?, 'busy', 'POST', '/api/v1/keys', ?, 'in_progress', ?)",
      u.userId,
      new Bun.CryptoHasher("sha256").update(`POST /api/v1/keys\n${JSON.stringify({ name: "x" })}`).digest("hex"),
      new Date().toISOString(),
    );
    expectProblem(
      await call(ctx, "POST", "/api/v1/keys", {
        key: u.key,
        body: { name: "x" },
        headers: { "idempotency-key": "busy" },
      }),
      409,
      "idempotency_in_progress",
    );
  });

  test("keys are scoped per user", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const headers = { "idempotency-key": "shared" };
    const ra = await call(ctx, "POST", "/api/v1/keys", { key: a.key, body: { name: "x" }, headers });
    const rb = await call(ctx, "POST", "/api/v1/keys", { key: b.key, body: { name: "x" }, headers });
    expect(ra.body.id).not.toBe(rb.body.id);
  });
});

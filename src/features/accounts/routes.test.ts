// GET /api/v1/me and /api/v1/account, and the keys API that scripts use.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";

describe("GET /api/v1/me", () => {
  test("returns the caller and the key it used", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx, "ada@example.com");
    const r = await call(ctx, "GET", "/api/v1/me", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: u.userId,
      email: "ada@example.com",
      name: "ada",
      created_at: expect.any(String),
      auth: { type: "api_key", key_id: u.keyId, key_name: "test key" },
    });
    expect(r.body).not.toHaveProperty("password_hash");
  });
});

describe("GET /api/v1/account", () => {
  test("shows the plan and this period's credits", async () => {
    const ctx = createTestContext({ DEFAULT_MONTHLY_CREDITS: "42" });
    const u = await userWithKey(ctx);
    await ctx.services.credits.spend(u.userId, 5, "test");
    const r = await call(ctx, "GET", "/api/v1/account", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body.plan).toEqual({ id: "free", name: "Free", monthly_credits: 42 });
    expect(r.body.credits).toMatchObject({ allowance: 42, used: 5, remaining: 37 });
    expect(Date.parse(r.body.credits.period_end)).toBeGreaterThan(Date.parse(r.body.credits.period_start));
  });

  test("a plan set by the admin changes the allowance", async () => {
    const ctx = createTestContext({ PLANS: JSON.stringify([{ id: "pro", name: "Pro", monthly_credits: 1000 }]) });
    const u = await userWithKey(ctx);
    await ctx.services.accounts.setPlan(u.userId, "pro");
    const r = await call(ctx, "GET", "/api/v1/account", { key: u.key });
    expect(r.body.plan).toEqual({ id: "pro", name: "Pro", monthly_credits: 1000 });
    expect(r.body.credits.remaining).toBe(1000);
  });
});

describe("/api/v1/keys", () => {
  test("create returns the value once; list never shows it; other users' keys are 404", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const created = await call(ctx, "POST", "/api/v1/keys", { key: a.key, body: { name: "laptop" } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^cpk_[0-9A-Za-z]{46}$/);
    expect(created.body.hint).toBe(`${created.body.key.slice(0, 8)}…${created.body.key.slice(-4)}`);
    const list = await call(ctx, "GET", "/api/v1/keys", { key: a.key });
    expect(list.body.data.map((k: any) => k.name).sort()).toEqual(["laptop", "test key"]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    const stored = (await sqlRow<{ key_hash: string }>(
      ctx.db,
      "SELECT key_hash FROM api_keys WHERE id = ?",
      created.body.id,
    ))!;
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await sqlRows(ctx.db, "SELECT * FROM api_keys"))).not.toContain(created.body.key);
    expect((await call(ctx, "DELETE", `/api/v1/keys/${created.body.id}`, { key: b.key })).status).toBe(404);
    expect((await call(ctx, "GET", "/api/v1/me", { key: created.body.key })).status).toBe(200);
  });

  test("pagination with cursor and Link header", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    for (let i = 0; i < 4; i++) await ctx.services.keys.create(a.userId, `k${i}`);
    const first = await call(ctx, "GET", "/api/v1/keys?limit=2", { key: a.key });
    expect(first.body.data.map((k: any) => k.name)).toEqual(["k3", "k2"]);
    expect(first.body.next_cursor).toBeString();
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = await call(ctx, "GET", `/api/v1/keys?limit=2&cursor=${first.body.next_cursor}`, { key: a.key });
    expect(second.body.data.map((k: any) => k.name)).toEqual(["k1", "k0"]);
    const third = await call(ctx, "GET", `/api/v1/keys?limit=2&cursor=${second.body.next_cursor}`, { key: a.key });
    expect(third.body.data.map((k: any) => k.name)).toEqual(["test key"]);
    expect(third.body.next_cursor).toBeNull();
    expect(third.headers.get("link")).toBeNull();
  });
});

describe("health", () => {
  test("/healthz and /readyz", async () => {
    const ctx = createTestContext();
    expect((await call(ctx, "GET", "/healthz")).body).toEqual({ status: "ok" });
    expect((await call(ctx, "GET", "/readyz")).body).toEqual({ status: "ok", database: "ok" });
    ctx.db.close();
    const r = await call(ctx, "GET", "/readyz");
    expect(r.status).toBe(503);
  });

  test("OpenAPI document lists the API with the bearer scheme", async () => {
    const ctx = createTestContext();
    const r = await call(ctx, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    expect(r.body.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(r.body.paths)).toContain("/api/v1/me");
    expect(Object.keys(r.body.paths)).toContain("/api/v1/sources");
    const post = r.body.paths["/api/v1/sources"].post;
    expect(post.requestBody.content["application/json"].schema.required).toContain("url");
    expect(post.responses["201"]).toBeDefined();
    for (const status of ["401", "422", "429", "4XX", "5XX"]) {
      expect(post.responses[status].content["application/problem+json"].schema.$ref).toBe(
        "#/components/schemas/Problem",
      );
    }
    expect(r.body.paths["/api/v1/sources/{id}"].get.responses["404"]).toBeDefined();
    expect(r.body.components.schemas.Problem.properties.code.enum).toContain("validation_failed");
    expect(r.body.paths["/api/webhooks/workflows/{token}"].post.security).toEqual([]);
    const docs = await call(ctx, "GET", "/api/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
  });
});

describe("/api/v1/me/preferences", () => {
  test("defaults first; a change keeps the other values and follows the user to every credential", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const first = await call(ctx, "GET", "/api/v1/me/preferences", { key: u.key });
    expect(first.body).toEqual({
      library_view: "cards",
      reader_font: "serif",
      reader_size: 19,
      reader_line_height: 1.6,
      reader_width: "medium",
      reader_theme: "auto",
      auto_tag: false,
    });
    const set = await call(ctx, "PATCH", "/api/v1/me/preferences", {
      key: u.key,
      body: { reader_theme: "sepia", library_view: "list" },
    });
    expect(set.body).toMatchObject({ reader_theme: "sepia", library_view: "list", reader_font: "serif" });
    const other = await call(ctx, "POST", "/api/v1/keys", { key: u.key, body: { name: "phone" } });
    const again = await call(ctx, "GET", "/api/v1/me/preferences", { key: other.body.key });
    expect(again.body).toEqual(set.body);
  });

  test("an unknown name, a value out of range or an empty change is 422 naming the field", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const size = await call(ctx, "PATCH", "/api/v1/me/preferences", { key: u.key, body: { reader_size: 80 } });
    expect(size.status).toBe(422);
    expect(size.body.errors[0].path).toBe("reader_size");
    const theme = await call(ctx, "PATCH", "/api/v1/me/preferences", { key: u.key, body: { reader_theme: "neon" } });
    expect(theme.body.errors[0].path).toBe("reader_theme");
    const unknown = await call(ctx, "PATCH", "/api/v1/me/preferences", { key: u.key, body: { font: "serif" } });
    expect(unknown.status).toBe(422);
    const empty = await call(ctx, "PATCH", "/api/v1/me/preferences", { key: u.key, body: {} });
    expect(empty.status).toBe(422);
  });

  test("a damaged stored value reads as the defaults", async () => {
    const { parsePreferences, DEFAULT_PREFERENCES } = await import("./preferences.ts");
    expect(parsePreferences("not json")).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('{"reader_size": 3, "reader_font": "sans"}')).toEqual({
      ...DEFAULT_PREFERENCES,
      reader_font: "sans",
    });
  });
});

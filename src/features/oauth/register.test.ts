// Discovery documents and RFC 7591 registration through the real app: metadata shapes, accepted and
// refused client metadata, OAuth-format errors and the per-address registration limit.
import { describe, expect, test } from "bun:test";
import { call, createTestContext } from "../../../test/helpers.ts";
import { register, REDIRECT } from "./test-flow.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";

describe("discovery", () => {
  test("authorization-server metadata (RFC 8414) advertises S256 only, both grants and registration", async () => {
    const ctx = createTestContext({ BASE_URL: "https://notes.example.org" });
    const res = await call(ctx, "GET", "/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: "https://notes.example.org",
      authorization_endpoint: "https://notes.example.org/oauth/authorize",
      token_endpoint: "https://notes.example.org/oauth/token",
      registration_endpoint: "https://notes.example.org/oauth/register",
      revocation_endpoint: "https://notes.example.org/oauth/revoke",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
    });
  });

  test("protected-resource metadata (RFC 9728) names /mcp and this server, at the path and the root variant", async () => {
    const ctx = createTestContext({ BASE_URL: "https://notes.example.org" });
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const res = await call(ctx, "GET", path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        resource: "https://notes.example.org/mcp",
        authorization_servers: ["https://notes.example.org"],
        bearer_methods_supported: ["header"],
      });
    }
  });
});

describe("POST /oauth/register", () => {
  test("a public client is registered with the metadata it sent", async () => {
    const ctx = createTestContext();
    const res = await register(ctx, {
      client_name: "Desktop Assistant",
      scope: "mcp offline_access",
      software_id: "x",
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({
      client_name: "Desktop Assistant",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "mcp",
      software_id: "x",
    });
    expect(res.body.client_id).toMatch(/^cli_[0-9A-Z]{26}$/);
    expect(res.body.client_secret).toBeUndefined();
    expect(typeof res.body.client_id_issued_at).toBe("number");
  });

  test("https anywhere and http only on loopback addresses", async () => {
    const ctx = createTestContext();
    for (const uri of [
      "https://app.example.com/cb",
      "http://localhost:3333/cb",
      "http://[::1]:8080/cb",
      "http://127.0.0.1/cb?x=1",
    ]) {
      expect((await register(ctx, { redirect_uris: [uri] })).status).toBe(201);
    }
    for (const uri of [
      "http://app.example.com/cb",
      "myapp://callback",
      "https://app.example.com/cb#frag",
      "https://u:p@app.example.com/cb",
      "/relative",
      "javascript:alert(1)",
    ]) {
      const res = await register(ctx, { redirect_uris: [uri] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_redirect_uri");
    }
  });

  test("refused metadata answers in OAuth's JSON error format, not problem+json", async () => {
    const ctx = createTestContext();
    const cases: [Record<string, unknown>, string][] = [
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: undefined }, "invalid_redirect_uri"],
      [{ token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
      [{ grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      [{ response_types: ["token"] }, "invalid_client_metadata"],
      [{ client_name: "n".repeat(201) }, "invalid_client_metadata"],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, "invalid_redirect_uri"],
    ];
    for (const [body, error] of cases) {
      const res = await register(ctx, body);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.body.error).toBe(error);
      expect(typeof res.body.error_description).toBe("string");
    }
    const broken = await call(ctx, "POST", "/oauth/register", {
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe("invalid_client_metadata");
    // Nesting past MAX_JSON_DEPTH is refused before parsing, in the same OAuth format (RFC 7591 §3.2.2).
    const deep = `{"redirect_uris":["https://a.example/cb"],"software_statement":${"[".repeat(8000)}${"]".repeat(8000)}}`;
    const nested = await call(ctx, "POST", "/oauth/register", {
      rawBody: deep,
      headers: { "content-type": "application/json" },
    });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({
      error: "invalid_client_metadata",
      error_description: "The JSON body nests arrays and objects more than 64 levels deep",
    });
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM oauth_clients")).toEqual({ n: 0 });
  });

  test("a client without a name is shown by its redirect host", async () => {
    const ctx = createTestContext();
    const res = await register(ctx, { client_name: undefined, redirect_uris: ["https://tool.example.net/cb"] });
    expect(res.body.client_name).toBe("tool.example.net");
  });

  test("registrations are limited per address", async () => {
    const ctx = createTestContext();
    for (let i = 0; i < 30; i++) expect((await register(ctx)).status).toBe(201);
    const res = await register(ctx);
    expect(res.status).toBe(429);
    expect(res.body.error).toBe("slow_down");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("clients nobody authorised are swept a week after registration", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const old = (await register(ctx)).body.client_id;
    now += 8 * 24 * 3600_000;
    const fresh = (await register(ctx)).body.client_id;
    const ids = (await sqlRows(ctx.db, "SELECT id FROM oauth_clients")) as { id: string }[];
    expect(ids.map((r) => r.id)).toEqual([fresh]);
    expect(old).not.toBe(fresh);
  });
});

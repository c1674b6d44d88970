// /mcp as an HTTP endpoint: protocol versions, who may call it (OAuth tokens for this resource,
// API keys), the 401 challenge, Origin checks, methods and the rate limit.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { connectedUser } from "../oauth/test-flow.ts";
import { hiddenFields } from "../../../test/browser-client.ts";
import { initialize, rpc } from "./test-client.ts";

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };

describe("/mcp transport", () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    test(`a client on protocol ${version} initializes and lists the tools`, async () => {
      const ctx = createTestContext();
      const { key } = await userWithKey(ctx);
      const init = await rpc(ctx, key, initialize(version));
      expect(init.status).toBe(200);
      expect(init.body.result.protocolVersion).toBe(version);
      expect(init.body.result.capabilities.tools).toBeDefined();
      expect(init.body.result.serverInfo.name).toBe("commonplace");
      expect(init.headers.get("mcp-session-id")).toBeNull();
      const notified = await rpc(
        ctx,
        key,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { "mcp-protocol-version": version },
      );
      expect(notified.status).toBe(202);
      const list = await rpc(ctx, key, listTools, { "mcp-protocol-version": version });
      expect(list.status).toBe(200);
      expect(list.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
        "ask",
        "create_highlight",
        "create_note",
        "get_source",
        "list_highlights",
        "list_notebooks",
        "list_sources",
        "save_source",
        "search",
      ]);
    });
  }

  test("an unknown protocol version header is refused", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    const res = await rpc(ctx, key, listTools, { "mcp-protocol-version": "1999-01-01" });
    expect(res.status).toBe(400);
  });

  test("no token: 401 pointing at the protected-resource metadata", async () => {
    const ctx = createTestContext({ BASE_URL: "https://notes.example.org" });
    const res = await rpc(ctx, undefined, initialize("2025-11-25"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://notes.example.org/.well-known/oauth-protected-resource/mcp", scope="mcp"',
    );
  });

  test("unknown tokens and keys, and a malformed header, are 401 with an RFC 6750 error", async () => {
    const ctx = createTestContext();
    for (const token of ["cpat_unknown", "cpk_notakey", "something-else"]) {
      const res = await rpc(ctx, token, initialize("2025-11-25"));
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
    }
    const basic = await call(ctx, "POST", "/mcp", {
      body: initialize("2025-11-25"),
      headers: { authorization: "Basic eDp5" },
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get("www-authenticate")).toContain('error="invalid_request"');
  });

  test("an OAuth token works; one for another resource, expired or revoked does not", async () => {
    let now = Date.parse("2026-02-01T09:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const u = await connectedUser(ctx);
    expect((await rpc(ctx, u.access, initialize("2025-11-25"))).status).toBe(200);

    await sqlRows(ctx.db, "UPDATE oauth_grants SET resource = 'https://elsewhere.example/mcp'");
    const foreign = await rpc(ctx, u.access, initialize("2025-11-25"));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get("www-authenticate")).toContain("was issued for https://elsewhere.example/mcp");
    await sqlRows(ctx.db, "UPDATE oauth_grants SET resource = ?", `${ctx.config.baseUrl}/mcp`);

    now += 3600_000 + 1;
    const expired = await rpc(ctx, u.access, initialize("2025-11-25"));
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain('error_description="The access token expired"');
  });

  test("an access token for /mcp is not accepted by /api/v1 (audience binding)", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const res = await call(ctx, "GET", "/api/v1/me", { key: u.access });
    expect(res.status).toBe(401);
  });

  test("a client revoked in Settings → Connected apps is refused on its next call", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    expect((await rpc(ctx, u.access, initialize("2025-11-25"))).status).toBe(200);
    const page = await u.b.get("/settings/apps");
    const action = `/settings/apps/${u.clientId}/revoke`;
    await u.b.post(action, hiddenFields(page.text, action));
    const res = await rpc(ctx, u.access, initialize("2025-11-25"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("revoked");
  }, 60_000);

  test("a foreign Origin is refused before anything else; our own is accepted", async () => {
    const ctx = createTestContext({ BASE_URL: "https://notes.example.org" });
    const { key } = await userWithKey(ctx);
    const foreign = await rpc(ctx, key, initialize("2025-11-25"), { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const anonymous = await rpc(ctx, undefined, initialize("2025-11-25"), { origin: "http://localhost:3000" });
    expect(anonymous.status).toBe(403);
    const ours = await rpc(ctx, key, initialize("2025-11-25"), { origin: "https://notes.example.org" });
    expect(ours.status).toBe(200);
  });

  test("GET and DELETE are 405: the server is stateless and opens no stream", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    for (const method of ["GET", "DELETE"]) {
      const res = await call(ctx, method, "/mcp", { key, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  test("calls count against the user's rate limit", async () => {
    const ctx = createTestContext({ RATE_LIMIT_PER_MINUTE: "2" });
    const { key } = await userWithKey(ctx);
    const first = await rpc(ctx, key, initialize("2025-11-25"));
    expect(first.headers.get("ratelimit")).toBe('"default";r=1;t=60');
    expect((await rpc(ctx, key, initialize("2025-11-25"))).status).toBe(200);
    const third = await rpc(ctx, key, initialize("2025-11-25"));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("/mcp bodies", () => {
  test("a body nested past MAX_JSON_DEPTH is a 422 problem; malformed JSON stays a JSON-RPC parse error", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":${"[".repeat(5000)}${"]".repeat(5000)}}}}`;
    const r = await call(ctx, "POST", "/mcp", { key, rawBody: deep, headers });
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "body", message: "nests arrays and objects more than 64 levels deep" }],
    });
    expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
    expect(r.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
    const bad = await call(ctx, "POST", "/mcp", { key, rawBody: "{nope", headers });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(-32700);
  });
});

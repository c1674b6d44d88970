// The token and revocation endpoints through the real app: code redemption rules, refresh rotation
// with family revocation on reuse, hashing at rest and OAuth JSON errors.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, type TestContext } from "../../../test/helpers.ts";
import { signUp, testBrowser } from "../../../test/browser-client.ts";
import { authorizeUrl, connectedUser, consent, pkce, REDIRECT, registeredClient, token } from "./test-flow.ts";
import { sqlRows } from "../../db/inspect.ts";

async function codeFor(ctx: TestContext, clientId?: string) {
  const id = clientId ?? (await registeredClient(ctx));
  const b = testBrowser(ctx);
  await signUp(b, `u${Math.random().toString(36).slice(2, 8)}@example.com`);
  const { verifier, challenge } = pkce();
  const back = await consent(b, authorizeUrl(ctx, { client_id: id, code_challenge: challenge }));
  return { clientId: id, verifier, code: back.searchParams.get("code")! };
}

const resourceOf = (ctx: TestContext) => `${ctx.config.baseUrl}/mcp`;
const exchange = (
  ctx: TestContext,
  c: { clientId: string; verifier: string; code: string },
  extra: Record<string, string | undefined> = {},
) =>
  token(ctx, {
    grant_type: "authorization_code",
    code: c.code,
    redirect_uri: REDIRECT,
    code_verifier: c.verifier,
    client_id: c.clientId,
    resource: resourceOf(ctx),
    ...extra,
  });
const access = (ctx: TestContext, t: string) => ctx.services.oauth.verifyAccess(t, resourceOf(ctx));

describe("POST /oauth/token: authorization_code", () => {
  test("a code becomes a short-lived bearer token and a refresh token, stored only as hashes", async () => {
    const ctx = createTestContext();
    const c = await codeFor(ctx);
    const res = await exchange(ctx, c);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp" });
    expect(res.body.access_token).toMatch(/^cpat_/);
    expect(res.body.refresh_token).toMatch(/^cprt_/);
    const dump = JSON.stringify(await sqlRows(ctx.db, "SELECT * FROM oauth_tokens"));
    expect(dump).not.toContain(res.body.access_token);
    expect(dump).not.toContain(res.body.refresh_token);
    expect((await access(ctx, res.body.access_token)).ok).toBe(true);
  }, 60_000);

  test("a wrong verifier, another redirect URI or another resource is refused", async () => {
    const ctx = createTestContext();
    const c = await codeFor(ctx);
    const wrong = await exchange(ctx, c, { code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: "invalid_grant" });
    expect(wrong.body.error_description).toContain("code_verifier");
    const redirect = await exchange(ctx, c, { redirect_uri: "http://127.0.0.1:8976/callback/" });
    expect(redirect.body.error).toBe("invalid_grant");
    expect(redirect.body.error_description).toContain("redirect_uri");
    const target = await exchange(ctx, c, { resource: "https://elsewhere.example/mcp" });
    expect(target.body.error).toBe("invalid_target");
    // None of the failures used the code up.
    expect((await exchange(ctx, c)).status).toBe(200);
  }, 60_000);

  test("a code used twice fails and revokes what its first use issued", async () => {
    const ctx = createTestContext();
    const c = await codeFor(ctx);
    const first = await exchange(ctx, c);
    expect((await access(ctx, first.body.access_token)).ok).toBe(true);
    const second = await exchange(ctx, c);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
    expect(await access(ctx, first.body.access_token)).toEqual({ ok: false, reason: "The access token was revoked" });
    const refresh = await token(ctx, {
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
      client_id: c.clientId,
    });
    expect(refresh.body.error).toBe("invalid_grant");
  }, 60_000);

  test("a code expires after five minutes", async () => {
    let now = Date.parse("2026-05-01T08:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const c = await codeFor(ctx);
    now += 5 * 60_000 + 1;
    const res = await exchange(ctx, c);
    expect(res.body).toMatchObject({ error: "invalid_grant", error_description: "The authorization code expired" });
  });

  test("another client's code, an unknown client and missing parameters", async () => {
    const ctx = createTestContext();
    const c = await codeFor(ctx);
    const other = await registeredClient(ctx);
    expect((await exchange(ctx, { ...c, clientId: other })).body.error).toBe("invalid_grant");
    const unknown = await exchange(ctx, { ...c, clientId: "cli_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    const missing = await exchange(ctx, c, { code_verifier: undefined });
    expect(missing.body).toMatchObject({ error: "invalid_request", error_description: "code_verifier is required" });
    const twice = await call(ctx, "POST", "/oauth/token", {
      rawBody: `grant_type=authorization_code&client_id=${c.clientId}&code=${c.code}&code=${c.code}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(twice.body.error).toBe("invalid_request");
  });

  test("an unknown grant type and a JSON body are refused in OAuth's format", async () => {
    const ctx = createTestContext();
    const clientId = await registeredClient(ctx);
    const res = await token(ctx, { grant_type: "client_credentials", client_id: clientId });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("unsupported_grant_type");
    const json = await call(ctx, "POST", "/oauth/token", { body: { grant_type: "authorization_code" } });
    expect(json.status).toBe(400);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(json.body.error).toBe("invalid_request");
  });
});

describe("POST /oauth/token: refresh_token", () => {
  test("refreshing rotates both tokens; the old access token keeps its hour", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const res = await token(ctx, {
      grant_type: "refresh_token",
      refresh_token: u.refresh,
      client_id: u.clientId,
      resource: resourceOf(ctx),
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).not.toBe(u.refresh);
    expect(res.body.access_token).not.toBe(u.access);
    expect((await access(ctx, res.body.access_token)).ok).toBe(true);
    expect((await access(ctx, u.access)).ok).toBe(true);
  }, 60_000);

  test("reusing a rotated refresh token revokes the whole family", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const next = await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId });
    const reuse = await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await access(ctx, next.body.access_token)).ok).toBe(false);
    expect((await access(ctx, u.access)).ok).toBe(false);
    const newest = await token(ctx, {
      grant_type: "refresh_token",
      refresh_token: next.body.refresh_token,
      client_id: u.clientId,
    });
    expect(newest.body.error).toBe("invalid_grant");
  });

  test("a refresh token works only for its client and its resource", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const other = await registeredClient(ctx);
    expect(
      (await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: other })).body.error,
    ).toBe("invalid_grant");
    const target = await token(ctx, {
      grant_type: "refresh_token",
      refresh_token: u.refresh,
      client_id: u.clientId,
      resource: "https://x.example/mcp",
    });
    expect(target.body.error).toBe("invalid_target");
    expect(
      (await token(ctx, { grant_type: "refresh_token", refresh_token: u.access, client_id: u.clientId })).body.error,
    ).toBe("invalid_grant");
    expect(
      (await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId })).status,
    ).toBe(200);
  }, 60_000);

  test("a refresh token expires after 30 days", async () => {
    let now = Date.parse("2026-05-01T08:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const u = await connectedUser(ctx);
    now += 30 * 24 * 3600_000 + 1;
    const res = await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId });
    expect(res.body).toMatchObject({ error: "invalid_grant", error_description: "The refresh token expired" });
  });
});

describe("POST /oauth/revoke", () => {
  const revoke = (ctx: TestContext, form: Record<string, string>) =>
    call(ctx, "POST", "/oauth/revoke", {
      rawBody: new URLSearchParams(form).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  test("revoking the refresh token ends the authorization; an access token only itself", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const second = await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId });
    expect((await revoke(ctx, { token: u.access, client_id: u.clientId })).status).toBe(200);
    expect((await access(ctx, u.access)).ok).toBe(false);
    expect((await access(ctx, second.body.access_token)).ok).toBe(true);
    expect(
      (await revoke(ctx, { token: second.body.refresh_token, client_id: u.clientId, token_type_hint: "refresh_token" }))
        .status,
    ).toBe(200);
    expect((await access(ctx, second.body.access_token)).ok).toBe(false);
  }, 60_000);

  test("unknown tokens and other clients' tokens get 200 and change nothing", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const other = await registeredClient(ctx);
    expect((await revoke(ctx, { token: "cpat_nothing", client_id: u.clientId })).status).toBe(200);
    expect((await revoke(ctx, { token: u.refresh, client_id: other })).status).toBe(200);
    expect((await access(ctx, u.access)).ok).toBe(true);
    const unknownClient = await revoke(ctx, { token: u.refresh, client_id: "cli_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX" });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.body.error).toBe("invalid_client");
  }, 60_000);
});

describe("POST /oauth/token: the same code or refresh token twice at once", () => {
  test("two exchanges of one code: one wins, the other is refused, and what the winner got is revoked", async () => {
    const ctx = createTestContext();
    const c = await codeFor(ctx);
    const [a, b] = await Promise.all([exchange(ctx, c), exchange(ctx, c)]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(loser.body.error).toBe("invalid_grant");
    expect((await access(ctx, winner.body.access_token)).ok).toBe(false);
    // The loser's own grant was rolled back: only the winner's exists, and it is revoked.
    const grants = await sqlRows(ctx.db, "SELECT revoked_reason FROM oauth_grants");
    expect(grants).toEqual([{ revoked_reason: "code_reuse" }]);
  }, 60_000);

  test("two refreshes with one token: one wins, the other is refused, and the family is revoked", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const refresh = () => token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId });
    const [a, b] = await Promise.all([refresh(), refresh()]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const winner = a.status === 200 ? a : b;
    expect((await access(ctx, winner.body.access_token)).ok).toBe(false);
    expect((await access(ctx, u.access)).ok).toBe(false);
  }, 60_000);
});

// What a password change and "Sign out everywhere" end: other sessions, OAuth grants with their access and
// refresh tokens, and API keys when the person asks (the box starts ticked).
import { describe, expect, test } from "bun:test";
import { call, type TestContext } from "../../test/helpers.ts";
import { connectedUser, token } from "../features/oauth/test-flow.ts";
import { post } from "./library/test-helpers.ts";
import { testBrowser } from "../../test/browser-client.ts";
import { createTestContext } from "../../test/helpers.ts";
import { sqlRows } from "../db/inspect.ts";

const PASSWORD = "correct horse battery"; // what connectedUser signs up with
const NEW_PASSWORD = "a new long password";

const accessWorks = async (ctx: TestContext, t: string) =>
  (await ctx.services.oauth.verifyAccess(t, `${ctx.config.baseUrl}/mcp`)).ok;
const refresh = (ctx: TestContext, clientId: string, refreshToken: string) =>
  token(ctx, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });
const keyWorks = async (ctx: TestContext, key: string) =>
  (await call(ctx, "GET", "/api/v1/me", { key })).status === 200;

async function connectedWithKey(ctx: TestContext) {
  const u = await connectedUser(ctx);
  const { key } = await ctx.services.keys.create(u.userId, "script");
  expect(await accessWorks(ctx, u.access)).toBe(true);
  expect(await keyWorks(ctx, key)).toBe(true);
  return { ...u, key };
}

describe("changing the password", () => {
  test("the form offers revoking API keys, ticked", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const page = await u.b.get("/settings/account");
    expect(page.text).toContain(
      '<input type="checkbox" name="revoke_keys" value="1" checked> <span>Also revoke my API keys',
    );
  }, 30_000);

  test("with the box ticked: OAuth access and refresh tokens and API keys stop working", async () => {
    const ctx = createTestContext();
    const u = await connectedWithKey(ctx);
    const done = await post(ctx, u.b, "/settings/account/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      revoke_keys: "1",
    });
    expect([done.status, done.location]).toEqual([303, "/settings/account?notice=password_changed_keys"]);
    expect((await u.b.get(done.location!)).text).toContain("your API keys were revoked");
    expect(await accessWorks(ctx, u.access)).toBe(false);
    const r = await refresh(ctx, u.clientId, u.refresh);
    expect([r.status, r.body.error]).toEqual([400, "invalid_grant"]);
    expect(await keyWorks(ctx, u.key)).toBe(false);
    expect(await sqlRows(ctx.db, "SELECT revoked_reason FROM oauth_grants")).toEqual([
      { revoked_reason: "password_changed" },
    ]);
    expect((await u.b.get("/library")).status).toBe(200); // this session stays
  }, 30_000);

  test("with the box unticked: OAuth tokens stop, API keys keep working", async () => {
    const ctx = createTestContext();
    const u = await connectedWithKey(ctx);
    const done = await post(ctx, u.b, "/settings/account/password", {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect([done.status, done.location]).toEqual([303, "/settings/account?notice=password_changed"]);
    expect(await accessWorks(ctx, u.access)).toBe(false);
    expect((await refresh(ctx, u.clientId, u.refresh)).status).toBe(400);
    expect(await keyWorks(ctx, u.key)).toBe(true);
  }, 30_000);

  test("a refused change revokes nothing", async () => {
    const ctx = createTestContext();
    const u = await connectedWithKey(ctx);
    const wrong = await post(ctx, u.b, "/settings/account/password", {
      current_password: "not my password",
      new_password: NEW_PASSWORD,
      revoke_keys: "1",
    });
    expect(wrong.status).toBe(422);
    expect(await accessWorks(ctx, u.access)).toBe(true);
    expect(await keyWorks(ctx, u.key)).toBe(true);
  }, 30_000);
});

describe("sign out everywhere", () => {
  test("ends every session, this one too, and OAuth grants; API keys keep working", async () => {
    const ctx = createTestContext();
    const u = await connectedWithKey(ctx);
    const laptop = testBrowser(ctx);
    expect((await laptop.submit("/signin", "/signin", { email: u.email, password: PASSWORD })).status).toBe(303);
    expect((await laptop.get("/library")).status).toBe(200);
    expect((await u.b.get("/settings/account")).text).toContain('action="/settings/account/sign-out-everywhere"');

    const done = await post(ctx, u.b, "/settings/account/sign-out-everywhere");
    expect([done.status, done.location]).toEqual([303, "/signin?notice=signed_out_everywhere"]);
    expect(done.headers.getSetCookie().some((c) => /^cp_session=;.*Max-Age=0/.test(c))).toBe(true);
    expect((await laptop.get("/library")).location).toBe("/signin?next=%2Flibrary");
    expect(await sqlRows(ctx.db, "SELECT id FROM sessions")).toEqual([]);
    expect(await accessWorks(ctx, u.access)).toBe(false);
    expect((await refresh(ctx, u.clientId, u.refresh)).status).toBe(400);
    expect(await keyWorks(ctx, u.key)).toBe(true);
    // The old password still signs in: nothing but sessions and grants ended.
    expect((await testBrowser(ctx).submit("/signin", "/signin", { email: u.email, password: PASSWORD })).status).toBe(
      303,
    );
  }, 30_000);

  test("a form without the session's token is refused and ends nothing", async () => {
    const ctx = createTestContext();
    const u = await connectedWithKey(ctx);
    const forged = await u.b.post("/settings/account/sign-out-everywhere", { csrf: "x".repeat(32) });
    expect(forged.status).toBe(403);
    expect((await u.b.get("/library")).status).toBe(200);
    expect(await accessWorks(ctx, u.access)).toBe(true);
  }, 30_000);
});

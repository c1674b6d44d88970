// Settings → Connected apps through the real app: the apps a user allowed, and revocation that
// stops their access and refresh tokens at once.
import { describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../../../test/helpers.ts";
import { hiddenFields, testBrowser } from "../../../test/browser-client.ts";
import { connectedUser, token } from "./test-flow.ts";
import { sqlRows } from "../../db/inspect.ts";

const verify = async (ctx: TestContext, t: string) =>
  (await ctx.services.oauth.verifyAccess(t, `${ctx.config.baseUrl}/mcp`)).ok;

describe("Settings → Connected apps", () => {
  test("signed-out visitors are sent to sign in", async () => {
    const ctx = createTestContext();
    const res = await testBrowser(ctx).get("/settings/apps");
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/signin?next=${encodeURIComponent("/settings/apps")}`);
  });

  test("lists the apps the user allowed, with where they return to", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const page = await u.b.get("/settings/apps");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/settings" aria-current="page">Settings</a>');
    expect(page.text).toContain('<td data-label="App">Test client</td>');
    expect(page.text).toContain('<span class="hint">127.0.0.1:8976</span>');
    expect(page.text).toContain(`action="/settings/apps/${u.clientId}/revoke"`);
  }, 60_000);

  test("revoking an app stops its access and refresh tokens at once", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    expect(await verify(ctx, u.access)).toBe(true);
    const page = await u.b.get("/settings/apps");
    const action = `/settings/apps/${u.clientId}/revoke`;
    const res = await u.b.post(action, hiddenFields(page.text, action));
    expect(res.status).toBe(303);
    expect(res.location).toBe("/settings/apps?notice=app_revoked");
    expect(await verify(ctx, u.access)).toBe(false);
    const refresh = await token(ctx, { grant_type: "refresh_token", refresh_token: u.refresh, client_id: u.clientId });
    expect(refresh.body.error).toBe("invalid_grant");
    const after = await u.b.get(res.location!);
    expect(after.text).toContain("The app was disconnected.");
    expect(after.text).not.toContain('data-label="App"');
  }, 60_000);

  test("another user's app cannot be revoked, and a forged form is refused", async () => {
    const ctx = createTestContext();
    const ada = await connectedUser(ctx);
    const bob = await connectedUser(ctx);
    const page = await bob.b.get("/settings/apps");
    const csrf = hiddenFields(page.text, "/signout").csrf!;
    const res = await bob.b.post(`/settings/apps/${ada.clientId}/revoke`, { csrf });
    expect(res.status).toBe(404);
    expect(await verify(ctx, ada.access)).toBe(true);
    const forged = await bob.b.post(`/settings/apps/${bob.clientId}/revoke`, { csrf: "y".repeat(32) });
    expect(forged.status).toBe(403);
    expect(await verify(ctx, bob.access)).toBe(true);
  }, 60_000);

  test("a client registered with a hostile name renders as text", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    await sqlRows(ctx.db, "UPDATE oauth_clients SET name = ? WHERE id = ?", "<script>alert(1)</script>", u.clientId);
    const page = await u.b.get("/settings/apps");
    expect(page.text).not.toContain("<script>alert(1)</script>");
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

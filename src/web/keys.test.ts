// Settings → API keys through the real app: the full key exactly once, hints in the list, immediate
// revocation, escaping of key names and refusal of resubmitted forms.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../test/helpers.ts";
import { hashSecret } from "../crypto.ts";
import { hiddenFields, signUp, testBrowser, type TestBrowser } from "../../test/browser-client.ts";
import { sqlRow, sqlRows } from "../db/inspect.ts";

const KEY_RE = /cpk_[0-9A-Za-z]{46}/g;

async function signedIn(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  const b = testBrowser(ctx);
  await signUp(b, "ada@example.com");
  return { ctx, b };
}

async function createKey(b: TestBrowser, name: string) {
  const res = await b.submit("/settings/keys", "/settings/keys", { name });
  const keys = res.text.match(KEY_RE) ?? [];
  return { res, key: keys[0] };
}

describe("Settings → API keys", () => {
  test("signed-out visitors are sent to sign in", async () => {
    const ctx = createTestContext();
    const res = await testBrowser(ctx).get("/settings/keys");
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/signin?next=${encodeURIComponent("/settings/keys")}`);
  });

  test("a new key is shown in full once, works, and afterwards only its hint is listed", async () => {
    const { ctx, b } = await signedIn();
    const { res, key } = await createKey(b, "backup script");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'sha256-");
    expect(res.text.match(KEY_RE)).toHaveLength(1);
    expect(res.text).toContain(`id="new-key" value="${key}" readonly`);
    expect(res.text).toContain('data-copy="new-key"');
    expect(res.text).toContain("It will not be shown again.");

    const me = await call(ctx, "GET", "/api/v1/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.auth).toMatchObject({ type: "api_key", key_name: "backup script" });

    const list = await b.get("/settings/keys");
    expect(list.text).not.toContain(key!);
    expect(list.text.match(KEY_RE)).toBeNull();
    const hint = `${key!.slice(0, 8)}…${key!.slice(-4)}`;
    expect(list.text).toContain(`<span class="hint">${hint}</span>`);
    expect(list.text).toContain("backup script");
    expect(list.text).toMatch(/<td data-label="Created"><time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/);
    expect(list.text).toMatch(/<td data-label="Last used"><time datetime=/);
    const stored = await sqlRows(ctx.db, "SELECT key_hash, hint FROM api_keys");
    expect(stored).toEqual([{ key_hash: hashSecret(key!), hint }]);
  }, 60_000);

  test("resubmitting the same form makes no second key and shows none", async () => {
    const { ctx, b } = await signedIn();
    const page = await b.get("/settings/keys");
    const fields = { ...hiddenFields(page.text, "/settings/keys"), name: "once" };
    const first = await b.post("/settings/keys", fields);
    expect(first.text.match(KEY_RE)).toHaveLength(1);
    const again = await b.post("/settings/keys", fields);
    expect(again.status).toBe(409);
    expect(again.text.match(KEY_RE)).toBeNull();
    expect(again.text).toContain("already submitted");
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 1 });
  }, 60_000);

  test("a missing or too long name is explained inline and the name kept", async () => {
    const { ctx, b } = await signedIn();
    const empty = await createKey(b, "   ");
    expect(empty.res.status).toBe(422);
    expect(empty.res.text).toContain("Give the key a name");
    const long = await createKey(b, "n".repeat(101));
    expect(long.res.status).toBe(422);
    expect(long.res.text).toContain(`value="${"n".repeat(101)}"`);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 0 });
  }, 60_000);

  test("revoking a key stops it on the very next request", async () => {
    const { ctx, b } = await signedIn();
    const { key } = await createKey(b, "to revoke");
    expect((await call(ctx, "GET", "/api/v1/me", { key })).status).toBe(200);
    const list = await b.get("/settings/keys");
    const action = list.text.match(/action="(\/settings\/keys\/key_[0-9A-Z]+\/revoke)"/)![1]!;
    const res = await b.post(action, hiddenFields(list.text, action));
    expect(res.status).toBe(303);
    expect(res.location).toBe("/settings/keys?notice=revoked");
    const after = await call(ctx, "GET", "/api/v1/me", { key });
    expect(after.status).toBe(401);
    const page = await b.get(res.location!);
    expect(page.text).toContain("The key was revoked.");
    expect(page.text).not.toContain("to revoke");
  }, 60_000);

  test("another user's key cannot be revoked: 404 page, key keeps working", async () => {
    const { ctx, b } = await signedIn();
    const other = await userWithKey(ctx);
    const list = await b.get("/settings/keys");
    const action = `/settings/keys/${other.keyId}/revoke`;
    const res = await b.post(action, { csrf: hiddenFields(list.text, "/signout").csrf! });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect((await call(ctx, "GET", "/api/v1/me", { key: other.key })).status).toBe(200);
  });

  test("a key named like a script renders as text", async () => {
    const { b } = await signedIn();
    const evil = "<script>alert(1)</script>";
    const created = await createKey(b, evil);
    const list = await b.get("/settings/keys");
    for (const text of [created.res.text, list.text]) {
      expect(text).not.toContain(evil);
      expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(text.match(/<script>/g)).toHaveLength(1);
    }
  }, 60_000);

  test("more than a page of keys: the Older keys link reaches the rest", async () => {
    const { ctx, b } = await signedIn();
    const user = await ctx.services.accounts.userByEmail("ada@example.com");
    for (let i = 0; i < 51; i++) await ctx.services.keys.create(user.id, `key ${String(i).padStart(2, "0")}`);
    const first = await b.get("/settings/keys");
    expect(first.text.match(/<span class="hint">/g)).toHaveLength(50);
    expect(first.text).not.toContain("key 00<");
    const more = /href="(\/settings\/keys\?before=key_[0-9A-Z]{26})">Older keys/.exec(first.text);
    expect(more).not.toBeNull();
    const second = await b.get(more![1]!);
    expect(second.text.match(/<span class="hint">/g)).toHaveLength(1);
    expect(second.text).toContain("key 00");
    expect(second.text).not.toContain("Older keys");
    expect(second.text).toMatch(/<td data-label="Created"><time datetime=/);
  }, 60_000);
});

// Sign-up, sign-in, sign-out through the real app: cookie flags, sign-up policy, uniform failures,
// CSRF and Origin checks, the login rate limit and session invalidation.
import { describe, expect, test } from "bun:test";
import { createTestContext, userWithKey } from "../../test/helpers.ts";
import { hashSecret } from "../crypto.ts";
import { rememberClientAddress } from "../http/client-address.ts";
import { hiddenFields, signUp, testBrowser } from "../../test/browser-client.ts";
import { sqlRow, sqlRows } from "../db/inspect.ts";

const PASSWORD = "correct horse battery";
const countUsers = async (ctx: ReturnType<typeof createTestContext>) =>
  ((await sqlRow(ctx.db, "SELECT count(*) AS n FROM users")) as { n: number }).n;

describe("sign up", () => {
  test("creates the user, signs them in with an HttpOnly SameSite=Lax cookie and stores only its hash", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    const res = await signUp(b, "ada@example.com");
    expect(res.status).toBe(303);
    expect(res.location).toBe("/library");
    const set = res.headers.getSetCookie().find((c) => c.startsWith("cp_session="))!;
    expect(set).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(set).not.toContain("Secure");
    const token = b.jar.get("cp_session")!;
    const rows = (await sqlRows(ctx.db, "SELECT token_hash FROM sessions")) as { token_hash: string }[];
    expect(rows).toEqual([{ token_hash: hashSecret(token) }]);
    const page = await b.get("/settings/keys");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Signed in as ada@example.com");
  }, 60_000);

  test("cookies are Secure when BASE_URL is https", async () => {
    const ctx = createTestContext({ BASE_URL: "https://cp.example.com" });
    const b = testBrowser(ctx);
    const form = await b.get("/signup");
    expect(form.headers.getSetCookie()[0]).toMatch(/^cp_csrf=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const res = await b.post("/signup", {
      ...hiddenFields(form.text, "/signup"),
      email: "a@example.com",
      password: PASSWORD,
    });
    expect(res.headers.getSetCookie().find((c) => c.startsWith("cp_session="))).toEndWith("; Secure");
  });

  test("with ALLOW_SIGNUP=false the first user may sign up, the second may not", async () => {
    const ctx = createTestContext({ ALLOW_SIGNUP: "false" });
    const first = testBrowser(ctx);
    expect((await signUp(first, "owner@example.com")).status).toBe(303);
    const second = testBrowser(ctx);
    const page = await second.get("/signup");
    expect(page.status).toBe(403);
    expect(page.text).toContain("Sign-up is closed");
    const csrf = (await second.get("/signin")).text.match(/name="csrf" value="([^"]+)"/)![1]!;
    const res = await second.post("/signup", { csrf, email: "late@example.com", password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.text).toContain("Sign-up is closed");
    expect(second.jar.has("cp_session")).toBe(false);
    expect(await countUsers(ctx)).toBe(1);
    expect((await second.get("/signin")).text).not.toContain('href="/signup"');
  }, 60_000);

  test("a local next page survives sign-up (an OAuth authorization continues); a foreign one is ignored", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    const signin = await b.get("/signin?next=%2Foauth%2Fconsent%3Fid%3Dabc");
    expect(signin.text).toContain('href="/signup?next=%2Foauth%2Fconsent%3Fid%3Dabc"');
    const res = await b.submit("/signup?next=%2Foauth%2Fconsent%3Fid%3Dabc", "/signup", {
      email: "n@example.com",
      password: PASSWORD,
      name: "",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/oauth/consent?id=abc");
    const other = testBrowser(ctx);
    const res2 = await other.submit("/signup?next=https%3A%2F%2Fevil.example%2F", "/signup", {
      email: "m@example.com",
      password: PASSWORD,
      name: "",
    });
    expect(res2.location).toBe("/library");
  }, 60_000);

  test("invalid input is explained inline, the input kept except the password", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    const res = await b.submit("/signup", "/signup", { email: "not-an-email", password: "short-pw", name: "<Ada>" });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain("Email must be an email address");
    expect(res.text).toContain('value="not-an-email"');
    expect(res.text).toContain('value="&lt;Ada&gt;"');
    expect(res.text).not.toContain("short-pw");
    await signUp(testBrowser(ctx), "taken@example.com");
    const dup = await b.submit("/signup", "/signup", { email: "taken@example.com", password: PASSWORD });
    expect(dup.status).toBe(409);
    expect(dup.text).toContain("already exists");
  }, 60_000);
});

describe("sign in", () => {
  test("a wrong password and an unknown email get the same answer", async () => {
    const ctx = createTestContext();
    await signUp(testBrowser(ctx), "known@example.com");
    const b = testBrowser(ctx);
    const wrong = await b.submit("/signin", "/signin", { email: "known@example.com", password: "wrong password" });
    const unknown = await b.submit("/signin", "/signin", { email: "ghost@example.com", password: "wrong password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toContain("Email or password is wrong");
    expect(wrong.text.replaceAll("known@example.com", "E")).toBe(unknown.text.replaceAll("ghost@example.com", "E"));
    expect(wrong.text).not.toContain("wrong password");
    expect(b.jar.has("cp_session")).toBe(false);
  }, 60_000);

  test("the right password signs in and goes to a local next page only", async () => {
    const ctx = createTestContext();
    await signUp(testBrowser(ctx), "ada@example.com");
    const b = testBrowser(ctx);
    const local = await b.submit("/signin?next=/settings/keys?x=1", "/signin", {
      email: "ADA@example.com",
      password: PASSWORD,
    });
    expect(local.status).toBe(303);
    expect(local.location).toBe("/settings/keys?x=1");
    const c = testBrowser(ctx);
    const form = await c.get("/signin");
    const evil = await c.post("/signin", {
      ...hiddenFields(form.text, "/signin"),
      next: "//evil.example",
      email: "ada@example.com",
      password: PASSWORD,
    });
    expect(evil.location).toBe("/library");
  }, 60_000);

  test("too many attempts for one email get 429 with Retry-After, even with the right password", async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    const ctx = createTestContext({ LOGIN_RATE_LIMIT_PER_MINUTE: "2" }, { clock: { now: () => now } });
    // Made directly: signing up would count as one attempt against the same limit.
    await userWithKey(ctx, "ada@example.com");
    const b = testBrowser(ctx);
    for (let i = 0; i < 2; i++) {
      expect((await b.submit("/signin", "/signin", { email: "ada@example.com", password: "nope-nope" })).status).toBe(
        401,
      );
    }
    const limited = await b.submit("/signin", "/signin", { email: "Ada@Example.com", password: "password123" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.text).toContain("Too many sign-in attempts");
    expect(b.jar.has("cp_session")).toBe(false);
    now += 61_000;
    expect((await b.submit("/signin", "/signin", { email: "ada@example.com", password: "password123" })).status).toBe(
      303,
    );
  }, 60_000);

  test("one client address is limited across emails when the server knows it", async () => {
    const ctx = createTestContext({ LOGIN_RATE_LIMIT_PER_MINUTE: "1" });
    const fromPeer = { app: { handle: (r: Request) => (rememberClientAddress(r, "203.0.113.9"), ctx.app.handle(r)) } };
    const b = testBrowser(fromPeer);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await b.submit("/signin", "/signin", { email: `u${i}@example.com`, password: "nope-nope" })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const elsewhere = await testBrowser(ctx).submit("/signin", "/signin", {
      email: "u9@example.com",
      password: "nope-nope",
    });
    expect(elsewhere.status).toBe(401);
  }, 60_000);
});

describe("sign-up is rate limited like sign-in, before any password is hashed", () => {
  test("repeated sign-ups with one email get a 429 page with Retry-After", async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    const ctx = createTestContext({ LOGIN_RATE_LIMIT_PER_MINUTE: "2" }, { clock: { now: () => now } });
    expect((await signUp(testBrowser(ctx), "ada@example.com")).status).toBe(303);
    const b = testBrowser(ctx);
    expect((await signUp(b, "ada@example.com")).status).toBe(409);
    const limited = await signUp(b, "ADA@example.com ");
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(limited.text).toContain(`Too many attempts. Try again in ${wait} seconds.`);
    expect(limited.text).toContain('action="/signup"');
    // It is the same budget as signing in with that email.
    expect((await b.submit("/signin", "/signin", { email: "ada@example.com", password: PASSWORD })).status).toBe(429);
    now += 61_000;
    expect((await signUp(b, "ada@example.com")).status).toBe(409);
  }, 60_000);

  test("one client address is limited across emails, and a limited sign-up creates no account", async () => {
    const ctx = createTestContext({ LOGIN_RATE_LIMIT_PER_MINUTE: "1" });
    const fromPeer = { app: { handle: (r: Request) => (rememberClientAddress(r, "203.0.113.9"), ctx.app.handle(r)) } };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signUp(testBrowser(fromPeer), `u${i}@example.com`)).status);
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    expect(await countUsers(ctx)).toBe(5);
    expect((await signUp(testBrowser(ctx), "u9@example.com")).status).toBe(303);
  }, 60_000);
});

describe("CSRF and Origin", () => {
  test("sign-in without the cookie token or with a wrong one is refused with a 403 page", async () => {
    const ctx = createTestContext();
    await signUp(testBrowser(ctx), "ada@example.com");
    const noCookie = await testBrowser(ctx).post("/signin", {
      csrf: "x".repeat(32),
      email: "ada@example.com",
      password: PASSWORD,
    });
    expect(noCookie.status).toBe(403);
    expect(noCookie.headers.get("content-type")).toContain("text/html");
    const b = testBrowser(ctx);
    await b.get("/signin");
    const wrong = await b.post("/signin", { csrf: "y".repeat(32), email: "ada@example.com", password: PASSWORD });
    expect(wrong.status).toBe(403);
    const missing = await b.post("/signin", { email: "ada@example.com", password: PASSWORD });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain("This form cannot be accepted");
    expect(b.jar.has("cp_session")).toBe(false);
  }, 60_000);

  test("signed-in forms need the session's token", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    await signUp(b, "ada@example.com");
    const create = await b.post("/settings/keys", { csrf: "z".repeat(32), name: "sneaky" });
    expect(create.status).toBe(403);
    const signout = await b.post("/signout", {});
    expect(signout.status).toBe(403);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 0 });
    expect((await b.get("/settings/keys")).status).toBe(200);
  }, 60_000);

  test("a POST from a foreign Origin is refused even with valid tokens; our own origin passes", async () => {
    const ctx = createTestContext({ BASE_URL: "https://cp.example.com" });
    const evil = { origin: "https://evil.example" };
    const b = testBrowser(ctx);
    const refused = await b.submit("/signup", "/signup", { email: "ada@example.com", password: PASSWORD }, evil);
    expect(refused.status).toBe(403);
    expect(await countUsers(ctx)).toBe(0);
    const ok = await b.submit(
      "/signup",
      "/signup",
      { email: "ada@example.com", password: PASSWORD },
      { origin: "https://cp.example.com" },
    );
    expect(ok.status).toBe(303);
    const key = await b.submit("/settings/keys", "/settings/keys", { name: "k" }, evil);
    expect(key.status).toBe(403);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 0 });
  }, 60_000);
});

describe("the address the browser used, when it is not BASE_URL", () => {
  // BASE_URL says localhost; a person opens the app at 127.0.0.1 or by LAN address instead.
  test.each(["http://127.0.0.1:3000", "http://192.168.1.20:3000"])(
    "forms posted from %s are accepted as same-origin",
    async (at) => {
      const ctx = createTestContext({ BASE_URL: "http://localhost:3000" });
      const b = testBrowser(ctx, { base: at, origin: at });
      const res = await b.submit("/signup", "/signup", { email: "ada@example.com", password: PASSWORD });
      expect(res.status, res.text).toBe(303);
      expect(await countUsers(ctx)).toBe(1);
      const key = await b.submit("/settings/keys", "/settings/keys", { name: "laptop" });
      expect(key.status).toBe(200);
      expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 1 });
    },
  );

  test("a cross-site post to that address is still refused, whatever the tokens", async () => {
    const ctx = createTestContext({ BASE_URL: "http://localhost:3000" });
    const b = testBrowser(ctx, { base: "http://127.0.0.1:3000" });
    const attempts: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "http://127.0.0.1:3001" },
      { origin: "null" },
      { origin: "http://evil.example", "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of attempts) {
      const res = await b.submit("/signup", "/signup", { email: "ada@example.com", password: PASSWORD }, headers);
      expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
    }
    expect(await countUsers(ctx)).toBe(0);
  });

  test("Sec-Fetch-Site: same-origin passes when a proxy rewrote the Host", async () => {
    const ctx = createTestContext({ BASE_URL: "http://localhost:3000" });
    const b = testBrowser(ctx, { base: "http://internal:8080" });
    const res = await b.submit(
      "/signup",
      "/signup",
      { email: "ada@example.com", password: PASSWORD },
      { origin: "https://notes.example", "sec-fetch-site": "same-origin" },
    );
    expect(res.status).toBe(303);
  });
});

describe("sign out", () => {
  test("deletes the session, so the old cookie no longer works", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    await signUp(b, "ada@example.com");
    const token = b.jar.get("cp_session")!;
    const res = await b.submit("/settings/keys", "/signout", {});
    expect(res.status).toBe(303);
    expect(res.location).toBe("/signin?notice=signed_out");
    expect(res.headers.getSetCookie()).toContain("cp_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM sessions")).toEqual({ n: 0 });
    const replay = await testBrowser(ctx).get("/settings/keys", { cookie: `cp_session=${token}` });
    expect(replay.status).toBe(303);
    expect(replay.location).toBe(`/signin?next=${encodeURIComponent("/settings/keys")}`);
    expect((await b.get("/signin?notice=signed_out")).text).toContain("You are signed out.");
  });

  test("the start page sends people where they belong", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    expect((await b.get("/")).location).toBe("/signin");
    await signUp(b, "ada@example.com");
    expect((await b.get("/")).location).toBe("/library");
    expect((await b.get("/signin")).location).toBe("/library");
  }, 60_000);
});

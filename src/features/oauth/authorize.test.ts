// The authorization endpoint and the consent page through the real app: PKCE S256 only, resource
// required, errors redirected only to registered URIs, sign-in first, CSRF on the consent form.
import { describe, expect, test } from "bun:test";
import { createTestContext, userWithKey } from "../../../test/helpers.ts";
import { hiddenFields, signUp, testBrowser } from "../../../test/browser-client.ts";
import { authorizeUrl, consent, pkce, REDIRECT, registeredClient } from "./test-flow.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";

async function setup() {
  const ctx = createTestContext();
  const clientId = await registeredClient(ctx, { client_name: "Desk <b>Assistant</b>" });
  const b = testBrowser(ctx);
  await signUp(b, "ada@example.com");
  return { ctx, clientId, b, challenge: pkce().challenge };
}

function errorOf(location: string | null) {
  const u = new URL(location!);
  return {
    base: `${u.origin}${u.pathname}`,
    error: u.searchParams.get("error"),
    state: u.searchParams.get("state"),
    description: u.searchParams.get("error_description"),
  };
}

describe("GET /oauth/authorize", () => {
  test("a valid request leads to a consent page naming the client and its redirect host, escaped", async () => {
    const { ctx, clientId, b, challenge } = await setup();
    const start = await b.get(authorizeUrl(ctx, { client_id: clientId, code_challenge: challenge }));
    expect(start.status).toBe(302);
    expect(start.location).toMatch(/^\/oauth\/consent\?request=[A-Za-z0-9_-]+$/);
    const page = await b.get(start.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Desk &lt;b&gt;Assistant&lt;/b&gt;");
    expect(page.text).not.toContain("<b>Assistant</b>");
    expect(page.text).toContain("127.0.0.1:8976");
    expect(page.text).toContain("ada@example.com");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:8976;");
  }, 60_000);

  test("Allow sends the browser back with a code, the state and our issuer", async () => {
    const { ctx, clientId, b, challenge } = await setup();
    const back = await consent(b, authorizeUrl(ctx, { client_id: clientId, code_challenge: challenge }));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("code")).toMatch(/^cpac_[A-Za-z0-9_-]{43}$/);
    expect(back.searchParams.get("state")).toBe("st-123");
    expect(back.searchParams.get("iss")).toBe(ctx.config.baseUrl);
    const stored = (await sqlRows(ctx.db, "SELECT code_hash FROM oauth_codes")) as { code_hash: string }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.code_hash).not.toContain(back.searchParams.get("code")!);
  }, 60_000);

  test("Deny sends access_denied with the state, and issues no code", async () => {
    const { ctx, clientId, b, challenge } = await setup();
    const back = await consent(b, authorizeUrl(ctx, { client_id: clientId, code_challenge: challenge }), "deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("st-123");
    expect(back.searchParams.get("code")).toBeNull();
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM oauth_codes")).toEqual({ n: 0 });
  });

  test("plain PKCE, a missing challenge, a missing or foreign resource are errors sent to the redirect URI", async () => {
    const { ctx, clientId, b, challenge } = await setup();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge_method: "plain", code_challenge: challenge }, "invalid_request"],
      [{ code_challenge_method: undefined, code_challenge: challenge }, "invalid_request"],
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge: "short" }, "invalid_request"],
      [{ code_challenge: challenge, resource: undefined }, "invalid_request"],
      [{ code_challenge: challenge, resource: "https://elsewhere.example/mcp" }, "invalid_target"],
      [{ code_challenge: challenge, response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: challenge, prompt: "none" }, "consent_required"],
    ];
    for (const [p, error] of cases) {
      const res = await b.get(authorizeUrl(ctx, { client_id: clientId, ...p }));
      expect(res.status).toBe(302);
      const e = errorOf(res.location);
      expect(e).toMatchObject({ base: REDIRECT, error, state: "st-123" });
    }
    expect(
      errorOf(
        (
          await b.get(
            authorizeUrl(ctx, { client_id: clientId, code_challenge_method: "plain", code_challenge: challenge }),
          )
        ).location,
      ).description,
    ).toContain("S256");
  }, 60_000);

  test("an unknown client or an unregistered redirect URI gets an error page, never a redirect", async () => {
    const { ctx, clientId, b, challenge } = await setup();
    const cases = [
      { client_id: "cli_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX", code_challenge: challenge },
      { client_id: undefined, code_challenge: challenge },
      { client_id: clientId, code_challenge: challenge, redirect_uri: "https://evil.example/steal" },
      { client_id: clientId, code_challenge: challenge, redirect_uri: undefined },
      { client_id: clientId, code_challenge_method: "plain", redirect_uri: "http://127.0.0.1:8976/other" },
    ];
    for (const p of cases) {
      const res = await b.get(authorizeUrl(ctx, p));
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.text).toContain("This app cannot connect");
    }
  });

  test("a signed-out user signs in first and then sees the same consent page", async () => {
    const ctx = createTestContext();
    const clientId = await registeredClient(ctx);
    const { email } = await userWithKey(ctx);
    const b = testBrowser(ctx);
    const start = await b.get(authorizeUrl(ctx, { client_id: clientId, code_challenge: pkce().challenge }));
    const consentPath = start.location!;
    const gate = await b.get(consentPath);
    expect(gate.status).toBe(303);
    expect(gate.location).toBe(`/signin?next=${encodeURIComponent(consentPath)}`);
    const signin = await b.get(gate.location!);
    const fields = hiddenFields(signin.text, "/signin");
    expect(fields.next).toBe(consentPath);
    const signed = await b.post("/signin", { ...fields, email, password: "password123" });
    expect(signed.location).toBe(consentPath);
    const page = await b.get(consentPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Allow");
  });

  test("the consent form needs the session's CSRF token and a same-origin Origin", async () => {
    const { ctx, clientId, b, challenge } = await setup();
    const start = await b.get(authorizeUrl(ctx, { client_id: clientId, code_challenge: challenge }));
    const page = await b.get(start.location!);
    const fields = hiddenFields(page.text, "/oauth/consent");
    const forged = await b.post("/oauth/consent", {
      request: fields.request!,
      csrf: "x".repeat(32),
      decision: "allow",
    });
    expect(forged.status).toBe(403);
    const foreign = await b.post(
      "/oauth/consent",
      { ...fields, decision: "allow" },
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM oauth_codes")).toEqual({ n: 0 });
    // The request is still answerable by the real form.
    const ok = await b.post("/oauth/consent", { ...fields, decision: "allow" });
    expect(ok.status).toBe(303);
    expect(new URL(ok.location!).searchParams.get("code")).toBeTruthy();
  }, 60_000);

  test("a consent request is answered once and expires", async () => {
    let now = Date.parse("2026-03-01T10:00:00Z");
    const ctx = createTestContext({}, { clock: { now: () => now } });
    const clientId = await registeredClient(ctx);
    const b = testBrowser(ctx);
    await signUp(b, "bob@example.com");
    const start = await b.get(authorizeUrl(ctx, { client_id: clientId, code_challenge: pkce().challenge }));
    const page = await b.get(start.location!);
    const fields = hiddenFields(page.text, "/oauth/consent");
    expect((await b.post("/oauth/consent", { ...fields, decision: "allow" })).status).toBe(303);
    const again = await b.post("/oauth/consent", { ...fields, decision: "allow" });
    expect(again.status).toBe(404);
    expect(again.text).toContain("expired or was already answered");

    const later = await b.get(authorizeUrl(ctx, { client_id: clientId, code_challenge: pkce().challenge }));
    now += 16 * 60_000;
    expect((await b.get(later.location!)).status).toBe(404);
  }, 60_000);
});

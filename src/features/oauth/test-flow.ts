// Test helpers: an OAuth client going through registration, authorization (consent given with the
// web test client) and the token endpoint, all over app.handle.
import { call, type TestContext } from "../../../test/helpers.ts";
import { hiddenFields, signUp, testBrowser, type TestBrowser } from "../../../test/browser-client.ts";
import { s256 } from "./secrets.ts";
import { sqlRow } from "../../db/inspect.ts";

export const REDIRECT = "http://127.0.0.1:8976/callback";

export function pkce() {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return { verifier, challenge: s256(verifier) };
}

export async function register(ctx: TestContext, body: Record<string, unknown> = {}) {
  return call(ctx, "POST", "/oauth/register", {
    body: { client_name: "Test client", redirect_uris: [REDIRECT], ...body },
  });
}

export async function registeredClient(ctx: TestContext, body: Record<string, unknown> = {}): Promise<string> {
  const res = await register(ctx, body);
  if (res.status !== 201) throw new Error(`registration failed: ${res.text}`);
  return res.body.client_id as string;
}

export function authorizeUrl(ctx: TestContext, p: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  const all: Record<string, string | undefined> = {
    response_type: "code",
    redirect_uri: REDIRECT,
    code_challenge_method: "S256",
    resource: `${ctx.config.baseUrl}/mcp`,
    state: "st-123",
    ...p,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q}`;
}

/** Follows /oauth/authorize to the consent page and answers it; returns the redirect back to the client. */
export async function consent(
  b: TestBrowser,
  authorizePath: string,
  decision: "allow" | "deny" = "allow",
): Promise<URL> {
  const start = await b.get(authorizePath);
  if (start.status !== 302 || !start.location?.startsWith("/oauth/consent"))
    throw new Error(`no consent redirect: ${start.status} ${start.location}`);
  const page = await b.get(start.location);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}`);
  const res = await b.post("/oauth/consent", { ...hiddenFields(page.text, "/oauth/consent"), decision });
  if (res.status !== 303 || !res.location) throw new Error(`consent answered ${res.status}`);
  return new URL(res.location);
}

export async function token(ctx: TestContext, form: Record<string, string | undefined>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  return call(ctx, "POST", "/oauth/token", {
    rawBody: body.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

/** A signed-in user who authorised a fresh client: the code is redeemed and both tokens returned. */
export async function connectedUser(
  ctx: TestContext,
  email = `u${Math.random().toString(36).slice(2, 10)}@example.com`,
) {
  const b = testBrowser(ctx);
  await signUp(b, email);
  const clientId = await registeredClient(ctx);
  const { verifier, challenge } = pkce();
  const back = await consent(b, authorizeUrl(ctx, { client_id: clientId, code_challenge: challenge }));
  const code = back.searchParams.get("code")!;
  const res = await token(ctx, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
    resource: `${ctx.config.baseUrl}/mcp`,
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.text}`);
  const userId = ((await sqlRow(ctx.db, "SELECT id FROM users WHERE email = ?", email)) as { id: string }).id;
  return {
    b,
    clientId,
    userId,
    email,
    access: res.body.access_token as string,
    refresh: res.body.refresh_token as string,
  };
}

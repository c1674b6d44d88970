// Shared setup for the library pages' tests: a signed-in browser over a fresh app, and form shortcuts.
import { expect } from "bun:test";
import { createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { hiddenFields, testBrowser, type PageResult, type TestBrowser } from "../../../test/browser-client.ts";

export interface Person {
  b: TestBrowser;
  userId: string;
  email: string;
  key: string;
}

/** A user (fast password hash) signed in through the real sign-in form. */
export async function signedInPerson(ctx: TestContext): Promise<Person> {
  const u = await userWithKey(ctx);
  const b = testBrowser(ctx);
  const res = await b.submit("/signin", "/signin", { email: u.email, password: "password123" });
  expect(res.status).toBe(303);
  return { b, userId: u.userId, email: u.email, key: u.key };
}

export async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  const me = await signedInPerson(ctx);
  return { ctx, me, b: me.b };
}

/** The session's CSRF token, read from the sign-out form every signed-in page carries. */
export async function csrfOf(b: TestBrowser): Promise<string> {
  const page = await b.get("/library");
  return hiddenFields(page.text, "/signout").csrf!;
}

/** A form POST with the session's CSRF token plus `fields`; repeated fields (checkboxes) as arrays. */
export async function post(
  ctx: TestContext,
  b: TestBrowser,
  action: string,
  fields: Record<string, string | string[]> = {},
): Promise<PageResult> {
  const form = new URLSearchParams({ csrf: await csrfOf(b) });
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, item);
  return send(ctx, b, action, form);
}

/** A form POST with exactly these fields and the browser's cookies. */
export async function send(
  ctx: TestContext,
  b: TestBrowser,
  action: string,
  form: URLSearchParams,
  headers: Record<string, string> = {},
): Promise<PageResult> {
  const h = new Headers({ "content-type": "application/x-www-form-urlencoded", ...headers });
  if (b.jar.size) h.set("cookie", [...b.jar].map(([k, v]) => `${k}=${v}`).join("; "));
  const res = await ctx.app.handle(
    new Request(`http://localhost${action}`, { method: "POST", headers: h, body: form.toString() }),
  );
  return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get("location") };
}

export const idIn = (text: string, prefix: string): string => {
  const m = new RegExp(`(${prefix}_[0-9A-Z]{26})`).exec(text);
  if (!m) throw new Error(`no ${prefix}_ id in the page`);
  return m[1]!;
};

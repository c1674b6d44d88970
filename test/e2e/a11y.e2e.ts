// Accessibility audit in real Chromium: axe-core over the pages and states below, in the light and the
// dark color scheme, at desktop and phone width (390 px). Any serious or critical violation fails, and
// so does a page wider than the phone's screen. E2E_SCREENSHOT_DIR=<dir> also saves a full-page PNG of
// each state, scheme and width there, to look at. Run with `bun run test:e2e`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { audit, blocking, WIDTHS } from "./audit.ts";
import { sqlRows } from "../../src/db/inspect.ts";
import { authorizeUrl, pkce, registeredClient } from "../../src/features/oauth/test-flow.ts";
import { E2E_PASSWORD, launchChromium, signUp, startLiveApp, type LiveApp } from "./browser.ts";

let browser: Browser;
let app: LiveApp;
/** The sign-up limiter answers on the second attempt here (one attempt per email a minute). */
let strict: LiveApp;

beforeAll(async () => {
  app = startLiveApp();
  strict = startLiveApp({ LOGIN_RATE_LIMIT_PER_MINUTE: "1" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.server.stop(true);
  await strict?.server.stop(true);
});

/** axe is injected as an inline script, which our CSP would rightly refuse: this context ignores it. */
const newContext = (): Promise<BrowserContext> => browser.newContext({ bypassCSP: true, viewport: WIDTHS[0] });

async function expectClean(page: Page, state: string): Promise<void> {
  const { violations, overflow } = await audit(page, state);
  if (violations.length) console.log(violations.join("\n"));
  expect(blocking(violations)).toEqual([]);
  expect(overflow).toEqual([]);
}

describe("accessibility of the account, sign-up and consent pages", () => {
  test("Settings → Account: as shown, with field errors, after a password change", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await signUp(page, app.base, "account@example.com");
    await page.goto(`${app.base}/settings/account`);
    expect(await page.getByLabel(/Also revoke my API keys/).isChecked()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("BODY");
    await expectClean(page, "account");

    const revoke = page.getByLabel(/Also revoke my API keys/);
    await revoke.uncheck();
    await page.getByLabel("Current password").fill("not the password");
    await page.getByLabel("New password").fill("long enough");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.locator(".field-error").first().waitFor();
    // The answer brings the person to the field to correct and keeps the box as they left it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-current_password");
    expect(await revoke.isChecked()).toBe(false);
    await expectClean(page, "account-errors");

    await revoke.check();
    await page.getByLabel("Current password").fill(E2E_PASSWORD);
    await page.getByLabel("New password").fill("a much longer new password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.waitForURL(/notice=password_changed_keys/);
    await expectClean(page, "account-changed");

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL(/\/signin\?notice=signed_out_everywhere/);
    await expectClean(page, "signed-out-everywhere");
    await context.close();
  });

  test("sign-up when the rate limiter answers 429", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await signUp(page, strict.base, "first@example.com");
    await context.clearCookies();
    await page.goto(`${strict.base}/signup`);
    await page.getByLabel("Name").fill("Second try");
    await page.getByLabel("Email").fill("first@example.com");
    await page.getByLabel("Password").fill(E2E_PASSWORD);
    const answer = page.waitForResponse((r) => r.url().endsWith("/signup") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Create account" }).click();
    expect((await answer).status()).toBe(429);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    await expectClean(page, "signup-429");
    await context.close();
  });

  test("OAuth consent: a stored name with control and bidi characters, and a very long name", async () => {
    const { ctx } = app;
    const stripped = await registeredClient(ctx, { client_name: "placeholder" });
    await sqlRows(ctx.db, "UPDATE oauth_clients SET name = ? WHERE id = ?", "Safe\u202e\u200bTool\u0007", stripped);
    const long = await registeredClient(ctx, { client_name: `Desk${"Assistant".repeat(20)}` });

    const context = await newContext();
    const page = await context.newPage();
    await signUp(page, app.base, "consent@example.com");
    for (const [state, clientId, shown] of [
      ["consent", stripped, "SafeTool"],
      ["consent-long-name", long, `Desk${"Assistant".repeat(20)}`],
    ] as const) {
      await page.goto(`${app.base}${authorizeUrl(ctx, { client_id: clientId, code_challenge: pkce().challenge })}`);
      await page.waitForURL(/\/oauth\/consent\?request=/);
      expect(await page.locator("h1").textContent()).toBe(`Connect “${shown}”?`);
      await expectClean(page, state);
    }
    await context.close();
  });
});

// Shared setup for browser tests: the real app on a loopback port (BASE_URL = that address, so the
// Origin checks pass) and Debian's Chromium driven by playwright-core.
import { chromium, type Browser, type Page } from "playwright-core";
import { testConfig } from "../../src/config.ts";
import { serveOptions } from "../../src/http/serve.ts";
import { silentLogger } from "../../src/log.ts";
import { createTestContext, type TestContext } from "../helpers.ts";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export interface LiveApp {
  base: string;
  ctx: TestContext;
  server: ReturnType<typeof Bun.serve>;
}

/** Serves a fresh test app on 127.0.0.1 with BASE_URL set to the address the browser will use. */
export function startLiveApp(env: Record<string, string> = {}): LiveApp {
  let handle: (r: Request) => Response | Promise<Response> = () => new Response("starting", { status: 503 });
  // The server entry point main.ts uses (Host check, peer address, idle timeouts), over an app made
  // once the port, and so BASE_URL, is known.
  const server = Bun.serve({
    ...serveOptions({ handle: async (r) => handle(r) }, testConfig(env), silentLogger),
    port: 0,
    hostname: "127.0.0.1",
  });
  const base = `http://127.0.0.1:${server.port}`;
  const ctx = createTestContext({ ...env, BASE_URL: base });
  handle = (r) => ctx.app.handle(r);
  return { base, ctx, server };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** Collects dialogs and CSP violations, which must never happen on our pages. */
export function watch(page: Page) {
  const dialogs: string[] = [];
  const cspErrors: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  return { dialogs, cspErrors };
}

export const E2E_PASSWORD = "correct horse battery";

/** Signs up through the real form; the app lands on the Library. */
export async function signUp(page: Page, base: string, email: string, password = E2E_PASSWORD): Promise<void> {
  await page.goto(`${base}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${base}/library`);
}

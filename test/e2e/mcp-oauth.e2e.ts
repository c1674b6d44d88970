// End to end: the MCP SDK's own client with an OAuthClientProvider discovers our authorization
// server, registers, sends a real Chromium through sign-in and consent, exchanges the code, lists
// and calls tools, then refreshes. Run with `bun run test:e2e` (not part of plain `bun test`).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser } from "playwright-core";
import { systemActor } from "../../src/actor.ts";
import { userWithKey, type TestContext } from "../helpers.ts";
import { launchChromium, startLiveApp } from "./browser.ts";

let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let callback: ReturnType<typeof Bun.serve>;
let ctx: TestContext;
let base: string;
const codes: ((params: URLSearchParams) => void)[] = [];

/** A desktop-style MCP client: everything in memory, the authorization URL handed to the test's browser. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  expectedState = crypto.randomUUID();
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "E2E Desk Client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state = () => this.expectedState;
  clientInformation = () => this.info;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (t: OAuthTokens) => void (this.saved = t);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
}

beforeAll(async () => {
  ({ base, ctx, server } = startLiveApp());
  // The client's loopback redirect endpoint, as a desktop app would run it.
  callback = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => {
      const params = new URL(request.url).searchParams;
      codes.shift()?.(params);
      return new Response("<!doctype html><title>Connected</title><p>You can close this window.</p>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop(true);
  await callback?.stop(true);
});

const nextRedirect = () => new Promise<URLSearchParams>((resolve) => codes.push(resolve));

function connect(provider: MemoryProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  const client = new Client({ name: "e2e", version: "1.0.0" });
  return { transport, client, done: client.connect(transport) };
}

async function search(client: Client, query: string): Promise<{ data: { title: string }[] }> {
  const result = await client.callTool({ name: "search", arguments: { query } });
  if (!("structuredContent" in result) || result.isError) throw new Error(`search failed: ${JSON.stringify(result)}`);
  return result.structuredContent as { data: { title: string }[] };
}

describe("MCP over OAuth with a real browser", () => {
  test("discovery → registration → sign-in and consent → token → tools → refresh", async () => {
    const { email, userId } = await userWithKey(ctx);
    await ctx.services.notes.create(systemActor(userId, "seed"), {
      title: "Kettle",
      content: "Descale the kettle with citric acid every month.",
    });
    const provider = new MemoryProvider(`http://127.0.0.1:${callback.port}/callback`);

    // 1. The first connection is refused with 401; the SDK discovers, registers and asks us to redirect.
    const first = connect(provider);
    await expect(first.done).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^cli_/);
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${base}/oauth/authorize`);
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl.searchParams.get("resource")).toBe(`${base}/mcp`);

    // 2. The user signs in and allows the app in Chromium; the browser lands on the client's callback.
    const context = await browser.newContext();
    const page = await context.newPage();
    const redirected = nextRedirect();
    await page.goto(authUrl.href);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("password123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/oauth\/consent\?request=/);
    expect(await page.locator("h1").textContent()).toBe("Connect “E2E Desk Client”?");
    expect(await page.textContent("main")).toContain(`127.0.0.1:${callback.port}`);
    await page.getByRole("button", { name: "Allow" }).click();
    const params = await redirected;
    await page.waitForURL(/\/callback\?/);
    expect(params.get("state")).toBe(provider.expectedState);
    expect(params.get("iss")).toBe(base);
    const code = params.get("code")!;
    expect(code).toMatch(/^cpac_/);

    // 3. Code → tokens, then the tools.
    await first.transport.finishAuth(code);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const second = connect(provider);
    await second.done;
    const { tools } = await second.client.listTools();
    expect(tools.map((t) => t.name)).toContain("search");
    const hit = await search(second.client, "descale kettle");
    expect(hit.data.map((h) => h.title)).toEqual(["Kettle"]);

    // 4. The access token stops working (revoked here, as if expired); the SDK refreshes and retries.
    const oldRefresh = provider.saved!.refresh_token!;
    const revoke = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: provider.saved!.access_token, client_id: provider.info!.client_id }),
    });
    expect(revoke.status).toBe(200);
    const again = await search(second.client, "citric");
    expect(again.data).toHaveLength(1);
    expect(provider.saved!.refresh_token).not.toBe(oldRefresh);

    // 5. The app is listed in Settings → Connected apps.
    await page.goto(`${base}/settings/apps`);
    expect(await page.locator('td[data-label="App"]').allTextContents()).toEqual(["E2E Desk Client"]);
    await second.client.close();
    await context.close();
  });
});

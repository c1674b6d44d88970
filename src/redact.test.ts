// No secret reaches a log line: the scrubber's patterns, and captured logs of a webhook delivery and an OAuth exchange.
import { describe, expect, test } from "bun:test";
import { testConfig } from "./config.ts";
import { openTestDatabase } from "./db/client.ts";
import { createApp } from "./app.ts";
import { createLogger } from "./log.ts";
import { redactSecrets } from "./redact.ts";
import { createServices } from "./services.ts";
import { call, userWithKey, type TestContext } from "../test/helpers.ts";
import { authorizeUrl, consent, pkce, REDIRECT, registeredClient, token } from "./features/oauth/test-flow.ts";
import { signUp, testBrowser } from "../test/browser-client.ts";
import { fire, runToEnd, webhookWorkflow } from "./features/workflows/testing.ts";

describe("redactSecrets", () => {
  test.each([
    ["/api/webhooks/workflows/cpw_abcdEFGHijklmnopqrstuvwxyz0123456789ABCDEFG", "/api/webhooks/workflows/cpw_abcd…"],
    ["key cpk_0123456789abcdefghijklmnopqrstuvwxyzABCDEF", "key cpk_0123…"],
    ["cpat_aaaaBBBB cprt_ccccDDDD cpac_eeeeFFFF whsec_ggg+/HHH=", "cpat_aaaa… cprt_cccc… cpac_eeee… whsec_ggg+…"],
    ["authorization: Bearer abc.def-ghi", "authorization: Bearer [redacted]"],
    ["/callback?code=xyz&state=s1", "/callback?code=[redacted]&state=s1"],
    [
      "grant_type=refresh_token&refresh_token=r1&client_secret=s2&password=p3",
      "grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]&password=[redacted]",
    ],
    ["https://feeds.example/private.xml?token=t0p", "https://feeds.example/private.xml?token=[redacted]"],
    ["smtp://bob:hunter2@mail.example:587", "smtp://bob:[redacted]@mail.example:587"],
    [
      '{"password":"p\\"w","refresh_token":"r","Authorization":"Basic x"}',
      '{"password":"[redacted]","refresh_token":"[redacted]","Authorization":"[redacted]"}',
    ],
  ])("%s", (input, out) => expect(redactSecrets(input)).toBe(out));

  test("leaves ordinary lines, ids and error codes alone", () => {
    const line =
      '{"msg":"request","request_id":"r1","path":"/api/v1/sources/src_01J","status":404,"code":"not_found","token_id":"wht_1","error_code":"x"}';
    expect(redactSecrets(line)).toBe(line);
  });
});

/** The real app over an in-memory database, logging at debug level into an array. */
function loggedContext(): TestContext & { logs(): string } {
  let out = "";
  const logger = createLogger("debug", (chunk) => void (out += chunk));
  const config = testConfig();
  const db = openTestDatabase();
  const services = createServices({ config, db, logger });
  const app = createApp(services);
  return {
    config,
    db,
    services,
    app,
    queue: services.queue,
    runner: services.runner,
    logs: () => {
      logger.flush();
      return out;
    },
  };
}

describe("captured logs", () => {
  test("a webhook delivery logs the token only as a hint", async () => {
    const ctx = loggedContext();
    const { key } = await userWithKey(ctx);
    const wf = await webhookWorkflow(ctx, key, [{ id: "nb", type: "create_notebook", name: "From {{ who }}" }]);
    const tokenValue = wf.path.split("/").pop()!;
    expect(tokenValue).toMatch(/^cpw_/);
    const run = await runToEnd(ctx, key, (await fire(ctx, wf.path, { who: "a script" })).runs[0]!);
    expect(run.status).toBe("succeeded");
    expect((await call(ctx, "POST", `${wf.path}x`, { body: {} })).status).toBe(404);
    const logs = ctx.logs();
    expect(logs).toContain(`"path":"/api/webhooks/workflows/${tokenValue.slice(0, 8)}…"`);
    expect(logs).not.toContain(tokenValue.slice(8, 20));
    expect(logs).not.toContain(key.slice(8));
  });

  test("an OAuth authorization, code exchange and refresh log no code, verifier or token", async () => {
    const ctx = loggedContext();
    const clientId = await registeredClient(ctx);
    const b = testBrowser(ctx);
    await signUp(b, "ada@example.com", "a long sign-in password");
    const { verifier, challenge } = pkce();
    const back = await consent(b, authorizeUrl(ctx, { client_id: clientId, code_challenge: challenge }));
    const code = back.searchParams.get("code")!;
    const resource = `${ctx.config.baseUrl}/mcp`;
    const first = await token(ctx, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
      resource,
    });
    expect(first.status, first.text).toBe(200);
    const second = await token(ctx, {
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
      client_id: clientId,
      resource,
    });
    expect(second.status, second.text).toBe(200);
    // A replayed code is refused; its refusal is logged without it too.
    expect(
      (
        await token(ctx, {
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
          client_id: clientId,
          resource,
        })
      ).status,
    ).toBe(400);
    const logs = ctx.logs();
    expect(logs).toContain('"path":"/oauth/token"');
    const secrets = [
      code,
      verifier,
      first.body.access_token,
      first.body.refresh_token,
      second.body.access_token,
      second.body.refresh_token,
      "a long sign-in password",
    ];
    for (const s of secrets)
      expect({ secret: s, found: logs.includes(s) || logs.includes(s.slice(9)) }).toEqual({ secret: s, found: false });
    for (const line of logs.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });
});

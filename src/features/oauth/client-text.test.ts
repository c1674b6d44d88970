// Client-chosen strings cannot reorder or hide text: registration refuses control and bidi characters
// in every field (OAuth's error format), and rows stored before that are shown without them.
import { describe, expect, test } from "bun:test";
import { createTestContext } from "../../../test/helpers.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { signUp, testBrowser } from "../../../test/browser-client.ts";
import { authorizeUrl, connectedUser, pkce, register, registeredClient, REDIRECT } from "./test-flow.ts";

const RLO = "\u202e";

describe("registration refuses control and bidi characters", () => {
  test.each([
    [{ client_name: `Safe${RLO}lper` }, "invalid_client_metadata", "client_name"],
    [{ client_name: "Tab\there" }, "invalid_client_metadata", "client_name"],
    [{ client_name: "zero\u200bwidth" }, "invalid_client_metadata", "client_name"],
    [{ client_name: "isolate\u2067x" }, "invalid_client_metadata", "client_name"],
    [{ redirect_uris: [REDIRECT, `https://evil${RLO}.example/cb`] }, "invalid_redirect_uri", "redirect_uris.1"],
    [{ client_uri: `https://tool.example/${RLO}` }, "invalid_client_metadata", "client_uri"],
    [{ software_id: `id\u0000` }, "invalid_client_metadata", "software_id"],
    [{ software_version: `1.0${RLO}` }, "invalid_client_metadata", "software_version"],
    [{ scope: `mcp\u2028` }, "invalid_client_metadata", "scope"],
  ])("%o → %s", async (body, error, path) => {
    const ctx = createTestContext();
    const res = await register(ctx, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body.error).toBe(error);
    expect(res.body.error_description).toStartWith(`${path} must not contain control characters`);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM oauth_clients")).toEqual({ n: 0 });
  });

  test("ordinary names in any script are accepted", async () => {
    const ctx = createTestContext();
    const res = await register(ctx, { client_name: "Reader — عربي 日本 Ünïcödé" });
    expect(res.status).toBe(201);
    expect(res.body.client_name).toBe("Reader — عربي 日本 Ünïcödé");
  });
});

describe("names stored before the rule are shown without those characters", () => {
  test("the consent page and Connected apps strip them", async () => {
    const ctx = createTestContext();
    const clientId = await registeredClient(ctx, { client_name: "placeholder" });
    await sqlRows(ctx.db, "UPDATE oauth_clients SET name = ? WHERE id = ?", `Safe${RLO}\u200bTool\u0007`, clientId);
    const b = testBrowser(ctx);
    await signUp(b, "ada@example.com");
    const start = await b.get(authorizeUrl(ctx, { client_id: clientId, code_challenge: pkce().challenge }));
    const page = await b.get(start.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<strong>SafeTool</strong> asks to use your Commonplace library");
    expect(page.text).not.toContain(RLO);
    expect(page.text).not.toContain("\u200b");
  }, 60_000);

  test("a name of nothing but such characters falls back to the redirect host", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    await sqlRows(ctx.db, "UPDATE oauth_clients SET name = ? WHERE id = ?", `${RLO}\u200b`, u.clientId);
    const apps = await u.b.get("/settings/apps");
    expect(apps.text).toContain('<td data-label="App">127.0.0.1:8976</td>');
    expect(apps.text).not.toContain(RLO);
  }, 60_000);
});

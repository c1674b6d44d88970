// Errors in the browser are pages: unknown pages, wrong methods, oversized forms and failures render
// the layout with a message and links onward; the API, MCP and discovery documents keep problem+json.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../test/helpers.ts";
import { setup } from "./library/test-helpers.ts";
import { testBrowser } from "../../test/browser-client.ts";

const isPage = (r: { status: number; headers: Headers; text: string }) => {
  expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(r.text).toStartWith("<!doctype html>");
};

describe("error pages", () => {
  test("an unknown page is a 404 page with links on, signed in or not", async () => {
    const { ctx, b } = await setup();
    for (const path of [
      "/no-such-page",
      "/library/sources/src_01J00000000000000000000000/nothing",
      "/podcasts/x/y/z",
    ]) {
      const r = await b.get(path);
      expect(r.status).toBe(404);
      isPage(r);
      expect(r.text).toContain("<h1>Page not found</h1>");
      expect(r.text).toContain(`There is no page at ${path}.`);
      expect(r.text).toContain('<a href="/library">Your library</a>');
      expect(r.text).toContain('action="/signout"'); // the signed-in menu
      expect(r.text).toMatch(/request id <code>[^<]+<\/code>/);
    }
    const anon = await testBrowser(ctx).get("/no-such-page");
    expect(anon.status).toBe(404);
    isPage(anon);
    expect(anon.text).toContain('<a href="/signin">Sign in</a>');
    expect(anon.text).not.toContain('action="/signout"');
  });

  test("a wrong method is a 405 page that keeps Allow; an oversized form is a 413 page", async () => {
    const { b } = await setup({ MAX_BODY_BYTES: "2048" });
    const r = await b.post("/library", { x: "1" });
    expect(r.status).toBe(405);
    isPage(r);
    expect(r.headers.get("allow")).toBe("GET");
    const form = { url: "https://example.com/", title: "x".repeat(5000) };
    const big = await b.post("/library/sources", form, {
      "content-length": String(new URLSearchParams(form).toString().length),
    });
    expect(big.status).toBe(413);
    isPage(big);
  });

  test("a failure inside a page renders the layout with a 500 and no internals", async () => {
    const { ctx, b } = await setup();
    // Every query now throws, starting with the session lookup.
    await ctx.db.end();
    const r = await b.get("/library");
    expect(r.status).toBe(500);
    isPage(r);
    expect(r.text).toContain("<h1>Something went wrong</h1>");
    expect(r.text).not.toContain("closed");
    expect(r.text).toContain('<a href="/signin">Sign in</a>');
  });

  test("what a person typed in the address stays text", async () => {
    const { b } = await setup();
    const r = await b.get("/x'\"><svg onload=alert(1)>");
    expect(r.status).toBe(404);
    expect(r.text).not.toContain("<svg");
    expect(r.text).toContain("There is no page at /x&#39;&quot;&gt;&lt;svg onload=alert(1)&gt;.");
  });

  test("the API, MCP, discovery and OAuth endpoints keep problem+json", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    for (const [method, path] of [
      ["GET", "/api/v1/nothing"],
      ["GET", "/api/nothing"],
      ["GET", "/mcp/x"],
      ["GET", "/.well-known/nothing"],
      ["PUT", "/oauth/token"],
    ] as const) {
      const r = await call(ctx, method, path, { key: u.key });
      expect({ path, type: r.headers.get("content-type") }).toEqual({ path, type: "application/problem+json" });
    }
  });
});

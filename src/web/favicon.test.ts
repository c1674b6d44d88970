// The site icon: served as SVG, /favicon.ico points at it, and every page links it.
import { expect, test } from "bun:test";
import { createTestContext } from "../../test/helpers.ts";

test("GET /favicon.svg is an SVG image; /favicon.ico redirects to it; pages link it", async () => {
  const ctx = createTestContext();
  const svg = await ctx.app.handle(new Request("http://localhost/favicon.svg"));
  expect(svg.status).toBe(200);
  expect(svg.headers.get("content-type")).toBe("image/svg+xml");
  expect(svg.headers.get("cache-control")).toContain("max-age=");
  const text = await svg.text();
  expect(text).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"');
  expect(text).not.toContain("<script");

  const ico = await ctx.app.handle(new Request("http://localhost/favicon.ico"));
  expect(ico.status).toBe(301);
  expect(ico.headers.get("location")).toBe("/favicon.svg");

  const page = await ctx.app.handle(new Request("http://localhost/signin"));
  expect(await page.text()).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  // The page's CSP lets the browser load it (icons are images).
  expect(page.headers.get("content-security-policy")).toContain("img-src 'self'");
});

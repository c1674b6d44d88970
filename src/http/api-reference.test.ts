// /api/docs is served by the app itself: no third-party URL in the page, the bundle from our own route.
import { describe, expect, test } from "bun:test";
import { call, createTestContext } from "../../test/helpers.ts";
import { apiReferenceBundleFile } from "./api-reference.ts";

const BASE = "https://library.example.org";

async function docsPage() {
  const ctx = createTestContext({ BASE_URL: BASE });
  const page = await call(ctx, "GET", "/api/docs");
  const script = /<script src="([^"]+)"><\/script>/.exec(page.text)?.[1];
  return { ctx, page, script: script! };
}

describe("GET /api/docs", () => {
  test("references nothing on another host", async () => {
    const { page } = await docsPage();
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Any absolute URL in the page (attributes, inline text, the embedded configuration) is a load
    // or a link somewhere else; the page needs none.
    const html = page.text.replaceAll("&#34;", '"');
    expect(html.match(/\b(?:https?:)?\/\/[a-z0-9.-]+/gi) ?? []).toEqual([]);
    for (const [, url] of html.matchAll(/\b(?:src|href)="([^"]*)"/g)) expect(url).toStartWith("/api/");
  });

  test("turns off Scalar's hosted services and fonts", async () => {
    const { page } = await docsPage();
    const config = JSON.parse(/data-configuration="([^"]*)"/.exec(page.text)![1]!.replaceAll("&#34;", '"'));
    expect(config).toMatchObject({
      url: "/api/openapi.json",
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      proxyUrl: "",
      agent: { disabled: true },
      mcp: { disabled: true },
    });
  });

  test("a CSP lets the browser load scripts, styles, fonts and data only from this server", async () => {
    const { page } = await docsPage();
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("font-src 'self' data:;");
    expect(csp).toContain(`connect-src 'self' ${BASE};`);
  });
});

describe("GET /api/docs/assets/{name}", () => {
  test("serves the pinned package's standalone bundle as JavaScript, cacheable forever", async () => {
    const { ctx, script } = await docsPage();
    expect(script).toMatch(/^\/api\/docs\/assets\/api-reference\.[0-9a-f]{16}\.js$/);
    const r = await call(ctx, "GET", script);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.text).toBe(await Bun.file(apiReferenceBundleFile(import.meta.dir)).text());
    expect(r.text).toContain("createApiReference");
  });

  test("gzip when asked, 304 on a matching ETag", async () => {
    const { ctx, script } = await docsPage();
    const url = `http://localhost${script}`;
    const zipped = await ctx.app.handle(new Request(url, { headers: { "accept-encoding": "gzip, br" } }));
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("accept-encoding");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(Bun.file(apiReferenceBundleFile(import.meta.dir)).size / 2);
    expect(Bun.gunzipSync(bytes).byteLength).toBe(Bun.file(apiReferenceBundleFile(import.meta.dir)).size);
    const etag = zipped.headers.get("etag")!;
    const again = await ctx.app.handle(new Request(url, { headers: { "if-none-match": etag } }));
    expect(again.status).toBe(304);
  });

  test("any other name is a 404 problem", async () => {
    const { ctx } = await docsPage();
    const r = await call(ctx, "GET", "/api/docs/assets/api-reference.0000000000000000.js");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
  });
});

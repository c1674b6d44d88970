// The browser extension's pages through the real app: connecting by approval (the key only in the
// fragment, named after the browser's label), cancelling, CSRF, the downloads and Settings → Browser extension.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, createTestContext } from "../../test/helpers.ts";
import { hiddenFields, signUp, testBrowser } from "../../test/browser-client.ts";
import { sqlRow, sqlRows } from "../db/inspect.ts";
import { extensionLabel } from "./extension-pages.ts";

const KEY_RE = /cpk_[0-9A-Za-z]{46}/g;
const dist = mkdtempSync(join(tmpdir(), "commonplace-extension-"));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

async function signedIn(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  const b = testBrowser(ctx);
  await signUp(b, "ada@example.com");
  return { ctx, b };
}

const CONNECT = `/extension/connect?client=${encodeURIComponent("Chromium on Linux")}`;

describe("connecting the extension", () => {
  test("a signed-out visitor signs in first and comes back to the approval", async () => {
    const ctx = createTestContext();
    const b = testBrowser(ctx);
    const res = await b.get(CONNECT);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/signin?next=${encodeURIComponent(CONNECT)}`);
    const signup = await b.submit(`/signup?next=${encodeURIComponent(CONNECT)}`, "/signup", {
      email: "bo@example.com",
      password: "correct horse battery",
      name: "",
    });
    expect(signup.status).toBe(303);
    const back = await b.get(CONNECT);
    expect(back.status).toBe(200);
    expect(back.text).toContain("Browser extension — Chromium on Linux</strong> wants to save to your library");
  });

  test("approving makes a named key, handed over only in the fragment; it works and is listed", async () => {
    const { ctx, b } = await signedIn();
    const page = await b.get(CONNECT);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text).toContain("<h1>Connect the browser extension?</h1>");
    expect(page.text.match(KEY_RE)).toBeNull();
    const res = await b.post("/extension/connect", {
      ...hiddenFields(page.text, "/extension/connect"),
      decision: "approve",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const m = /^\/extension\/connected#key=(cpk_[0-9A-Za-z]{46})$/.exec(res.location ?? "");
    expect(m).not.toBeNull();
    const key = m![1]!;
    expect(res.text).not.toContain(key);

    const me = await call(ctx, "GET", "/api/v1/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.auth).toMatchObject({ type: "api_key", key_name: "Browser extension — Chromium on Linux" });
    const keys = await b.get("/settings/keys");
    expect(keys.text).toContain("Browser extension — Chromium on Linux");
    expect(keys.text).not.toContain(key);

    // The same approval sent again makes no second key.
    const again = await b.post("/extension/connect", {
      ...hiddenFields(page.text, "/extension/connect"),
      decision: "approve",
    });
    expect(again.status).toBe(409);
    expect(again.text.match(KEY_RE)).toBeNull();
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 1 });
  });

  test("cancelling makes no key and says so in the fragment", async () => {
    const { ctx, b } = await signedIn();
    const page = await b.get(CONNECT);
    const res = await b.post("/extension/connect", {
      ...hiddenFields(page.text, "/extension/connect"),
      decision: "cancel",
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/extension/connected#error=denied");
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 0 });
  });

  test("a post without the form's token, or from another site, is refused and makes no key", async () => {
    const { ctx, b } = await signedIn();
    const page = await b.get(CONNECT);
    const fields = hiddenFields(page.text, "/extension/connect");
    const noToken = await b.post("/extension/connect", { ...fields, csrf: "", decision: "approve" });
    expect(noToken.status).toBe(403);
    expect(noToken.text.match(KEY_RE)).toBeNull();
    expect(noToken.location).toBeNull();
    const crossSite = await b.post(
      "/extension/connect",
      { ...fields, decision: "approve" },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM api_keys")).toEqual({ n: 0 });
  });

  test("the label is kept to 60 printable characters, and escaped wherever it is shown", async () => {
    expect(extensionLabel("Chromium on Linux")).toBe("Chromium on Linux");
    expect(extensionLabel("Fire\u202Efox\u0000 on\n\t Mac\u200B")).toBe("Firefox on Mac");
    expect(extensionLabel("x".repeat(80))).toBe("x".repeat(60));
    expect(extensionLabel("\u0007\u202E")).toBe("Unnamed browser");
    expect(extensionLabel(undefined)).toBe("Unnamed browser");

    const { ctx, b } = await signedIn();
    const label = `<script>alert(1)</script>\u202E"${"y".repeat(80)}`;
    const page = await b.get(`/extension/connect?client=${encodeURIComponent(label)}`);
    expect(page.text).not.toContain("<script>alert(1)");
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;");
    expect(page.text).not.toContain("\u202E");
    // A browser sends the hidden field's value unescaped.
    const fields = hiddenFields(page.text, "/extension/connect");
    const client = fields.client!.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"');
    const res = await b.post("/extension/connect", {
      ...fields,
      client: client.replaceAll("&amp;", "&"),
      decision: "approve",
    });
    expect(res.status).toBe(303);
    const [row] = await sqlRows<{ name: string }>(ctx.db, "SELECT name FROM api_keys");
    const expected = `<script>alert(1)</script>"${"y".repeat(34)}`;
    expect(row!.name).toBe(`Browser extension — ${expected}`);
    const keys = await b.get("/settings/keys");
    expect(keys.text).not.toContain("<script>alert(1)");
  });

  test("the connected page is static: the right message by the fragment, never reading or sending the key", async () => {
    const ctx = createTestContext();
    const res = await testBrowser(ctx).get("/extension/connected");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Connected — you can close this tab");
    expect(res.text).toContain('id="connect-denied" aria-labelledby="connect-denied-title" hidden');
    const script = /<script>([^<]*#error=[^<]*)<\/script>/.exec(res.text)?.[1] ?? "";
    expect(script).not.toMatch(/fetch|XMLHttpRequest|sendBeacon|key=|localStorage|postMessage/);
    const hash = `'sha256-${new Bun.CryptoHasher("sha256").update(script).digest("base64")}'`;
    expect(res.headers.get("content-security-policy")).toContain(hash);
    expect(res.headers.get("content-security-policy")).toContain("connect-src 'self'");
  });
});

describe("the packed extension and Settings → Browser extension", () => {
  test("zips are served from the build directory when present, and 404 with how to build them when absent", async () => {
    const ctx = createTestContext({ EXTENSION_DIST_DIR: dist });
    const bytes = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
    writeFileSync(join(dist, "commonplace-chromium.zip"), bytes);
    const b = testBrowser(ctx);
    const zip = await ctx.app.handle(new Request("http://localhost/extension/commonplace-chromium.zip"));
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toBe('attachment; filename="commonplace-chromium.zip"');
    expect(new Uint8Array(await zip.arrayBuffer())).toEqual(bytes);
    const missing = await b.get("/extension/commonplace-firefox.zip");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toContain("text/html");
    expect(missing.text).toContain("bun run build:extension");

    const elsewhere = createTestContext({ EXTENSION_DIST_DIR: join(dist, "nothing-here") });
    expect((await testBrowser(elsewhere).get("/extension/commonplace-chromium.zip")).status).toBe(404);
  });

  test("the settings page offers the downloads, install steps and the bookmarklet, and is listed in Settings", async () => {
    const { b } = await signedIn({ EXTENSION_DIST_DIR: dist, BASE_URL: "https://notes.example" });
    writeFileSync(join(dist, "commonplace-chromium.zip"), new Uint8Array(2048));
    const index = await b.get("/settings");
    expect(index.text).toContain('<a href="/settings/extension">Browser extension</a>');
    const res = await b.get("/settings/extension");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<h1>Browser extension</h1>");
    expect(res.text).toContain('<a href="/extension/commonplace-chromium.zip" download>');
    expect(res.text).toContain("chrome://extensions");
    expect(res.text).toContain("about:debugging");
    expect(res.text).toContain("Load Temporary Add-on");
    // Firefox's zip is not built in this directory: the page says how to build it.
    expect(res.text).toContain("bun run build:extension");
    const href = /<a href="(javascript:[^"]+)">Save to Commonplace<\/a>/.exec(res.text)?.[1];
    expect(href).toBeDefined();
    const code = href!.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");
    expect(code).toContain('"https://notes.example/save?url="+encodeURIComponent(location.href)');
    expect(code).toContain("encodeURIComponent(document.title)");
    expect(res.text).toContain('<label for="bookmarklet-code">');

    const out = await testBrowser(createTestContext()).get("/settings/extension");
    expect(out.status).toBe(303);
    expect(out.location).toBe(`/signin?next=${encodeURIComponent("/settings/extension")}`);
  });
});

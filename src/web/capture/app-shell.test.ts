// The installable app: the manifest's fields and share target, the PNG icons, the pages' links to them,
// the CSP that admits manifest and worker, and a service worker that keeps only the shell.
import { describe, expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { createTestContext } from "../../../test/helpers.ts";
import { LIVE_SCRIPT_PATH } from "../../http/html/live-script.ts";
import { MANIFEST, SERVICE_WORKER, SHELL } from "./app-shell.ts";
import { readShared } from "./shared-url.ts";

const ctx = createTestContext();
const get = (path: string) => ctx.app.handle(new Request(`http://localhost${path}`));

/** Width, height and the RGBA pixels of a PNG the icons module wrote (unfiltered rows). */
function readPng(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const [w, h] = [view.getUint32(16), view.getUint32(20)];
  const idatLength = view.getUint32(33);
  const rows = inflateSync(bytes.subarray(41, 41 + idatLength));
  const px = (x: number, y: number) => [...rows.subarray(y * (w * 4 + 1) + 1 + x * 4, y * (w * 4 + 1) + 5 + x * 4)];
  return { w, h, px };
}

describe("web app manifest", () => {
  test("is served as a manifest with the app's name, start, colours, icons and share target", async () => {
    const res = await get("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/manifest+json");
    const m = await res.json();
    expect(m).toMatchObject({
      name: "Commonplace",
      short_name: "Commonplace",
      start_url: "/library",
      scope: "/",
      display: "standalone",
      theme_color: "#ffffff",
      background_color: "#fbfbfa",
      share_target: { action: "/share", method: "GET", params: { title: "title", text: "text", url: "url" } },
    });
    const sizes = (purpose: string) => m.icons.filter((i: any) => i.purpose === purpose).map((i: any) => i.sizes);
    expect(sizes("any")).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(sizes("maskable")).toEqual(["512x512"]);
    expect(m).toEqual(JSON.parse(JSON.stringify(MANIFEST)));
  });

  test("every icon it names is served as a PNG of that size", async () => {
    for (const icon of MANIFEST.icons.filter((i) => i.type === "image/png")) {
      const res = await get(icon.src);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const { w, h, px } = readPng(new Uint8Array(await res.arrayBuffer()));
      expect(`${w}x${h}`).toBe(icon.sizes);
      // The accent tile with the white page in the middle; the rounded "any" icons are clear in the corner.
      expect(px(w / 2, h / 2)).toEqual([255, 255, 255, 255]);
      expect(px(Math.round(w * 0.06), h / 2)).toEqual([0x29, 0x52, 0xcc, 255]);
      expect(px(0, 0)[3]).toBe(icon.purpose === "maskable" ? 255 : 0);
    }
    const apple = await get("/apple-touch-icon.png");
    expect(readPng(new Uint8Array(await apple.arrayBuffer())).w).toBe(180);
    expect((await get("/icons/nope.png")).status).toBe(404);
  }, 60_000); // draws and encodes every icon: seconds on a busy machine (as long as the PostgreSQL lane allows)

  test("pages link the manifest and Apple's icon and tags; their CSP admits the manifest and the worker", async () => {
    const res = await get("/signin");
    const text = await res.text();
    expect(text).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    expect(text).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png">');
    expect(text).toContain(
      `<meta name="theme-color" content="${MANIFEST.theme_color}" media="(prefers-color-scheme: light)">`,
    );
    expect(text).toContain('<meta name="apple-mobile-web-app-title" content="Commonplace">');
    expect(text).toContain('navigator.serviceWorker.register("/sw.js", { scope: "/" })');
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
  });
});

describe("service worker", () => {
  test("/sw.js is JavaScript, revalidated, at the root", async () => {
    const res = await get("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe(SERVICE_WORKER);
  });

  test("keeps only the app shell: pages, /api, the event stream and forms go to the network untouched", async () => {
    const listeners: Record<string, (e: any) => void> = {};
    const precached: string[][] = [];
    const self = {
      location: { origin: "https://cp.example" },
      addEventListener: (type: string, fn: (e: any) => void) => (listeners[type] = fn),
      skipWaiting: () => Promise.resolve(),
      clients: { claim: () => Promise.resolve() },
    };
    const cache = {
      addAll: (urls: string[]) => (precached.push(urls), Promise.resolve()),
      match: () => Promise.resolve(undefined),
      put: () => Promise.resolve(),
    };
    const caches = {
      open: () => Promise.resolve(cache),
      keys: () => Promise.resolve([]),
      delete: () => Promise.resolve(true),
    };
    // The worker's own source, run against stand-ins for the worker globals.
    // oxlint-disable-next-line typescript/no-implied-eval
    new Function("self", "caches", "fetch", SERVICE_WORKER)(self, caches, () => Promise.resolve(new Response("x")));

    let installing: Promise<unknown> | undefined;
    listeners.install!({ waitUntil: (p: Promise<unknown>) => (installing = p) });
    await installing;
    expect(precached).toEqual([SHELL]);
    expect(SHELL).toContain(LIVE_SCRIPT_PATH);
    expect(SHELL.some((p) => p.startsWith("/api") || p.startsWith("/library") || p.startsWith("/events"))).toBe(false);

    const answered = (method: string, url: string) => {
      let handled = false;
      listeners.fetch!({ request: { method, url }, respondWith: () => (handled = true) });
      return handled;
    };
    expect(answered("GET", `https://cp.example${LIVE_SCRIPT_PATH}`)).toBe(true);
    expect(answered("GET", "https://cp.example/icons/icon-192.png")).toBe(true);
    for (const path of [
      "/api/v1/sources",
      "/api/v1/me",
      "/library",
      "/events/stream",
      "/share?url=x",
      "/sw.js",
      "/assets/live.js?v=old",
    ])
      expect({ path, handled: answered("GET", `https://cp.example${path}`) }).toEqual({ path, handled: false });
    expect(answered("POST", "https://cp.example/signout")).toBe(false);
    expect(answered("GET", `https://elsewhere.example${LIVE_SCRIPT_PATH}`)).toBe(false);
  });
});

describe("reading what was shared", () => {
  test("the url field first, then the first http(s) link in the text, without the sentence's punctuation", () => {
    expect(readShared({ url: "https://a.example/x", text: "https://b.example/" })).toEqual({
      url: "https://a.example/x",
      title: "",
    });
    expect(readShared({ title: "T", text: "Read this: https://b.example/p?q=1." })).toEqual({
      url: "https://b.example/p?q=1",
      title: "T",
    });
    expect(readShared({ text: "Great piece\nhttps://b.example/a" })).toEqual({
      url: "https://b.example/a",
      title: "Great piece",
    });
    expect(readShared({ text: "(see https://en.wikipedia.org/wiki/Foo_(bar))" }).url).toBe(
      "https://en.wikipedia.org/wiki/Foo_(bar)",
    );
    expect(readShared({ text: "(see https://b.example/a)" }).url).toBe("https://b.example/a");
    expect(readShared({ url: "", text: "no link here", title: "x" }).url).toBe("");
    // Not a link we fetch: handed on as given, so the page can say what is wrong with it.
    expect(readShared({ url: "ftp://files.example/a" }).url).toBe("ftp://files.example/a");
  });
});

describe("library paste bar", () => {
  test("search answers to the / shortcut and the link field to a, with a hint the script shows", async () => {
    const { setup } = await import("../library/test-helpers.ts");
    const { b } = await setup();
    const page = await b.get("/library");
    expect(page.text).toContain('id="lib-q" name="q" type="search"');
    expect(page.text).toContain('data-shortcut="/" aria-keyshortcuts="/"');
    expect(page.text).toContain('id="f-url" name="url" type="url"');
    expect(page.text).toContain("data-shortcut-hint hidden>Press <kbd>a</kbd> to add a link");
    expect(page.text.indexOf('id="f-url"')).toBeLessThan(page.text.indexOf('aria-label="Views"'));
  });
});

// The archived copy through the whole ingestion path: images fetched, kept and served same-origin, the
// thumbnail; hostile images left out while the source still becomes ready; a build without sharp.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { systemActor } from "../../../actor.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../../../../test/helpers.ts";
import { startTestServer } from "../../../net/test-server.ts";
import { createImageEncoder } from "./images/encode.ts";
import { sniffImage } from "./images/sniff.ts";
import { signedInPerson } from "../../../web/library/test-helpers.ts";
import { bombPng, makeImage, SCRIPTED_SVG } from "./images/testing.ts";

const HUGE = 50 * 1024 * 1024;
let hugeSent = 0;
let slowAsked = 0;
const images = {
  photo: await makeImage("png", 800, 500, "#36c"),
  diagram: await makeImage("jpeg", 300, 200, "#c63"),
  cover: await makeImage("jpeg", 1200, 800, "#3c6"),
  untyped: await makeImage("jpeg", 250, 250, "#999"),
  bomb: bombPng(10_000, 10_000),
};

const site = startTestServer(async (req) => {
  const path = new URL(req.url).pathname;
  const png = (b: Uint8Array, type = "image/png") =>
    new Response(b as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } });
  switch (path) {
    case "/article":
      return new Response(article(), { headers: { "content-type": "text/html; charset=utf-8" } });
    case "/hostile":
      return new Response(hostile(), { headers: { "content-type": "text/html; charset=utf-8" } });
    case "/photo.png":
      return png(images.photo);
    case "/diagram.jpg":
      return png(images.diagram, "image/jpeg");
    case "/cover.jpg":
      return png(images.cover, "image/jpeg");
    // A JPEG sent as octet-stream is still a JPEG: the bytes decide.
    case "/untyped":
      return png(images.untyped, "application/octet-stream");
    case "/bomb.png":
      return png(images.bomb);
    case "/script.svg":
      return new Response(SCRIPTED_SVG, { headers: { "content-type": "image/svg+xml" } });
    // SVG dressed up as a PNG: the sniffing refuses it.
    case "/svg-as.png":
      return new Response(SCRIPTED_SVG, { headers: { "content-type": "image/png" } });
    case "/huge.png":
      // 50 MB streamed without a length, so only reading stops it; counts what was sent.
      return new Response(
        new ReadableStream({
          pull(c) {
            if (hugeSent >= HUGE) return c.close();
            const part = new Uint8Array(64 * 1024);
            if (hugeSent === 0) part.set(images.photo.subarray(0, 64));
            hugeSent += part.length;
            c.enqueue(part);
          },
        }),
        { headers: { "content-type": "image/png" } },
      );
    case "/slow.png":
      slowAsked++;
      await Bun.sleep(4_000);
      return png(images.photo);
    default:
      return new Response("not found", { status: 404 });
  }
});
afterAll(() => site.stop());

const origin = `http://localhost:${site.port}`;
function article() {
  return `<!doctype html><html><head><title>Herons of the marsh</title>
<meta property="og:image" content="/cover.jpg"></head><body><article><h1>Herons of the marsh</h1>
<p>${"Grey herons stand still for minutes before they strike. ".repeat(8)}</p>
<figure><img src="/photo.png" alt="A heron at dawn"><figcaption>At dawn</figcaption></figure>
<p>${"They nest in colonies called heronries, high in the trees. ".repeat(8)}</p>
<p><img src="diagram.jpg" alt="Wing diagram"> and again <img src="/photo.png" alt="A heron at dawn"></p>
<p><img src="/untyped" alt="Untyped"> <img src="/missing.png" alt="Lost"></p>
</article></body></html>`;
}
function hostile() {
  const ip = `http://127.0.0.1:${site.port}`;
  return `<!doctype html><html><head><title>Hostile images</title></head><body><article><h1>Hostile images</h1>
<p>${"Every picture on this page is trouble except one. ".repeat(10)}</p>
<p><img src="/huge.png" alt="huge"><img src="/bomb.png" alt="bomb"><img src="/script.svg" alt="svg"></p>
<p><img src="/svg-as.png" alt="disguised"><img src="${ip}/photo.png" alt="loopback"><img src="http://10.0.0.1/x.png" alt="lan"></p>
<p><img src="/slow.png" alt="slow"><img src="/photo.png" alt="fine"></p>
<p>${"The text itself is perfectly fine to read. ".repeat(10)}</p>
</article></body></html>`;
}

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.runner.stop({ graceMs: 1_000 });
});

/** Loopback is closed except for the name "localhost", which the test site is reached by. */
function context(env: Record<string, string> = {}, opts: Parameters<typeof createTestContext>[1] = {}) {
  const ctx = createTestContext({ ALLOW_PRIVATE_NETWORK: "false", ALLOWED_HOSTS: "localhost", ...env }, opts);
  contexts.push(ctx);
  return ctx;
}

async function save(ctx: TestContext, key: string, path: string) {
  const created = await call(ctx, "POST", "/api/v1/sources", { key, body: { url: `${origin}${path}` } });
  expect(created.status).toBe(201);
  await ctx.runner.drain({ timeoutMs: 30_000 });
  return (await call(ctx, "GET", `/api/v1/sources/${created.body.id}?include=content`, { key })).body;
}

const mediaUrls = (content: string) => [...content.matchAll(/\]\((\/api\/v1\/sources\/[^)]+)\)/g)].map((m) => m[1]!);

describe("the archived copy's images", () => {
  test("article images are kept and served same-origin; the preview image becomes the card thumbnail", async () => {
    const ctx = context();
    const u = await userWithKey(ctx);
    const other = await userWithKey(ctx);
    const s = await save(ctx, u.key, "/article");
    expect(s.status).toBe("ready");
    // Nothing in the Markdown points at the original site any more.
    expect(s.content).not.toContain(`localhost:${site.port}`);
    expect(s.content).not.toContain("Lost");
    expect(s.content).toContain("![A heron at dawn](/api/v1/sources/");
    const urls = mediaUrls(s.content);
    // The photo (twice, one file), the diagram and the untyped JPEG; the 404 was removed.
    expect(urls).toHaveLength(4);
    expect(new Set(urls).size).toBe(3);
    for (const url of urls) expect(url).toMatch(new RegExp(`^/api/v1/sources/${s.id}/media/[0-9a-f]{32}\\.webp$`));

    const media = await call(ctx, "GET", urls[0]!, { key: u.key });
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/webp");
    expect(media.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(media.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await (await ctx.app.handle(authed(urls[0]!, u.key))).arrayBuffer());
    expect(sniffImage(bytes)).toMatchObject({ type: "image/webp", width: 800, height: 500 });
    const again = await call(ctx, "GET", urls[0]!, {
      key: u.key,
      headers: { "if-none-match": media.headers.get("etag")! },
    });
    expect(again.status).toBe(304);

    expect(s.image_url).toBe(`/api/v1/sources/${s.id}/image`);
    const thumb = await ctx.app.handle(authed(s.image_url, u.key));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    expect(thumb.headers.get("x-content-type-options")).toBe("nosniff");
    expect(sniffImage(new Uint8Array(await thumb.arrayBuffer()))).toMatchObject({ width: 640, height: 360 });

    // Owner-scoped: another user, no key, an unknown name.
    expect((await call(ctx, "GET", urls[0]!, { key: other.key })).status).toBe(404);
    expect((await call(ctx, "GET", s.image_url, { key: other.key })).status).toBe(404);
    expect((await call(ctx, "GET", urls[0]!)).status).toBe(401);
    expect((await call(ctx, "GET", `/api/v1/sources/${s.id}/media/nothing.webp`, { key: u.key })).status).toBe(404);
  }, 30_000);

  test("fetching again keeps what is still there; deleting the source deletes its images", async () => {
    const ctx = context();
    const u = await userWithKey(ctx);
    const s = await save(ctx, u.key, "/article");
    const thumbKey = `sources/${s.id}/${(await ctx.services.sources.thumbnail(systemActor(u.userId, "test"), s.id)).name}`;
    const keys = async () =>
      (await ctx.services.blobs.stat(`sources/${s.id}/${mediaUrls(s.content)[0]!.split("/").pop()}`)) !== null;
    expect(await keys()).toBe(true);
    expect(await ctx.services.blobs.stat(thumbKey)).not.toBeNull();
    expect((await call(ctx, "POST", `/api/v1/sources/${s.id}/refetch`, { key: u.key })).status).toBe(202);
    await ctx.runner.drain({ timeoutMs: 30_000 });
    const after = (await call(ctx, "GET", `/api/v1/sources/${s.id}?include=content`, { key: u.key })).body;
    expect(mediaUrls(after.content)).toEqual(mediaUrls(s.content));
    expect(await keys()).toBe(true);
    expect((await call(ctx, "DELETE", `/api/v1/sources/${s.id}`, { key: u.key })).status).toBe(200);
    await waitFor(async () => !(await keys()));
    await waitFor(async () => (await ctx.services.blobs.stat(thumbKey)) === null);
  }, 30_000);

  test("hostile images are left out one by one; the source is ready and the server answers meanwhile", async () => {
    const ctx = context({ IMAGES_TIMEOUT_MS: "1500" });
    const u = await userWithKey(ctx);
    const created = await call(ctx, "POST", "/api/v1/sources", { key: u.key, body: { url: `${origin}/hostile` } });
    const drained = ctx.runner.drain({ timeoutMs: 30_000 });
    // While the slow image is awaited, requests are answered at once.
    await waitFor(() => slowAsked > 0);
    const t0 = performance.now();
    expect((await call(ctx, "GET", "/api/v1/sources", { key: u.key })).status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1_000);
    await drained;
    const s = (await call(ctx, "GET", `/api/v1/sources/${created.body.id}?include=content`, { key: u.key })).body;
    expect(s.status).toBe("ready");
    expect(s.content).toContain("perfectly fine to read");
    // Only the one good image is left; none of the others, not even their alt text.
    expect(mediaUrls(s.content)).toHaveLength(1);
    expect(s.content).toContain("![fine](/api/v1/sources/");
    for (const alt of ["huge", "bomb", "svg", "disguised", "loopback", "lan", "slow"])
      expect(s.content).not.toContain(`[${alt}]`);
    expect(s.content).not.toMatch(/127\.0\.0\.1|10\.0\.0\.1|localhost/);
    // The 50 MB image was cut off near the 5 MB limit, never read whole.
    expect(hugeSent).toBeLessThan(16 * 1024 * 1024);
    // The loopback address was never asked: the guard refused it before connecting.
    expect(site.seen.filter((r) => r.host?.startsWith("127.0.0.1")).length).toBe(0);
  }, 40_000);

  test("without sharp (the compiled binary) the source is ready, article images are kept as fetched, and there is no thumbnail", async () => {
    const ctx = context({}, { imageEncoder: createImageEncoder({ maxPixels: 40_000_000, load: async () => null }) });
    const u = await userWithKey(ctx);
    const s = await save(ctx, u.key, "/article");
    expect(s.status).toBe("ready");
    expect(s.image_url).toBeNull();
    const urls = mediaUrls(s.content);
    expect(urls.map((x) => x.split(".").pop()).sort()).toEqual(["jpg", "jpg", "png", "png"]);
    expect(new Set(urls).size).toBe(3);
    const photo = await ctx.app.handle(authed(urls[0]!, u.key));
    expect(photo.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(new Uint8Array(images.photo));
    expect((await call(ctx, "GET", `/api/v1/sources/${s.id}/image`, { key: u.key })).status).toBe(404);
  }, 30_000);
});

describe("the archived copy in the web app", () => {
  test("the reader shows the kept images at session-authenticated addresses of this site; the card thumbnail is /sources/{id}/image", async () => {
    const ctx = context();
    const me = await signedInPerson(ctx);
    const stranger = await signedInPerson(ctx);
    const s = await save(ctx, me.key, "/article");
    const reader = await me.b.get(`/library/sources/${s.id}`);
    expect(reader.status).toBe(200);
    const article = reader.text.slice(reader.text.indexOf('<article class="r-article"'));
    const srcs = [...article.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs).toHaveLength(4);
    for (const src of srcs) expect(src).toMatch(new RegExp(`^/sources/${s.id}/media/[0-9a-f]{32}\\.webp$`));
    expect(reader.text).not.toContain(`<img src="http`);
    expect(reader.headers.get("content-security-policy")).toContain("img-src 'self' data:;");

    const img = await me.b.get(srcs[0]!);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/webp");
    expect(img.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    const thumb = await me.b.get(`/sources/${s.id}/image`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    // Someone else's session: not found, as for any other source of another person.
    expect((await stranger.b.get(srcs[0]!)).status).toBe(404);
    expect((await stranger.b.get(`/sources/${s.id}/image`)).status).toBe(404);
    // Signed out: sent to sign in, never the image.
    const anonymous = await ctx.app.handle(new Request(`http://localhost/sources/${s.id}/image`));
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("content-type") ?? "").not.toContain("image");
  }, 30_000);
});

function authed(path: string, key: string) {
  return new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } });
}

async function waitFor(ok: () => boolean | Promise<boolean>, ms = 20_000) {
  const until = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > until) throw new Error("timed out");
    await Bun.sleep(20);
  }
}

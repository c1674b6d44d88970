// Podcast audio through the BlobStore: with BLOB_STORE=s3 the finished MP3 lives in the bucket (a local
// s3rver), is served from it whole and by Range, and leaves with the episode; nothing stays in DATA_DIR.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { insertReadySource } from "./testing.ts";

const TINY = "# Tide pools\n\nTide pools hold small animals when the sea goes out. Sea stars grip the rock.\n";

describe("podcast audio in an S3 bucket", () => {
  let server: S3rver;
  let dir: string;
  let ctx: TestContext;
  let key: string;
  let id: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "commonplace-s3-"));
    server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      directory: dir,
      silent: true,
      configureBuckets: [{ name: "audio" }],
    });
    // See docs/decisions.md (Blob store): s3rver's logger must be silenced on the instance under Bun.
    (server as unknown as { logger: { silent: boolean } }).logger.silent = true;
    const { port } = await server.run();
    ctx = createTestContext({
      BLOB_STORE: "s3",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: "audio",
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    });
    const a = await userWithKey(ctx);
    key = a.key;
    const src = await insertReadySource(ctx.services, a.userId, { title: "Tide pools", markdown: TINY });
    id = (await call(ctx, "POST", "/api/v1/podcasts", { key, body: { source_ids: [src], format: "brief" } })).body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
  }, 180_000);

  afterAll(async () => {
    await ctx.services.podcasts.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (headers: Record<string, string> = {}) =>
    ctx.app.handle(
      new Request(`http://localhost/api/v1/podcasts/${id}/audio`, {
        headers: { authorization: `Bearer ${key}`, ...headers },
      }),
    );
  const blob = async () => {
    const b = await ctx.services.blobs.get(`podcasts/${id}.mp3`);
    return b && new Uint8Array(await new Response(b.body).arrayBuffer());
  };

  test("the finished MP3 is in the bucket and only the bucket; GET serves it whole and by Range", async () => {
    expect(ctx.services.blobs.kind).toBe("s3");
    expect((await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key })).body.status).toBe("ready");
    const bytes = (await blob())!;
    expect(bytes.length).toBeGreaterThan(1000);
    const podcastsDir = join(ctx.config.dataDir, "podcasts");
    // Part files are rendered locally and removed; the MP3 itself never lands in DATA_DIR.
    expect(existsSync(podcastsDir) ? readdirSync(podcastsDir) : []).toEqual([]);

    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(bytes.length));
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);

    const part = await get({ range: "bytes=1000-1999" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(1000, 2000));
    expect((await get({ range: `bytes=${bytes.length}-` })).status).toBe(416);
  }, 60_000);

  test("deleting the episode deletes its blob", async () => {
    expect(await blob()).not.toBeNull();
    expect((await call(ctx, "DELETE", `/api/v1/podcasts/${id}`, { key })).status).toBe(200);
    expect(await ctx.services.blobs.stat(`podcasts/${id}.mp3`)).toBeNull();
    expect((await get()).status).toBe(404);
  }, 60_000);
});

// The compiled single-file binary starts on its own: embedded sqlite-vec, migrations, health checks, the icon.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { build } from "../scripts/build.ts";
import { databaseUrl } from "../src/config.ts";
import { apiReferenceBundleFile } from "../src/http/api-reference.ts";
import { run, startServer, tempDir, waitForOk, type ServerProcess } from "./server-process.ts";

const work = tempDir("commonplace-binary-");
let binary = "";
let server: ServerProcess | undefined;

beforeAll(async () => {
  binary = await build({ outfile: join(work.path, "commonplace") });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  work.remove();
});

test("the binary serves /healthz and /readyz with a fresh data directory", async () => {
  const dataDir = join(work.path, "data");
  // Run from a directory without node_modules so only the embedded extension can be loaded.
  server = await startServer([binary], { DATA_DIR: dataDir, LOG_LEVEL: "info" }, { cwd: work.path });
  const health = await waitForOk(`${server.url}/healthz`);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await fetch(`${server.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: "ok", database: "ok" });
  // On the PostgreSQL lane the child gets DATABASE_URL (childEnv), so no SQLite file is made.
  expect(await Bun.file(join(dataDir, "commonplace.db")).exists()).toBe(!databaseUrl());
  const icon = await fetch(`${server.url}/favicon.svg`);
  expect(icon.status).toBe(200);
  expect(await icon.text()).toStartWith("<svg");
  expect(await server.stop()).toBe(0);
  server = undefined;
}, 60_000);

test("the binary serves the API reference's script from inside itself", async () => {
  // Run from a directory without node_modules: the bundle can only come from the executable.
  const docs = await startServer([binary], { DATA_DIR: join(work.path, "docs-data") }, { cwd: work.path });
  try {
    await waitForOk(`${docs.url}/healthz`);
    const page = await (await fetch(`${docs.url}/api/docs`)).text();
    const src = /<script src="(\/api\/docs\/assets\/[^"]+)"/.exec(page)?.[1];
    expect(src).toBeDefined();
    const asset = await fetch(`${docs.url}${src}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await asset.text()).toBe(await Bun.file(apiReferenceBundleFile(import.meta.dir)).text());
  } finally {
    await docs.stop();
  }
}, 60_000);

test("the binary stops with one clear line on a bad variable", async () => {
  const r = await run([binary], { PORT: "abc", DATA_DIR: join(work.path, "bad") }, { cwd: work.path });
  expect(r.code).not.toBe(0);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("PORT");
}, 60_000);

test("the binary carries the speech, MP3 and extraction worker threads", async () => {
  // A probe built exactly like the binary, with a main that synthesises and encodes one sentence
  // and extracts one HTML page in the extraction pool.
  const main = `
    const { createBuiltinSpeech } = await import("./ai/speech/builtin.ts");
    const { createAudioEncoder } = await import("./features/podcasts/audio/encoder.ts");
    const { createExtractPool } = await import("./features/library/sources/extract/pool.ts");
    const speech = createBuiltinSpeech();
    const encoder = createAudioEncoder();
    const pool = createExtractPool({ size: 1, timeoutMs: 30000, maxMemoryMb: 0, limits: { maxDepth: 256, maxPdfPages: 500 } });
    const clip = await speech.synthesize("Hello from the compiled binary.", "host_a");
    const mp3 = await encoder.encodeMp3Async(clip.samples, clip.sampleRate);
    const html = "<html><head><title>Probe page</title></head><body><article><p>" + "Words in a compiled binary. ".repeat(30) + "</p></article></body></html>";
    const doc = await pool.extract({ body: new TextEncoder().encode(html), contentType: "text/html", url: "https://example.com/probe" });
    const { createImageEncoder } = await import("./features/library/sources/images/encode.ts");
    const sharp = await createImageEncoder({ maxPixels: 1000 }).available();
    console.log(JSON.stringify({ samples: clip.samples.length, rate: clip.sampleRate, head: Array.from(mp3.slice(0, 2)), title: doc.title, words: doc.wordCount, sharp }));
    await speech.close();
    await encoder.close();
    await pool.close();
    process.exit(0);`;
  const probe = await build({ outfile: join(work.path, "probe"), main });
  const r = await run([probe], {}, { cwd: work.path });
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout.trim()) as {
    samples: number;
    rate: number;
    head: number[];
    title: string;
    words: number;
    sharp: boolean;
  };
  expect(out.title).toBe("Probe page");
  // sharp's native parts cannot be carried in the binary: it loads lazily and says it is missing, and
  // ingestion then keeps images as fetched without thumbnails (archive.test.ts covers that path).
  expect(out.sharp).toBe(false);
  expect(out.words).toBeGreaterThan(100);
  expect(out.rate).toBe(16000);
  expect(out.samples).toBeGreaterThan(8000);
  // An MPEG audio frame starts with 11 set sync bits.
  expect(out.head[0]).toBe(0xff);
  expect(out.head[1]! & 0xe0).toBe(0xe0);
}, 120_000);

test("the binary carries the neural embedder's worker, weights and WebAssembly", async () => {
  // A probe built exactly like the binary: the encoder must load from inside it, nothing fetched.
  const main = `
    const { createNeuralEmbedder } = await import("./ai/embedder/neural.ts");
    const { dot } = await import("./ai/embedder/port.ts");
    const e = createNeuralEmbedder({ idleMs: 60_000 });
    const [car, auto, bread] = await e.embed(["my car", "an automobile", "sourdough bread"]);
    console.log(JSON.stringify({ dims: car.length, near: dot(car, auto), far: dot(car, bread) }));
    await e.release();
    process.exit(0);`;
  const probe = await build({ outfile: join(work.path, "probe-embed"), main });
  const r = await run([probe], {}, { cwd: work.path });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout.trim()) as { dims: number; near: number; far: number };
  expect(out.dims).toBe(896);
  expect(out.near).toBeGreaterThan(out.far);
}, 180_000);

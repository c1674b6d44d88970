// bench:ingest — POST 1,000 varied article pages served by a local "outside web" (a child process)
// and measure until every source is ready: pages/s and peak RSS of the service.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { createServices } from "../src/services.ts";
import { fmt, trackPeakRss } from "./lib/measure.ts";

const PAGES = Number(process.argv[2] ?? 1000);
const CONCURRENCY = Number(process.env.JOB_CONCURRENCY ?? 16);

const web = Bun.spawn(["bun", "run", join(import.meta.dir, "lib/article-server.ts")], {
  stdout: "pipe",
  stderr: "inherit",
});
const reader = web.stdout.getReader();
const { value } = await reader.read();
const base = new TextDecoder().decode(value).trim();

const dir = mkdtempSync(join(tmpdir(), "cp-bench-ingest-"));
// EXTRACT_WORKERS=0 compares against extraction on the main thread.
const EXTRACT_WORKERS = process.env.EXTRACT_WORKERS ?? "2";
const config = loadConfig({
  EMBEDDER: process.env.EMBEDDER ?? "hashed",
  DATA_DIR: dir,
  ALLOW_PRIVATE_NETWORK: "true",
  LOG_LEVEL: "warn",
  JOB_CONCURRENCY: String(CONCURRENCY),
  JOB_POLL_MS: "20",
  RATE_LIMIT_PER_MINUTE: "1000000",
  EXTRACT_WORKERS,
});
const db = openDatabase(join(dir, "commonplace.db"));
const services = createServices({ config, db });
const app = createApp(services);
const user = await services.accounts.createUser({ email: "bench@example.com", password: "benchmark-password" });
const { key } = await services.keys.create(user.id, "bench");

const rss = trackPeakRss();
const t0 = performance.now();
services.runner.start();
for (let i = 0; i < PAGES; i++) {
  const res = await app.handle(
    new Request("http://localhost/api/v1/sources", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${base}/article/${i}` }),
    }),
  );
  if (res.status !== 201) throw new Error(`POST failed: ${res.status} ${await res.text()}`);
}
const posted = performance.now();
const count = db.sqlite.prepare<{ ready: number; failed: number }, []>(
  "SELECT sum(status = 'ready') ready, sum(status = 'failed') failed FROM sources",
);
for (;;) {
  const c = count.get()!;
  if ((c.ready ?? 0) + (c.failed ?? 0) >= PAGES) break;
  await Bun.sleep(20);
}
const done = performance.now();
// Embedding runs after a source is ready; report when the search index has caught up too.
while ((await services.queue.counts()).queued + (await services.queue.counts()).running > 0) await Bun.sleep(20);
const indexed = performance.now();
const peak = rss.stop();
const c = count.get()!;
await services.runner.stop({ graceMs: 1000 });
await services.extractor.close();
web.kill();
db.close();
rmSync(dir, { recursive: true, force: true });

const secs = (done - t0) / 1000;
console.log(`bench:ingest  pages=${PAGES} job_concurrency=${CONCURRENCY} extract_workers=${EXTRACT_WORKERS}`);
console.log(`posted all in      ${fmt((posted - t0) / 1000)} s`);
console.log(`all ready in       ${fmt(secs)} s  → ${fmt(PAGES / secs, 1)} pages/s (target ≥ 100)`);
console.log(
  `search index done  ${fmt((indexed - t0) / 1000)} s  → ${fmt(PAGES / ((indexed - t0) / 1000), 1)} pages/s incl. embeddings`,
);
console.log(`ready=${c.ready} failed=${c.failed}  peak RSS ${peak} MB`);
process.exit(0);

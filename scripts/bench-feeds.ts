// Benchmarks feed polling: 500 local feeds × 50 entries, a first poll (baseline) then an unchanged re-poll.
//
//   bun run bench:feeds [--feeds 500] [--entries 50] [--concurrency 4] [--spacing 0]
//
// The feeds are served by a child process (so the server never shares a JS thread with the poller),
// all from one host. Polls run the real path: the scheduler's dispatcher enqueues durable feed.poll
// jobs, the job runner claims them, each poll goes through safeFetch with conditional GET.
// --spacing is FEED_HOST_SPACING_MS: with every feed on one host, the default politeness delay
// (250 ms) would measure only the delay, so the benchmark sets it to 0 unless told otherwise.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { FEED_POLL_JOB } from "../src/features/feeds/dispatch.ts";
import { insertWorkflow } from "../src/features/feeds/testing.ts";
import { systemActor } from "../src/actor.ts";
import { newId } from "../src/ids.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";

const TARGET_REPOLL_S = 10;
const TARGET_304_SHARE = 0.99;

function feedBody(f: number, entries: number): string {
  const items: string[] = [];
  for (let e = entries; e >= 1; e--) {
    const date = new Date(Date.UTC(2024, 0, 1) + e * 3_600_000).toUTCString();
    items.push(
      `<item><title>Feed ${f} entry ${e}: notes on tide pools and coastal ecology</title>` +
        `<link>https://feed${f}.example/posts/${e}</link><guid isPermaLink="false">feed-${f}-entry-${e}</guid><pubDate>${date}</pubDate>` +
        `<description>${"Anemones, sea stars and hermit crabs survive hours of sun and wind before the water returns. ".repeat(3)}</description></item>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed ${f}</title><link>https://feed${f}.example/</link>` +
    `<description>Bench feed</description>${items.join("")}</channel></rss>`
  );
}

// Child process: serves /feed/<n>.xml with a strong ETag and answers If-None-Match with 304.
function serveFeeds(count: number, entries: number): void {
  const bodies = Array.from({ length: count }, (_, f) => feedBody(f, entries));
  const tags = bodies.map((b) => `"${Bun.hash(b).toString(16)}"`);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const n = Number(/^\/feed\/(\d+)\.xml$/.exec(new URL(req.url).pathname)?.[1] ?? NaN);
      const body = bodies[n];
      if (body === undefined) return new Response("not found", { status: 404 });
      if (req.headers.get("if-none-match") === tags[n])
        return new Response(null, { status: 304, headers: { etag: tags[n]! } });
      return new Response(body, { headers: { "content-type": "application/rss+xml; charset=utf-8", etag: tags[n]! } });
    },
  });
  console.log(JSON.stringify({ origin: `http://127.0.0.1:${server.port}` }));
}

async function startServer(count: number, entries: number) {
  const proc = Bun.spawn(
    [process.execPath, import.meta.path, "--serve", "--feeds", String(count), "--entries", String(entries)],
    { stdout: "pipe", stderr: "inherit" },
  );
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("feed server exited before it was ready");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, origin: (JSON.parse(text.slice(0, text.indexOf("\n"))) as { origin: string }).origin };
}

async function main() {
  const { values } = parseArgs({
    options: {
      serve: { type: "boolean", default: false },
      feeds: { type: "string", default: "500" },
      entries: { type: "string", default: "50" },
      concurrency: { type: "string", default: "4" },
      spacing: { type: "string", default: "0" },
    },
  });
  const count = Number(values.feeds);
  const entries = Number(values.entries);
  if (values.serve) return serveFeeds(count, entries);

  const { proc, origin } = await startServer(count, entries);
  const dataDir = mkdtempSync(join(tmpdir(), "commonplace-bench-feeds-"));
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    ALLOW_PRIVATE_NETWORK: "true",
    JOB_CONCURRENCY: values.concurrency!,
    JOB_POLL_MS: "20",
    FEED_HOST_SPACING_MS: values.spacing!,
  });
  const db = openDatabase(join(dataDir, "commonplace.db"));
  const s = createServices({ config, db, clock, logger: silentLogger });
  const userId = newId("user");
  const at = new Date().toISOString();
  db.sqlite
    .query(
      "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, 'bench@example.com', 'bench', 'x', 'free', ?, ?)",
    )
    .run(userId, at, at);
  const workflowId = await insertWorkflow(db, userId);
  const actor = systemActor(userId, "bench");
  for (let f = 0; f < count; f++) await s.feeds.ensure(actor, workflowId, { feed_url: `${origin}/feed/${f}.xml` });

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
  s.runner.start();

  async function round(name: string) {
    const before = (await s.queue.counts(FEED_POLL_JOB.type)).succeeded;
    const start = performance.now();
    const added = await s.feedScheduler.dispatchDue();
    if (added !== count) throw new Error(`${name}: expected ${count} poll jobs, got ${added}`);
    while ((await s.queue.counts(FEED_POLL_JOB.type)).succeeded - before < count) {
      if ((await s.queue.counts(FEED_POLL_JOB.type)).failed > 0) throw new Error("a poll job failed");
      await Bun.sleep(5);
    }
    const seconds = (performance.now() - start) / 1000;
    const statuses = db.sqlite
      .query<{ last_status: number | null; n: number }, []>(
        "SELECT last_status, count(*) AS n FROM feed_watches GROUP BY last_status",
      )
      .all();
    const errors = db.sqlite
      .query<{ n: number }, []>("SELECT count(*) AS n FROM feed_watches WHERE last_error IS NOT NULL")
      .get()!.n;
    return { name, seconds, statuses: Object.fromEntries(statuses.map((r) => [String(r.last_status), r.n])), errors };
  }

  const first = await round("first poll");
  const seen = db.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM feed_entries").get()!.n;
  offset += 25 * 3_600_000; // past every watch's next slot (≤ 24 h away)
  const again = await round("unchanged re-poll");
  clearInterval(sampler);
  await s.runner.stop();
  proc.kill();
  db.close();
  rmSync(dataDir, { recursive: true, force: true });

  const share304 = (again.statuses["304"] ?? 0) / count;
  console.log(
    `feeds: ${count} × ${entries} entries, one host, job concurrency ${values.concurrency}, host spacing ${values.spacing} ms`,
  );
  for (const r of [first, again]) {
    console.log(
      `${r.name.padEnd(18)} ${r.seconds.toFixed(2)} s  ${(count / r.seconds).toFixed(0)} feeds/s  ${((count * entries) / r.seconds).toFixed(0)} entries/s  statuses ${JSON.stringify(r.statuses)}  errors ${r.errors}`,
    );
  }
  console.log(`entry identities recorded: ${seen}`);
  console.log(`re-polls answered 304: ${(share304 * 100).toFixed(1)}%`);
  console.log(`peak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
  const ok = again.seconds <= TARGET_REPOLL_S && share304 >= TARGET_304_SHARE && first.errors === 0;
  console.log(
    `target (re-poll ≤ ${TARGET_REPOLL_S} s with ≥ ${TARGET_304_SHARE * 100}% 304): ${ok ? "met" : "NOT met"}`,
  );
  if (!ok) process.exitCode = 1;
}

await main();

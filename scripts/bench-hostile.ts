// bench:hostile — the real server (src/main.ts in a child process) ingests four hostile pages at once
// while /healthz is probed 50 times a second: probe latency, the server's RSS growth, the time until
// the four sources fail; then normal ingestion throughput. One fresh server per mode:
//   before     EXTRACT_WORKERS=0 and no up-front limits (extraction as it was: on the main thread)
//   pool-only  the worker pool with the up-front limits off, so only its time and memory bounds act
//   after      the defaults (pool + limits)
// Usage: bun run bench:hostile [--modes before,pool-only,after] [--pages 1000]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { nestedDivs, repeatedPagePdf, unclosedScripts } from "../test/fixtures/pages/hostile.ts";
import { startServer, tempDir, type ServerProcess } from "../test/server-process.ts";
import { cli, rssMb, startProbes } from "./lib/probes.ts";
import { fmt, percentile, table } from "./lib/measure.ts";

const { values } = parseArgs({
  options: { modes: { type: "string", default: "before,pool-only,after" }, pages: { type: "string", default: "1000" } },
});
const MODES: Record<string, Record<string, string>> = {
  before: { EXTRACT_WORKERS: "0", EXTRACT_MAX_DEPTH: "100000", EXTRACT_MAX_PDF_PAGES: "1000000" },
  "pool-only": { EXTRACT_MAX_DEPTH: "100000", EXTRACT_MAX_PDF_PAGES: "1000000" },
  after: {},
};
const PAGES = Number(values.pages);
const ROOT = join(import.meta.dir, "..");
const PROBE_EVERY_MS = 20;
const HOSTILE_CAP_MS = 240_000;

// The "outside web": four hostile pages here, the benchmark's varied articles in a child process.
const HOSTILE: Record<string, { body: string | Uint8Array; type: string }> = {
  "/hostile/divs-1000": { body: nestedDivs(1_000), type: "text/html" },
  "/hostile/divs-1500": { body: nestedDivs(1_500), type: "text/html" },
  "/hostile/scripts-60000": { body: unclosedScripts(60_000), type: "text/html" },
  "/hostile/pages-6000.pdf": { body: repeatedPagePdf(6_000), type: "application/pdf" },
};
const web = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const page = HOSTILE[new URL(req.url).pathname];
    return page
      ? new Response(page.body as BodyInit, { headers: { "content-type": page.type } })
      : new Response("not found", { status: 404 });
  },
});
const articleProc = Bun.spawn([process.execPath, join(import.meta.dir, "lib/article-server.ts")], {
  stdout: "pipe",
  stderr: "inherit",
});
const articleBase = new TextDecoder().decode((await articleProc.stdout.getReader().read()).value).trim();
process.on("exit", () => articleProc.kill()); // also when a mode fails

async function post(server: ServerProcess, key: string, url: string): Promise<void> {
  const res = await fetch(`${server.url}/api/v1/sources`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ url }),
  });
  if (res.status !== 201) throw new Error(`POST failed: ${res.status} ${await res.text()}`);
}

async function settle(db: Database, prefix: string, count: number, capMs = HOSTILE_CAP_MS): Promise<void> {
  const q = db.prepare<{ n: number }, [string]>(
    "SELECT count(*) n FROM sources WHERE url LIKE ? AND status != 'pending'",
  );
  const until = performance.now() + capMs;
  while (q.get(`${prefix}%`)!.n < count) {
    if (performance.now() > until) throw new Error(`sources under ${prefix} still pending after ${capMs} ms`);
    await Bun.sleep(20);
  }
}

async function runMode(mode: string) {
  const dir = tempDir("cp-bench-hostile-");
  const env = {
    DATA_DIR: dir.path,
    ALLOW_PRIVATE_NETWORK: "true",
    LOG_LEVEL: "info",
    JOB_CONCURRENCY: "16",
    JOB_POLL_MS: "20",
    RATE_LIMIT_PER_MINUTE: "1000000",
    ...MODES[mode],
  };
  await cli(dir.path, "user:create", "--email", "bench@example.com", "--password", "benchmark-password");
  const key = (await cli(dir.path, "key:create", "--email", "bench@example.com", "--name", "bench"))
    .split("\n")
    .find((l) => l.startsWith("cpk_"))!;
  const server = await startServer([process.execPath, join(ROOT, "src/main.ts")], env);
  const db = new Database(join(dir.path, "commonplace.db"), { readonly: true });
  try {
    // Warm up: a few normal pages, so threads and caches exist before the baseline is taken.
    for (let i = 0; i < 20; i++) await post(server, key, `${articleBase}/article/${100_000 + i}`);
    await settle(db, `${articleBase}/article/1000`, 20);
    Bun.gc(true);
    await Bun.sleep(500);
    const baseline = rssMb(server.proc.pid);

    // The machine's own noise: the same probes against the idle server.
    const idle = startProbes(server, PROBE_EVERY_MS);
    await Bun.sleep(5_000);
    const quiet = await idle.stop();

    // Four hostile pages at once, /healthz probed open-loop (a stalled server piles up slow probes).
    const probes = startProbes(server, PROBE_EVERY_MS);
    const t0 = performance.now();
    await Promise.all(Object.keys(HOSTILE).map((path) => post(server, key, `http://127.0.0.1:${web.port}${path}`)));
    await settle(db, `http://127.0.0.1:${web.port}/hostile/`, 4);
    const hostileSecs = (performance.now() - t0) / 1000;
    const latencies = await probes.stop();
    const peak = Math.max(baseline, probes.peakRss());
    const codes = db
      .query<{ url: string; status: string; error: string | null }, []>(
        "SELECT url, status, error FROM sources WHERE url LIKE '%/hostile/%' ORDER BY url",
      )
      .all();
    await Bun.sleep(1_000);
    const after = rssMb(server.proc.pid);

    // Normal ingestion throughput.
    const t1 = performance.now();
    for (let i = 0; i < PAGES; i++) await post(server, key, `${articleBase}/article/${i}`);
    await settle(db, `${articleBase}/article/`, PAGES + 20);
    const pagesPerSec = PAGES / ((performance.now() - t1) / 1000);
    const failed = db
      .query<{ n: number }, []>("SELECT count(*) n FROM sources WHERE url LIKE '%/article/%' AND status = 'failed'")
      .get()!.n;

    return {
      mode,
      "idle p99/max ms": `${fmt(percentile(quiet, 99), 1)} / ${fmt(quiet[quiet.length - 1] ?? NaN, 1)}`,
      "healthz p99 ms": fmt(percentile(latencies, 99), 1),
      "healthz max ms": fmt(latencies[latencies.length - 1] ?? NaN, 1),
      probes: latencies.length,
      "hostile done s": fmt(hostileSecs, 1),
      "RSS base MB": Math.round(baseline),
      "RSS growth MB": `+${Math.round(peak - baseline)} (${after >= baseline ? "+" : ""}${Math.round(after - baseline)} after)`,
      "pages/s": `${fmt(pagesPerSec, 1)}${failed ? ` (${failed} failed)` : ""}`,
      codes: codes.map((c) => `${c.url.split("/").pop()}=${c.error ?? c.status}`).join(" "),
    };
  } finally {
    db.close();
    await server.stop();
    dir.remove();
  }
}

const rows = [];
for (const mode of values.modes!.split(",")) {
  console.error(`running mode ${mode}…`);
  rows.push(await runMode(mode));
}
articleProc.kill();
void web.stop(true);
console.log(
  `bench:hostile  pages=${PAGES}  probe every ${PROBE_EVERY_MS} ms  (targets: healthz ≤ 100 ms, RSS growth ≤ 400 MB, ≥ 100 pages/s)`,
);
console.log(table(rows));
process.exit(0);

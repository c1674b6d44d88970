// bench:import — import 10,000 Netscape bookmarks whose links point at a local site (a child process):
// time until every source record exists, peak RSS, how long an interactive save takes to be ready
// while the import's pages are being fetched (against the same save on an idle server), and the
// ingestion rate of imported pages once the records exist. Then the hostile files (scripts/lib/import-hostile.ts)
// against the real server in a child process. `--hostile` runs only those; `--bulk` only the first part.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { createServices } from "../src/services.ts";
import { runHostileImports } from "./lib/import-hostile.ts";
import { fmt, table, trackPeakRss } from "./lib/measure.ts";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);

if (args.includes("--hostile")) {
  await hostile();
  process.exit(0);
}

async function hostile() {
  console.log("bench:import hostile files  (targets while each is read: healthz p99 ≤ 100 ms, RSS growth ≤ 200 MB)");
  console.log(table(await runHostileImports()));
}

const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 15);

const web = Bun.spawn(["bun", "run", join(import.meta.dir, "lib/article-server.ts")], {
  stdout: "pipe",
  stderr: "inherit",
});
const { value } = await web.stdout.getReader().read();
const base = new TextDecoder().decode(value).trim();

const dir = mkdtempSync(join(tmpdir(), "cp-bench-import-"));
const config = loadConfig({
  // Like the other benchmarks, the hashed embedder unless told otherwise: this measures import and queueing.
  EMBEDDER: process.env.EMBEDDER ?? "hashed",
  DATA_DIR: dir,
  ALLOW_PRIVATE_NETWORK: "true",
  LOG_LEVEL: "warn",
  JOB_CONCURRENCY: "8",
  JOB_POLL_MS: "20",
  RATE_LIMIT_PER_MINUTE: "1000000",
  IMPORT_FETCH_CONCURRENCY: "4",
  // One local host stands in for thousands of sites: with the default 1 s spacing it would fetch one page a second.
  IMPORT_HOST_SPACING_MS: "0",
});
const db = openDatabase(join(dir, "commonplace.db"));
const services = createServices({ config, db });
const app = createApp(services);
const user = await services.accounts.createUser({ email: "bench@example.com", password: "benchmark-password" });
const { key } = await services.keys.create(user.id, "bench");
const auth = { authorization: `Bearer ${key}` };

// 10,000 links in 100 folders, two levels deep, with ADD_DATE and TAGS, like a large browser export.
const lines = ["<!DOCTYPE NETSCAPE-Bookmark-file-1>", "<TITLE>Bookmarks</TITLE>", "<H1>Bookmarks</H1>", "<DL><p>"];
for (let f = 0; f < 10; f++) {
  lines.push(`<DT><H3 ADD_DATE="1600000000">Topic ${f}</H3>`, "<DL><p>");
  for (let g = 0; g < 10; g++) {
    lines.push(`<DT><H3 ADD_DATE="1600000000">Shelf ${g}</H3>`, "<DL><p>");
    for (let i = 0; i < N / 100; i++) {
      const n = (f * 10 + g) * (N / 100) + i;
      lines.push(
        `<DT><A HREF="${base}/article/${n}?utm_source=bench" ADD_DATE="${1500000000 + n}" TAGS="t${n % 50},bench">Article ${n} – ünïcode</A>`,
      );
    }
    lines.push("</DL><p>");
  }
  lines.push("</DL><p>");
}
lines.push("</DL><p>");
const file = lines.join("\n");

async function save(n: number): Promise<number> {
  const t = performance.now();
  const res = await app.handle(
    new Request("http://localhost/api/v1/sources", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ url: `${base}/article/${n}` }),
    }),
  );
  const id = ((await res.json()) as { id: string }).id;
  for (;;) {
    const s = db.sqlite.query("SELECT status FROM sources WHERE id = ?").get(id) as { status: string };
    if (s.status !== "pending") return performance.now() - t;
    await Bun.sleep(5);
  }
}

services.runner.start();
// The usual time of a save, on the idle server (median of 5).
const idle: number[] = [];
for (let i = 0; i < 5; i++) idle.push(await save(900_000 + i));
idle.sort((a, b) => a - b);

const rss = trackPeakRss();
const form = new FormData();
form.set("file", new File([file], "bookmarks.html"));
form.set("format", "netscape");
const body = new Response(form);
const type = body.headers.get("content-type")!;
const bytes = new Uint8Array(await body.arrayBuffer());
const t0 = performance.now();
const res = await app.handle(
  new Request("http://localhost/api/v1/imports", {
    method: "POST",
    headers: { ...auth, "content-type": type, "content-length": String(bytes.byteLength) },
    body: bytes,
  }),
);
if (res.status !== 202) throw new Error(`import refused: ${res.status} ${await res.text()}`);
const accepted = performance.now();
const imp = (await res.json()) as { id: string };
const status = () =>
  db.sqlite.query("SELECT status, created FROM imports WHERE id = ?").get(imp.id) as {
    status: string;
    created: number;
  };
// Saves made one after another while the import job is still creating records (up to 5).
const creation: number[] = [];
const creationSaves = (async () => {
  for (let i = 0; i < 5 && status().status !== "succeeded"; i++) creation.push(await save(905_000 + i));
})();
for (;;) {
  const s = status();
  if (s.status === "succeeded" || s.status === "failed") break;
  await Bun.sleep(10);
}
const created = performance.now();
await creationSaves;
const creationSorted = [...creation].sort((a, b) => a - b);
// An interactive save while thousands of imported pages wait to be fetched (median of 5).
const busy: number[] = [];
for (let i = 0; i < 5; i++) busy.push(await save(910_000 + i));
busy.sort((a, b) => a - b);
const readyAt = () =>
  (db.sqlite.query("SELECT count(*) AS n FROM sources WHERE status != 'pending'").get() as { n: number }).n;
const r0 = readyAt();
const w0 = performance.now();
await Bun.sleep(WINDOW_S * 1000);
const pagesPerSec = (readyAt() - r0) / ((performance.now() - w0) / 1000);
const peak = rss.stop();
const final = status();
await services.runner.stop({ graceMs: 1000 });
web.kill();
db.close();
rmSync(dir, { recursive: true, force: true });

console.log(`bench:import  bookmarks=${N} folders=110 job_concurrency=8 import_fetch_concurrency=4`);
console.log(`upload accepted (parsed, checked) in ${fmt((accepted - t0) / 1000)} s`);
console.log(
  `all ${final.created} records created in ${fmt((created - t0) / 1000)} s (target ≤ 10 s), import ${final.status}`,
);
console.log(
  `interactive saves made while records were being created: first ${fmt(creation[0]!, 0)} ms, median ${fmt(creationSorted[Math.floor(creation.length / 2)]!, 0)} ms, max ${fmt(creationSorted[creation.length - 1]!, 0)} ms (${creation.length} saves)`,
);
console.log(
  `interactive save ready: idle median ${fmt(idle[2]!, 0)} ms, during import median ${fmt(busy[2]!, 0)} ms (max ${fmt(busy[4]!, 0)} ms)`,
);
console.log(`imported pages ingested at ${fmt(pagesPerSec, 1)} pages/s over ${WINDOW_S} s`);
console.log(`peak RSS ${peak} MB`);
if (!args.includes("--bulk")) await hostile();
process.exit(0);

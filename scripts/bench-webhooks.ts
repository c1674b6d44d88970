// Benchmarks durable webhook intake (POST /api/webhooks/workflows/{token}, one `condition` step per run)
// against a bare Bun.serve that inserts one SQLite row per request, then times the runner's drain.
//
//   bun run bench:webhooks [--duration 8] [--connections 64] [--client auto|wrk|bun]
//
// Servers run in child processes so the load generator (wrk when installed, else a Bun fetch loop in
// another child) does not share their JS thread. A 202 is only ever sent after its commit.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { databaseUrl, loadConfig } from "../src/config.ts";
import { openConfiguredDatabase, testSchemaName } from "../src/db/client.ts";
import { sqlRow } from "../src/db/inspect.ts";
import { openSharedDatabase } from "../src/jobs/testing.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { closedLoop, runBunLoad, runWrk, startChild, type LoadResult } from "./lib/load.ts";

type Result = LoadResult;

const TARGET_RPS = 5000;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 20;
const SELF = import.meta.path;
const BODY = JSON.stringify({ n: 42, title: "bench", tags: ["a", "b"] });

// The service as main.ts builds it (runner started), with one webhook workflow of one condition.
async function serveApp(): Promise<void> {
  const config = loadConfig(process.env);
  const db = openConfiguredDatabase(config);
  await db.ready;
  const services = createServices({ config, db, logger: silentLogger });
  const user = await services.accounts.createUser(
    { email: "bench@example.com", password: "bench-password" },
    { bypassSignupPolicy: true },
  );
  const actor = { userId: user.id, auth: { type: "system" as const, reason: "bench" } };
  const wf = await services.workflows.service.create(actor, {
    name: "bench",
    trigger: { type: "webhook" },
    actions: [{ id: "check", type: "condition", if: { all: [{ left: "{{ n }}", op: "gt", right: 10 }] } }],
  });
  const app = createApp(services);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => app.handle(req) });
  services.runner.start();
  const path = new URL(wf.webhook_url!).pathname;
  console.log(
    JSON.stringify({
      url: `http://127.0.0.1:${server.port}${path}`,
      db: db.engine === "postgres" ? `pg:${db.pg.schema}` : join(config.dataDir, "commonplace.db"),
    }),
  );
}

// The floor: parse the JSON body, insert one row (same pragmas as the service), answer 202.
function serveBare(): void {
  const dataDir = process.env.DATA_DIR!;
  const sqlite = new Database(join(dataDir, "bare.db"), { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000");
  sqlite.exec(
    "CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL)",
  );
  const insert = sqlite.prepare("INSERT INTO deliveries (id, body, received_at) VALUES (?, ?, ?)");
  let n = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = (await req.json()) as object;
      const id = `dlv_${process.pid}_${++n}`;
      insert.run(id, JSON.stringify(body), Date.now());
      return Response.json({ delivery_id: id, runs: [] }, { status: 202 });
    },
  });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.port}/hook`, db: "" }));
}

const post = (url: string) => ({
  url,
  method: "POST",
  headers: { "content-type": "application/json" },
  body: BODY,
  okStatus: 202,
});

interface LoadOptions {
  connections: number;
  duration: number;
  client: "auto" | "wrk" | "bun";
}

/** Waits until the durable server has no workflow step left to run; returns the seconds it took. */
async function drainSeconds(location: string): Promise<{ seconds: number; runs: number }> {
  // The child names its database: a SQLite file, or "pg:<schema>" on DATABASE_URL's server.
  const db = openSharedDatabase(location);
  const started = performance.now();
  try {
    const count = async (sql: string) => (await sqlRow<{ n: number }>(db, sql))!.n;
    const left = () =>
      count(
        "SELECT count(*) AS n FROM jobs WHERE type IN ('workflow.step', 'workflow.runs') AND status IN ('queued', 'running')",
      );
    while ((await left()) > 0) await Bun.sleep(50);
    const runs = await count("SELECT count(*) AS n FROM workflow_runs WHERE status = 'succeeded'");
    return { seconds: (performance.now() - started) / 1000, runs };
  } finally {
    db.close();
  }
}

async function main(o: LoadOptions): Promise<void> {
  const useWrk = o.client === "wrk" || (o.client === "auto" && Bun.which("wrk") !== null);
  const dataDir = mkdtempSync(join(tmpdir(), "commonplace-bench-webhooks-"));
  const script = join(dataDir, "post.lua");
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '${BODY}'\n`,
  );
  // wrk takes the method and body from the Lua script; the Bun client from post().
  const load = (name: string, url: string, opts: LoadOptions) =>
    useWrk ? runWrk(name, { url }, opts, script) : runBunLoad(SELF, name, url, opts);
  const env = { DATA_DIR: dataDir, LOG_LEVEL: "silent", WEBHOOK_RATE_LIMIT_PER_MINUTE: "1000000" };
  type Child = Awaited<ReturnType<typeof startChild<{ url: string; db: string }>>>;
  const children: Child[] = [];
  try {
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Bun ${Bun.version}, ${process.platform}-${process.arch}`,
    );
    console.log(
      `load average before the run: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `load: ${useWrk ? "wrk, 1 thread" : "Bun fetch loop in a child process"}, ${o.connections} connections, ${o.duration} s per target after a 2 s warm-up\n`,
    );
    const bare = await startChild<{ url: string; db: string }>(SELF, "bare", env);
    children.push(bare);
    await load("warm-up", bare.url, { ...o, duration: 2 });
    const bareResult = await load("bare Bun.serve + one INSERT", bare.url, o);
    bare.proc.kill();
    await bare.proc.exited;

    const app = await startChild<{ url: string; db: string }>(SELF, "app", { ...env, DATABASE_URL: "" });
    children.push(app);
    await load("warm-up", app.url, { ...o, duration: 2 });
    await drainSeconds(app.db);
    const appResult = await load("POST /api/webhooks/workflows/{token}", app.url, o);
    const drain = await drainSeconds(app.db);
    app.proc.kill();
    await app.proc.exited;
    // With DATABASE_URL set, the same service on PostgreSQL (a fresh schema) beside SQLite's figures.
    let pg: { result: Result; drain: { seconds: number; runs: number } } | undefined;
    const pgUrl = databaseUrl();
    if (pgUrl) {
      const pgApp = await startChild<{ url: string; db: string }>(SELF, "app", {
        ...env,
        DATABASE_URL: pgUrl,
        DATABASE_SCHEMA: testSchemaName(),
      });
      children.push(pgApp);
      await load("warm-up", pgApp.url, { ...o, duration: 2 });
      await drainSeconds(pgApp.db);
      const result = await load("same on PostgreSQL", pgApp.url, o);
      pg = { result, drain: await drainSeconds(pgApp.db) };
    }
    report(bareResult, appResult, drain, pg);
  } finally {
    for (const c of children) c.proc.kill();
    await Promise.all(children.map((c) => c.proc.exited));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(
  bare: Result,
  app: Result,
  drain: { seconds: number; runs: number },
  pg?: { result: Result; drain: { seconds: number; runs: number } },
): void {
  const fmt = (n: number, d = 2) => n.toFixed(d);
  console.log("| target | accepted/s | p50 ms | p99 ms | requests | errors |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of pg ? [bare, app, pg.result] : [bare, app])
    console.log(`| ${r.name} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.requests} | ${r.errors} |`);
  const ratio = app.rps / bare.rps;
  console.log(`\nratio durable/bare: ${fmt(ratio * 100, 1)} % (target ≥ ${TARGET_RATIO * 100} %)`);
  console.log(
    `durable: ${fmt(app.rps, 0)} accepted/s (target ≥ ${TARGET_RPS}), p99 ${fmt(app.p99)} ms (target ≤ ${TARGET_P99_MS} ms)`,
  );
  console.log(
    `runner drained the backlog ${fmt(drain.seconds, 1)} s after the load stopped (${drain.runs} runs succeeded in all)`,
  );
  if (pg)
    console.log(
      `PostgreSQL: ${fmt(pg.result.rps, 0)} accepted/s (${fmt((pg.result.rps / app.rps) * 100, 1)} % of SQLite), p99 ${fmt(pg.result.p99)} ms; drained ${fmt(pg.drain.seconds, 1)} s after the load (${pg.drain.runs} runs); targets apply to SQLite`,
    );
  const ok = app.rps >= TARGET_RPS && ratio >= TARGET_RATIO && app.p99 <= TARGET_P99_MS && app.errors === 0;
  console.log(ok ? "PASS" : "MISS");
  process.exitCode = ok ? 0 : 1;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      serve: { type: "string" },
      load: { type: "string" },
      duration: { type: "string", default: "8" },
      connections: { type: "string", default: "64" },
      client: { type: "string", default: "auto" },
    },
  });
  if (values.serve === "app") await serveApp();
  else if (values.serve === "bare") serveBare();
  else if (values.load)
    await closedLoop(post(values.load), { connections: Number(values.connections), duration: Number(values.duration) });
  else
    await main({
      duration: Number(values.duration),
      connections: Number(values.connections),
      client: values.client as LoadOptions["client"],
    });
}

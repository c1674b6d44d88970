// Benchmarks authenticated GET /api/v1/me against a bare Bun.serve baseline under the same load.
//
//   bun run bench:api [--duration 10] [--connections 64] [--threads 1] [--rounds 1] [--client auto|wrk|bun]
//
// Each server runs in its own child process so the load generator (wrk when installed, else a Bun
// load loop in another child) never shares a JS thread with the server it measures.
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { databaseUrl, loadConfig } from "../src/config.ts";
import { openConfiguredDatabase, testSchemaName } from "../src/db/client.ts";
import { createLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { closedLoop, runBunLoad, runWrk, startChild, type LoadResult } from "./lib/load.ts";

type Result = LoadResult;

const TARGET_RATIO = 0.75;
const TARGET_P99_MS = 5;
const SELF = import.meta.path;

// The service as main.ts builds it, over a file database, logging every request to a file.
async function serveApp(): Promise<void> {
  const config = loadConfig(process.env);
  const db = openConfiguredDatabase(config);
  await db.ready;
  const log = Bun.file(join(config.dataDir, "requests.log")).writer();
  const services = createServices({
    config,
    db,
    logger: createLogger(config.logLevel, (chunk) => void log.write(chunk)),
  });
  const user = await services.accounts.createUser(
    { email: "bench@example.com", password: "bench-password" },
    { bypassSignupPolicy: true },
  );
  const { key } = await services.keys.create(user.id, "bench");
  const app = createApp(services);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => app.handle(req) });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.port}/api/v1/me`, key }));
}

// The floor: the cheapest JSON response Bun can serve, same size class as /me.
function serveBare(): void {
  const body = {
    id: "usr_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX",
    email: "bench@example.com",
    name: "bench",
    created_at: new Date().toISOString(),
  };
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json(body) });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.port}/api/v1/me`, key: "" }));
}

const bearer = (key: string) => (key ? { authorization: `Bearer ${key}` } : undefined);
const runWrkFor = (name: string, url: string, key: string, o: LoadOptions) =>
  runWrk(name, { url, headers: bearer(key) }, o);
const runBunFor = (name: string, url: string, key: string, o: LoadOptions) =>
  runBunLoad(SELF, name, url, o, ["--key", key]);

interface LoadOptions {
  connections: number;
  duration: number;
  threads: number;
  rounds: number;
  client: "auto" | "wrk" | "bun";
}

type Child = Awaited<ReturnType<typeof startChild<{ url: string; key: string }>>>;

function median(results: Result[]): Result {
  const sorted = [...results].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(o: LoadOptions): Promise<void> {
  const useWrk = o.client === "wrk" || (o.client === "auto" && Bun.which("wrk") !== null);
  const load = useWrk ? runWrkFor : runBunFor;
  const dataDir = mkdtempSync(join(tmpdir(), "commonplace-bench-"));
  // Logging stays on (to a file) so its cost is measured; the rate limit is raised so every call passes.
  const env = { DATA_DIR: dataDir, LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "1000000" };
  const children: Child[] = [];
  try {
    const tool = useWrk ? `wrk, ${o.threads} thread(s)` : "Bun fetch loop in a child process";
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Bun ${Bun.version}, ${process.platform}-${process.arch}`,
    );
    console.log(
      `load average before the run: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} (anything else running skews the figures)`,
    );
    console.log(
      `load: ${tool}, ${o.connections} connections, ${o.duration} s per target and round, ${o.rounds} round(s) after a warm-up\n`,
    );
    // With DATABASE_URL set, the same service on PostgreSQL (a fresh schema) is measured beside SQLite's.
    const pgUrl = databaseUrl();
    if (pgUrl) mkdirSync(join(dataDir, "pg"));
    const targets: { name: string; kind: "bare" | "app"; env: Record<string, string> }[] = [
      { name: "bare Bun.serve JSON", kind: "bare" as const, env: { DATABASE_URL: "" } },
      { name: "GET /api/v1/me (key auth)", kind: "app" as const, env: { DATABASE_URL: "" } },
      ...(pgUrl
        ? [
            {
              name: "GET /api/v1/me on PostgreSQL",
              kind: "app" as const,
              env: { DATABASE_URL: pgUrl, DATABASE_SCHEMA: testSchemaName(), DATA_DIR: join(dataDir, "pg") },
            },
          ]
        : []),
    ];
    for (const t of targets) {
      const child = await startChild<{ url: string; key: string }>(SELF, t.kind, { ...env, ...t.env });
      children.push(child);
      const check = await fetch(child.url, { headers: child.key ? { authorization: `Bearer ${child.key}` } : {} });
      if (check.status !== 200)
        throw new Error(`${t.name}: GET ${child.url} answered ${check.status}: ${await check.text()}`);
      await load(t.name, child.url, child.key, { ...o, duration: Math.min(3, o.duration) }); // warm-up: JIT, caches
    }
    // Rounds alternate between the targets so a noisy neighbour hurts both alike.
    const runs: Result[][] = targets.map(() => []);
    for (let r = 0; r < o.rounds; r++) {
      for (const [i, t] of targets.entries()) runs[i]!.push(await load(t.name, children[i]!.url, children[i]!.key, o));
    }
    const [bare, app, pg] = runs.map(median) as [Result, Result, Result | undefined];
    report(bare, app, statSync(join(dataDir, "requests.log")).size, pg);
  } finally {
    for (const c of children) c.proc.kill();
    await Promise.all(children.map((c) => c.proc.exited));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(bare: Result, app: Result, logBytes: number, pg?: Result): void {
  const fmt = (n: number, d = 2) => n.toFixed(d);
  console.log("| target | req/s | p50 ms | p99 ms | requests | errors |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of pg ? [bare, app, pg] : [bare, app])
    console.log(`| ${r.name} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.requests} | ${r.errors} |`);
  const ratio = app.rps / bare.rps;
  console.log(
    `\nratio app/bare: ${fmt(ratio * 100, 1)} % (target ≥ ${TARGET_RATIO * 100} %); app p99 ${fmt(app.p99)} ms (target ≤ ${TARGET_P99_MS} ms)`,
  );
  if (pg)
    console.log(
      `PostgreSQL: ${fmt((pg.rps / bare.rps) * 100, 1)} % of bare, ${fmt((pg.rps / app.rps) * 100, 1)} % of SQLite; p99 ${fmt(pg.p99)} ms (targets apply to SQLite)`,
    );
  console.log(`request log written: ${(logBytes / 1024 / 1024).toFixed(1)} MiB`);
  const ok = ratio >= TARGET_RATIO && app.p99 <= TARGET_P99_MS && app.errors === 0 && bare.errors === 0;
  console.log(ok ? "PASS" : "MISS");
  process.exitCode = ok ? 0 : 1;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      serve: { type: "string" },
      load: { type: "string" },
      key: { type: "string", default: "" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "64" },
      threads: { type: "string", default: "1" },
      rounds: { type: "string", default: "1" },
      client: { type: "string", default: "auto" },
    },
  });
  const o: LoadOptions = {
    duration: Number(values.duration),
    connections: Number(values.connections),
    threads: Number(values.threads),
    rounds: Math.max(1, Number(values.rounds)),
    client: values.client === "wrk" || values.client === "bun" ? values.client : "auto",
  };
  if (values.serve === "app") await serveApp();
  else if (values.serve === "bare") serveBare();
  else if (values.load) await closedLoop({ url: values.load, headers: bearer(values.key!) }, o);
  else await main(o);
}

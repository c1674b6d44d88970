// Benchmarks the job queue: N no-op jobs drained by 1, 2 and 4 runner processes on PostgreSQL
// (DATABASE_URL), with one SQLite process as the baseline. Prints jobs/s and claim latency per run.
//
//   DATABASE_URL=postgres://… bun run bench:queue [--jobs 5000] [--concurrency 8]
//
// Each runner is a child process (this file with --worker) that opens its own pool, waits for the go,
// drains the queue and reports what it ran and how long each claim took.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { databaseUrl } from "../src/config.ts";
import type { EngineDb } from "../src/db/port.ts";
import { createQueue, type Queue } from "../src/jobs/queue.ts";
import { createRunner } from "../src/jobs/runner.ts";
import { anyJob, closeDatabase, openSharedDatabase, sharedTestDatabase } from "../src/jobs/testing.ts";
import { queueStore } from "../src/stores.ts";

const SELF = import.meta.path;
const BENCH_JOB = anyJob("bench");

interface WorkerReport {
  ran: string[];
  claimsMs: number[];
  startedAt: number;
  endedAt: number;
}

async function worker(location: string, concurrency: number): Promise<void> {
  const db = openSharedDatabase(location, { poolSize: concurrency + 2 });
  await db.ready;
  const queue = createQueue(queueStore(db));
  const claimsMs: number[] = [];
  const timed: Queue = {
    ...queue,
    async claim(...args) {
      const t = performance.now();
      const jobs = await queue.claim(...args);
      claimsMs.push(performance.now() - t);
      return jobs;
    },
  };
  const runner = createRunner({ queue: timed, concurrency, leaseMs: 60_000, pollMs: 50 });
  const ran: string[] = [];
  runner.register(BENCH_JOB.type, {
    async handle(_payload, ctx) {
      ran.push(ctx.jobId);
    },
  });
  process.stdout.write("ready\n");
  for await (const _ of Bun.stdin.stream()) break;
  const startedAt = Date.now();
  await runner.drain({ timeoutMs: 600_000 });
  const report: WorkerReport = { ran, claimsMs, startedAt, endedAt: Date.now() };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await closeDatabase(db);
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
    }
  }
}

async function enqueue(db: EngineDb, n: number): Promise<void> {
  const queue = createQueue(queueStore(db));
  for (let i = 0; i < n; i += 1000)
    await db.tx(async () => {
      for (let j = i; j < Math.min(n, i + 1000); j++) await queue.enqueue(BENCH_JOB, { j });
    });
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(label: string, location: string, processes: number, jobs: number, concurrency: number) {
  const db = openSharedDatabase(location);
  await db.ready;
  await enqueue(db, jobs);
  const children = Array.from({ length: processes }, () =>
    Bun.spawn([process.execPath, SELF, "--worker", location, "--concurrency", String(concurrency)], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
    }),
  );
  const readers = children.map((c) => lines(c.stdout));
  for (const r of readers) if ((await r.next()).value !== "ready") throw new Error("a worker did not start");
  for (const c of children) {
    void c.stdin.write("go\n");
    await c.stdin.end();
  }
  const reports = await Promise.all(readers.map(async (r) => JSON.parse((await r.next()).value!) as WorkerReport));
  await Promise.all(children.map((c) => c.exited));
  const ids = reports.flatMap((r) => r.ran);
  if (ids.length !== jobs || new Set(ids).size !== jobs)
    throw new Error(`${label}: ran ${ids.length} jobs, expected ${jobs} once each`);
  const seconds = (Math.max(...reports.map((r) => r.endedAt)) - Math.min(...reports.map((r) => r.startedAt))) / 1000;
  const claims = reports.flatMap((r) => r.claimsMs).sort((a, b) => a - b);
  console.log(
    `${label.padEnd(22)} ${String(Math.round(jobs / seconds)).padStart(7)} jobs/s   claim p50 ${pct(claims, 50).toFixed(2)} ms, p99 ${pct(claims, 99).toFixed(2)} ms   (${claims.length} claims, per process ${reports.map((r) => r.ran.length).join("/")})`,
  );
  if (db.engine === "postgres") await db.pg.sql.unsafe(`DROP SCHEMA IF EXISTS "${db.pg.schema}" CASCADE`);
  await closeDatabase(db);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      worker: { type: "string" },
      concurrency: { type: "string", default: "8" },
      jobs: { type: "string", default: "5000" },
    },
  });
  const concurrency = Number(values.concurrency);
  if (values.worker) return worker(values.worker, concurrency);
  const jobs = Number(values.jobs);
  console.log(`queue benchmark: ${jobs} no-op jobs, runner concurrency ${concurrency}, ${cpus().length} CPUs`);
  // The baseline is a SQLite file whatever DATABASE_URL says.
  const dir = mkdtempSync(join(tmpdir(), "bench-queue-"));
  try {
    await run("SQLite, 1 process", join(dir, "queue.db"), 1, jobs, concurrency);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!databaseUrl()) {
    console.log("DATABASE_URL is not set: PostgreSQL runs skipped");
    return;
  }
  for (const n of [1, 2, 4]) {
    const label = `PostgreSQL, ${n} process${n > 1 ? "es" : ""}`;
    await run(label, sharedTestDatabase().location, n, jobs, concurrency);
  }
}

await main();

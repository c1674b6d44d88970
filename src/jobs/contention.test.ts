// Two runners on one database (a file on SQLite, a schema on PostgreSQL; separate connections, and
// separate processes) never run a job twice.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { EngineDb } from "../db/client.ts";
import { createQueue } from "./queue.ts";
import { createRunner } from "./runner.ts";
import { anyJob, closeDatabase, deferred, openSharedDatabase, sharedTestDatabase } from "./testing.ts";
import { queueStore } from "../stores.ts";

const cleanups: (() => void)[] = [];
const dbs: EngineDb[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map(closeDatabase));
  cleanups.splice(0).forEach((c) => c());
});

function tempDbPath(): string {
  const shared = sharedTestDatabase();
  cleanups.push(shared.cleanup);
  return shared.location;
}

function open(path: string): EngineDb {
  const db = openSharedDatabase(path);
  dbs.push(db);
  return db;
}

describe("two runners, one database file", () => {
  test("two connections in one process: 500 jobs, each handled exactly once", async () => {
    const path = tempDbPath();
    const [a, b] = [open(path), open(path)];
    // Two connections to one SQLite file only work together in WAL mode (no PostgreSQL meaning).
    if (a.engine === "sqlite") expect(a.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const queueA = createQueue(queueStore(a));
    const queueB = createQueue(queueStore(b));
    await a.tx(async () => {
      for (let i = 0; i < 500; i++) await queueA.enqueue(anyJob("contend"), { i });
    });
    const handled = new Map<string, string[]>();
    const all = deferred();
    const runners = (["A", "B"] as const).map((name) => {
      const runner = createRunner({
        queue: name === "A" ? queueA : queueB,
        concurrency: 4,
        pollMs: 5,
        leaseMs: 60_000,
      });
      runner.register("contend", {
        async handle(_p, ctx) {
          handled.set(ctx.jobId, [...(handled.get(ctx.jobId) ?? []), name]);
          await Promise.resolve();
          if ([...handled.values()].reduce((n, by) => n + by.length, 0) >= 500) all.resolve();
        },
      });
      return runner;
    });
    runners.forEach((r) => r.start());
    await all.promise;
    await Promise.all(runners.map((r) => r.stop()));
    expect(handled.size).toBe(500);
    expect([...handled.values()].filter((by) => by.length !== 1)).toEqual([]);
    const byA = [...handled.values()].filter((by) => by[0] === "A").length;
    expect(byA).toBeGreaterThan(0);
    expect(byA).toBeLessThan(500);
    expect(await queueB.counts()).toEqual({ queued: 0, running: 0, succeeded: 500, failed: 0 });
  }, 60_000);

  test("two processes draining the same file: 2000 jobs, each handled exactly once", async () => {
    const path = tempDbPath();
    const db = open(path);
    const queue = createQueue(queueStore(db));
    await db.tx(async () => {
      for (let i = 0; i < 2_000; i++) await queue.enqueue(anyJob("contend"), { i });
    });
    const script = join(import.meta.dir, "fixtures", "drain-worker.ts");
    const workers = [0, 1].map(() =>
      Bun.spawn([process.execPath, script, path], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }),
    );
    const readers = workers.map((w) => lines(w.stdout));
    for (const r of readers) expect(await r.next()).toEqual({ done: false, value: "ready" });
    for (const w of workers) {
      void w.stdin.write("go\n");
      await w.stdin.flush();
      await w.stdin.end();
    }
    const results = await Promise.all(
      readers.map(async (r) => JSON.parse((await r.next()).value as string) as string[]),
    );
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    const ids = results.flat();
    expect(ids).toHaveLength(2_000);
    expect(new Set(ids).size).toBe(2_000);
    expect(await queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 2_000, failed: 0 });
  }, 60_000);
});

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
  if (buffered) yield buffered;
}

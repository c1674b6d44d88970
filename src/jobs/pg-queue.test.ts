// The queue on PostgreSQL with several pools on one schema (each pool stands for a process): no job runs
// twice, a dead pool's jobs come back after their lease, NOTIFY wakes idle runners, slots enqueue once.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../config.ts";
import type { EngineDb } from "../db/client.ts";
import { createQueue, type Queue } from "./queue.ts";
import { createRunner } from "./runner.ts";
import { createScheduler, SlotPayload } from "./scheduler.ts";
import { defineJob } from "./types.ts";
import {
  anyJob,
  closeDatabase,
  deferred,
  fakeClock,
  openSharedDatabase,
  sharedTestDatabase,
  waitFor,
} from "./testing.ts";
import { queueStore } from "../stores.ts";
import { asPostgres } from "../db/client.ts";

const url = databaseUrl();
const opened: EngineDb[] = [];
afterAll(async () => {
  await Promise.all(opened.splice(0).map((d) => closeDatabase(d).catch(() => {})));
});

/** n pools on one fresh schema, migrated before they are handed out. */
async function pools(n: number, size = 4): Promise<EngineDb[]> {
  const { location } = sharedTestDatabase();
  const first = openSharedDatabase(location, { poolSize: size });
  await first.ready;
  const dbs = [first, ...Array.from({ length: n - 1 }, () => openSharedDatabase(location, { poolSize: size }))];
  opened.push(...dbs);
  return dbs;
}

describe.skipIf(!url)("jobs on PostgreSQL, several pools on one schema", () => {
  test("four runner pools drain 2,000 jobs and no job runs twice", async () => {
    const dbs = await pools(4);
    const queues = dbs.map((db) => createQueue(queueStore(db)));
    await dbs[0]!.tx(async () => {
      for (let i = 0; i < 2_000; i++) await queues[0]!.enqueue(anyJob("contend"), { i });
    });
    const runs = new Map<string, number>();
    const byPool = [0, 0, 0, 0];
    const all = deferred();
    const runners = queues.map((queue, p) => {
      const runner = createRunner({ queue, concurrency: 8, pollMs: 20, leaseMs: 60_000 });
      runner.register("contend", {
        async handle(_payload, ctx) {
          runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
          byPool[p]!++;
          if (byPool.reduce((a, b) => a + b, 0) >= 2_000) all.resolve();
        },
      });
      return runner;
    });
    runners.forEach((r) => r.start());
    await all.promise;
    await Promise.all(runners.map((r) => r.stop()));
    expect(runs.size).toBe(2_000);
    expect([...runs.values()].filter((n) => n !== 1)).toEqual([]);
    // Every pool took part: the claims skip each other's locked rows instead of queueing on them.
    expect(byPool.filter((n) => n === 0)).toEqual([]);
    expect(await queues[1]!.counts()).toEqual({ queued: 0, running: 0, succeeded: 2_000, failed: 0 });
  }, 60_000);

  test("a runner whose pool is closed mid-run loses its jobs to another after the lease, and each re-runs once", async () => {
    const [dying, survivor] = await pools(2);
    const leaseMs = 600;
    const qDying = createQueue(queueStore(dying!));
    const qSurvivor = createQueue(queueStore(survivor!));
    for (let i = 0; i < 5; i++) await qDying.enqueue(anyJob("work"), { i });
    const started = new Set<string>();
    const allStarted = deferred();
    const r1 = createRunner({ queue: qDying, concurrency: 5, leaseMs, pollMs: 60_000 });
    r1.register("work", {
      // Never finishes on its own: its process is about to lose the database.
      handle: (_p, ctx) =>
        new Promise<void>(() => {
          started.add(ctx.jobId);
          if (started.size === 5) allStarted.resolve();
        }),
    });
    r1.start();
    await allStarted.promise;
    await asPostgres(dying!).close();
    // The last lease the dying runner's heartbeat wrote before its pool went away.
    const leases = new Map<string, number>();
    for (const id of started) leases.set(id, (await qSurvivor.get(id))!.leaseUntil!);

    const reran = new Map<string, number[]>();
    const r2 = createRunner({ queue: qSurvivor, concurrency: 5, leaseMs: 60_000, pollMs: 50 });
    r2.register("work", {
      async handle(_p, ctx) {
        reran.set(ctx.jobId, [...(reran.get(ctx.jobId) ?? []), Date.now()]);
      },
    });
    r2.start();
    await waitFor(async () => (await qSurvivor.counts("work")).succeeded === 5, "the jobs to be re-run", 20_000);
    await r2.stop();
    expect([...reran.keys()].sort()).toEqual([...started].sort());
    expect([...reran.values()].map((at) => at.length)).toEqual([1, 1, 1, 1, 1]);
    for (const [id, [at]] of reran) {
      // Not before the dead runner's lease ran out, and as its second attempt.
      expect(at!).toBeGreaterThanOrEqual(leases.get(id)!);
      expect((await qSurvivor.get(id))?.attempts).toBe(2);
    }
    void r1.stop({ graceMs: 0 });
  }, 30_000);

  test("a NOTIFY from another pool wakes an idle runner long before its poll interval", async () => {
    const [producer, consumer] = await pools(2);
    const qProducer = createQueue(queueStore(producer!));
    const qConsumer = createQueue(queueStore(consumer!));
    // A poll interval far longer than this test may run: only the notification can wake the runner.
    const pollMs = 10 * 60_000;
    let claims = 0;
    let idle = deferred();
    const counted: Queue = {
      ...qConsumer,
      async claim(...args) {
        const jobs = await qConsumer.claim(...args);
        claims++;
        if (jobs.length === 0) idle.resolve();
        return jobs;
      },
    };
    const ran = deferred<number>();
    const runner = createRunner({ queue: counted, pollMs, leaseMs: 60_000 });
    runner.register("ping", { handle: async () => ran.resolve(performance.now()) });
    runner.start();
    await qConsumer.listening();
    // One more pass that finds nothing, after the start-up ones: the runner is then asleep until its next poll.
    idle = deferred();
    runner.wake();
    await idle.promise;
    const claimsWhenIdle = claims;
    const sentAt = performance.now();
    await producer!.tx(async () => {
      await qProducer.enqueue(anyJob("ping"), {});
    });
    const ranAt = await ran.promise;
    await runner.stop();
    expect(ranAt - sentAt).toBeLessThan(pollMs);
    expect(claims).toBeGreaterThan(claimsWhenIdle);
  }, 20_000);

  test("three schedulers over one schema enqueue each slot's job once", async () => {
    const dbs = await pools(3, 2);
    const clock = fakeClock(Date.UTC(2030, 0, 1, 12, 0, 0));
    const schedulers = dbs.map((db) => createScheduler({ clock, jobs: createQueue({ ...queueStore(db), clock }) }));
    for (const s of schedulers) s.scheduleJob("tick", "* * * * *", defineJob("tick.run", SlotPayload));
    try {
      for (let minute = 0; minute < 3; minute++) {
        // Every process fires the same slot at (almost) the same moment.
        await Promise.all(schedulers.flatMap((s) => [s.runNow("tick"), s.runNow("tick")]));
        clock.advance(60_000);
      }
      const queue = createQueue({ ...queueStore(dbs[0]!), clock });
      const jobs = await queue.claim("inspect", 100, 60_000, ["tick.run"]);
      expect(jobs.map((j) => (j.payload as SlotPayload).slot).sort()).toEqual([
        Date.UTC(2030, 0, 1, 12, 0),
        Date.UTC(2030, 0, 1, 12, 1),
        Date.UTC(2030, 0, 1, 12, 2),
      ]);
    } finally {
      schedulers.forEach((s) => s.stopAll());
    }
  }, 20_000);
});

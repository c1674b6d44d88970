// Background lanes: a capped job type runs at most its cap at once and after every other due job.
import { expect, test } from "bun:test";
import { openTestDatabase } from "../db/client.ts";
import { createQueue } from "./queue.ts";
import { createRunner } from "./runner.ts";
import { anyJob, deferred, fakeClock } from "./testing.ts";
import { queueStore } from "../stores.ts";

test("bulk jobs are capped and never take the slot an interactive job is due for", async () => {
  const db = openTestDatabase();
  const clock = fakeClock();
  const queue = createQueue({ ...queueStore(db), clock });
  const runner = createRunner({ queue, clock, concurrency: 3 });
  const gate = deferred();
  let bulkRunning = 0;
  let maxBulk = 0;
  const order: string[] = [];
  const first = deferred();
  runner.register("bulk", {
    maxConcurrent: 2,
    async handle() {
      bulkRunning++;
      maxBulk = Math.max(maxBulk, bulkRunning);
      order.push("bulk");
      first.resolve();
      await gate.promise;
      bulkRunning--;
    },
  });
  runner.register("save", {
    async handle() {
      order.push("save");
      first.resolve();
    },
  });
  // Bulk work was queued first (older run_at), the interactive save after it.
  for (let i = 0; i < 10; i++) await queue.enqueue(anyJob("bulk"), { i });
  clock.advance(1);
  await queue.enqueue(anyJob("save"), {});
  const done = runner.drain({ timeoutMs: 10_000 });
  await first.promise;
  expect(order[0]).toBe("save");
  gate.resolve();
  const summary = await done;
  expect(summary.succeeded).toBe(11);
  expect(maxBulk).toBe(2);
}, 20_000);

test("quietFor waits while a job of the given types runs, and no longer than its limit", async () => {
  const db = openTestDatabase();
  const clock = fakeClock();
  const queue = createQueue({ ...queueStore(db), clock });
  const runner = createRunner({ queue, clock, concurrency: 2 });
  const started = deferred();
  const gate = deferred();
  runner.register("save", {
    async handle() {
      started.resolve();
      await gate.promise;
    },
  });
  runner.register("other", { async handle() {} });
  // Nothing running: resolves at once.
  await runner.quietFor(new Set(["save"]), 60_000);
  await queue.enqueue(anyJob("save"), {});
  const done = runner.drain({ timeoutMs: 10_000 });
  await started.promise;
  let quiet = false;
  const waiting = runner.quietFor(new Set(["save"]), 60_000).then(() => (quiet = true));
  // Other types do not count.
  await runner.quietFor(new Set(["other"]), 60_000);
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
  expect(quiet).toBe(false);
  // The limit bounds the wait even while the job still runs.
  await runner.quietFor(new Set(["save"]), 5);
  expect(quiet).toBe(false);
  gate.resolve();
  await waiting;
  expect(quiet).toBe(true);
  await done;
}, 20_000);

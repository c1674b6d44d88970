// The runner's loop over time: start/wake, concurrency, graceful stop, heartbeats and crash recovery.
import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../db/client.ts";
import { createQueue } from "./queue.ts";
import { createRunner } from "./runner.ts";
import { anyJob, deferred, fakeClock, waitFor } from "./testing.ts";
import { queueStore } from "../stores.ts";

function setup(opts: { concurrency?: number; leaseMs?: number } = {}) {
  const db = openTestDatabase();
  const clock = fakeClock();
  const queue = createQueue({ ...queueStore(db), clock });
  const runner = createRunner({
    queue,
    clock,
    concurrency: opts.concurrency ?? 2,
    leaseMs: opts.leaseMs ?? 60_000,
    pollMs: 10_000,
  });
  return { db, clock, queue, runner };
}

describe("start and stop", () => {
  test("wakes on enqueue without waiting for the poll, and keeps going after a failing job", async () => {
    const { queue, runner } = setup();
    const second = deferred();
    runner.register("t", {
      maxAttempts: 1,
      async handle(p) {
        if (p === 1) throw new Error("bad one");
        second.resolve();
      },
    });
    runner.start();
    await queue.enqueue(anyJob("t"), 1);
    await queue.enqueue(anyJob("t"), 2);
    await second.promise;
    await runner.stop();
    expect(await queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 1, failed: 1 });
  });

  test("never runs more than `concurrency` handlers at once", async () => {
    const { queue, runner } = setup({ concurrency: 2 });
    const gates = new Map<number, () => void>();
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    runner.register("slow", {
      async handle(p) {
        running++;
        peak = Math.max(peak, running);
        started.push(p as number);
        await new Promise<void>((resolve) => gates.set(p as number, resolve));
        running--;
      },
    });
    for (let i = 0; i < 6; i++) await queue.enqueue(anyJob("slow"), i);
    runner.start();
    await waitFor(() => gates.size === 2, "two handlers to start");
    expect((await queue.counts()).running).toBe(2);
    runner.wake();
    await Bun.sleep(0);
    expect(started).toHaveLength(2);
    for (let released = 0; released < 6; released++) {
      await waitFor(() => gates.size > released, "the next handler");
      gates.get(started[released]!)!();
    }
    await waitFor(async () => (await queue.counts()).succeeded === 6, "all jobs");
    await runner.stop();
    expect(peak).toBe(2);
  });

  test("stop() stops claiming and waits for running handlers to finish", async () => {
    const { queue, runner } = setup({ concurrency: 2 });
    const entered = deferred();
    const finish = deferred();
    runner.register("t", {
      async handle() {
        entered.resolve();
        await finish.promise;
      },
    });
    const first = (await queue.enqueue(anyJob("t"), 1)).id;
    runner.start();
    await entered.promise;
    let stopped = false;
    const stopping = runner.stop({ graceMs: 30_000 }).then(() => (stopped = true));
    const second = (await queue.enqueue(anyJob("t"), 2)).id;
    await Bun.sleep(20);
    expect(stopped).toBe(false);
    finish.resolve();
    await stopping;
    expect((await queue.get(first))?.status).toBe("succeeded");
    expect((await queue.get(second))?.status).toBe("queued");
    expect(runner.active()).toBe(0);
  });

  test("after the grace period stop() aborts handlers and hands their jobs back unspent", async () => {
    const { queue, runner } = setup();
    const entered = deferred();
    let reason: unknown;
    runner.register("long", {
      async handle(_p, ctx) {
        entered.resolve();
        await new Promise((_, reject) =>
          ctx.signal.addEventListener("abort", () => reject((reason = ctx.signal.reason))),
        );
      },
    });
    const id = (await queue.enqueue(anyJob("long"), {})).id;
    runner.start();
    await entered.promise;
    await runner.stop({ graceMs: 10 });
    expect(String(reason)).toContain("stopping");
    expect(await queue.get(id)).toMatchObject({ status: "queued", attempts: 0, lastError: null, leaseUntil: null });
  });

  test("a handler that ignores its abort signal still lets stop() return, and its job is released", async () => {
    const { queue, runner } = setup();
    const entered = deferred();
    const never = deferred();
    runner.register("deaf", {
      async handle() {
        entered.resolve();
        await never.promise;
      },
    });
    const id = (await queue.enqueue(anyJob("deaf"), {})).id;
    runner.start();
    await entered.promise;
    await runner.stop({ graceMs: 10 });
    expect(await queue.get(id)).toMatchObject({ status: "queued", attempts: 0 });
    // When it finally returns, its stale lock no longer matches: the job stays queued for a new run.
    never.resolve();
    await Bun.sleep(0);
    expect((await queue.get(id))?.status).toBe("queued");
  });
});

describe("leases", () => {
  test("a heartbeat extends the lease of a long job so it is not reclaimed", async () => {
    const { db, clock, queue, runner } = setup({ leaseMs: 90 });
    const entered = deferred();
    const finish = deferred();
    runner.register("long", {
      async handle() {
        entered.resolve();
        await finish.promise;
      },
    });
    const id = (await queue.enqueue(anyJob("long"), {})).id;
    runner.start();
    await entered.promise;
    const firstLease = (await queue.get(id))!.leaseUntil!;
    clock.advance(80);
    await waitFor(async () => (await queue.get(id))!.leaseUntil! > firstLease, "a heartbeat");
    clock.advance(80); // past the first lease, within the extended one
    const other = createQueue({ ...queueStore(db), clock });
    expect(await other.claim("other-worker", 10, 90)).toEqual([]);
    finish.resolve();
    await runner.stop();
    expect(await queue.get(id)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  test("a handler whose lease was taken over is aborted and cannot overwrite the new owner", async () => {
    const { clock, queue, runner } = setup({ leaseMs: 60 });
    const entered = deferred();
    const aborted = deferred();
    runner.register("t", {
      async handle(_p, ctx) {
        entered.resolve();
        await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
        aborted.resolve();
      },
    });
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    runner.start();
    await entered.promise;
    clock.advance(1_000);
    const [taken] = await queue.claim("other-worker", 1, 60_000);
    expect(taken?.id).toBe(id);
    await aborted.promise;
    await runner.stop();
    expect(await queue.get(id)).toMatchObject({ status: "running", lockedBy: "other-worker", attempts: 2 });
  });

  test("crash: a job claimed by a runner that died is picked up by another after its lease", async () => {
    const { db, clock, queue, runner: dead } = setup({ leaseMs: 60_000 });
    const entered = deferred();
    dead.register("ingest", {
      async handle() {
        entered.resolve();
        await new Promise(() => {}); // the process is "killed" here: nothing ever settles
      },
    });
    const id = (await queue.enqueue(anyJob("ingest"), { url: "https://example.com" })).id;
    void dead.runDue();
    await entered.promise;
    expect(await queue.get(id)).toMatchObject({ status: "running", lockedBy: dead.workerId });

    const queue2 = createQueue({ ...queueStore(db), clock });
    const survivor = createRunner({ queue: queue2, clock, leaseMs: 60_000 });
    const ran: number[] = [];
    survivor.register("ingest", {
      async handle(_p, ctx) {
        ran.push(ctx.attempt);
      },
    });
    expect((await survivor.drain()).ran).toBe(0);
    clock.advance(60_000);
    expect(await survivor.drain()).toMatchObject({ ran: 1, succeeded: 1 });
    expect(ran).toEqual([2]);
    expect(await queue.get(id)).toMatchObject({ status: "succeeded", attempts: 2, lockedBy: survivor.workerId });
  });

  test("a job that keeps killing its worker is failed once its attempts are used up", async () => {
    const { clock, queue, runner } = setup();
    let ran = 0;
    runner.register("poison", {
      maxAttempts: 2,
      async handle() {
        ran++;
      },
    });
    const id = (await queue.enqueue(anyJob("poison"), {})).id;
    await queue.claim("crashed-1", 1, 1_000);
    clock.advance(1_000);
    await queue.claim("crashed-2", 1, 1_000);
    clock.advance(1_000);
    expect(await runner.drain()).toMatchObject({ ran: 1, failed: 1 });
    expect(ran).toBe(0);
    expect(await queue.get(id)).toMatchObject({ status: "failed", attempts: 3 });
    expect((await queue.get(id))?.lastError).toContain("lease expired");
  });
});

describe("pruning", () => {
  test("the loop prunes finished jobs past their retention", async () => {
    const db = openTestDatabase();
    const clock = fakeClock();
    const queue = createQueue({ ...queueStore(db), clock });
    const old = (await queue.enqueue(anyJob("t"), {})).id;
    await queue.claim("w", 1, 1_000);
    await queue.complete(old);
    clock.advance(2_000);
    const runner = createRunner({ queue, retention: { succeededMs: 1_000 }, pollMs: 10_000 });
    runner.register("t", { async handle() {} });
    const fresh = (await queue.enqueue(anyJob("t"), {})).id;
    runner.start();
    await waitFor(async () => (await queue.get(fresh))?.status === "succeeded", "the fresh job");
    await runner.stop();
    expect(await queue.get(old)).toBeNull();
  });
});

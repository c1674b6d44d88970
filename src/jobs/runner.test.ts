// Runner behaviour through drain(): handlers, payload checks, retries, backoff and error signals.
import { describe, expect, test } from "bun:test";
import { Type as T } from "@sinclair/typebox";
import { openTestDatabase } from "../db/client.ts";
import { createQueue } from "./queue.ts";
import { PermanentError, RetryLaterError, defaultBackoff } from "./retry.ts";
import { createRunner } from "./runner.ts";
import { anyJob, fakeClock } from "./testing.ts";
import { defineJob, handleJob, type JobContext } from "./types.ts";
import { queueStore } from "../stores.ts";

function setup() {
  const db = openTestDatabase();
  const clock = fakeClock();
  const queue = createQueue({ ...queueStore(db), clock });
  const runner = createRunner({ queue, clock, concurrency: 3, leaseMs: 60_000 });
  return { db, clock, queue, runner };
}

describe("drain", () => {
  test("runs due jobs and the jobs their handlers enqueue, but not future ones", async () => {
    const { queue, runner } = setup();
    const seen: string[] = [];
    const N = { payload: T.Object({ n: T.Number() }) };
    runner.register("fetch", {
      ...N,
      async handle(p) {
        seen.push(`fetch:${p.n}`);
        await queue.enqueue(anyJob("index"), { n: p.n });
        await queue.enqueue(anyJob("index"), { n: p.n, later: true }, { delayMs: 60_000 });
      },
    });
    runner.register("index", {
      ...N,
      async handle(p) {
        seen.push(`index:${p.n}`);
      },
    });
    await queue.enqueue(anyJob("fetch"), { n: 1 });
    await queue.enqueue(anyJob("fetch"), { n: 2 });
    const summary = await runner.drain();
    expect(summary).toEqual({ ran: 4, succeeded: 4, retried: 0, failed: 0 });
    expect(seen.sort()).toEqual(["fetch:1", "fetch:2", "index:1", "index:2"]);
    expect(await queue.counts()).toEqual({ queued: 2, running: 0, succeeded: 4, failed: 0 });
    expect(await runner.drain()).toEqual({ ran: 0, succeeded: 0, retried: 0, failed: 0 });
  });

  test("a job that ends while a claim is awaited still has the work it enqueued run", async () => {
    // The claim after "a" ends starts before "b" enqueues "c" and returns after "b" has ended, so by
    // then nothing is running and that claim could not have seen "c" (PostgreSQL under load did this).
    const { queue: real } = setup();
    let claims = 0;
    let openB!: () => void;
    const bMayRun = new Promise<void>((r) => (openB = r));
    let bDone!: () => void;
    const bEnded = new Promise<void>((r) => (bDone = r));
    let bId = "";
    const queue = {
      ...real,
      async claim(...args: Parameters<typeof real.claim>) {
        const got = await real.claim(...args);
        if (++claims === 2) {
          openB();
          await bEnded;
          await new Promise((r) => setTimeout(r, 0)); // lets the runner forget "b" (its finally)
        }
        return got;
      },
      async complete(...args: Parameters<typeof real.complete>) {
        const ok = await real.complete(...args);
        if (args[0] === bId) bDone();
        return ok;
      },
    };
    const runner = createRunner({ queue, concurrency: 3, leaseMs: 60_000 });
    const ran: string[] = [];
    runner.register("a", { handle: async () => void ran.push("a") });
    runner.register("b", {
      async handle() {
        await bMayRun;
        await real.enqueue(anyJob("c"), null);
        ran.push("b");
      },
    });
    runner.register("c", { handle: async () => void ran.push("c") });
    await real.enqueue(anyJob("a"), null);
    bId = (await real.enqueue(anyJob("b"), null)).id;
    expect(await runner.drain()).toMatchObject({ ran: 3, succeeded: 3 });
    expect(ran).toEqual(["a", "b", "c"]);
  });

  test("waits for work outside the queue (a listener told after a commit) that enqueues a job late", async () => {
    // An event listener queues its job a few round trips after the commit that told it, as the
    // workflow dispatcher's kick does on PostgreSQL: drain() must not end before that job exists.
    const { queue } = setup();
    let late: Promise<void> | undefined;
    const runner = createRunner({
      queue,
      concurrency: 3,
      leaseMs: 60_000,
      settle: async () => {
        await late;
      },
    });
    const ran: string[] = [];
    runner.register("b", { handle: async () => void ran.push("b") });
    runner.register("a", {
      async handle() {
        ran.push("a");
        late = new Promise((r) => setTimeout(r, 20)).then(async () => void (await queue.enqueue(anyJob("b"), {})));
      },
    });
    late = new Promise((r) => setTimeout(r, 20)).then(async () => void (await queue.enqueue(anyJob("a"), {})));
    expect(await runner.drain()).toMatchObject({ ran: 2, succeeded: 2 });
    expect(ran).toEqual(["a", "b"]);
    // Without the hook the same late job is missed: this is what the hook is for.
    const bare = createRunner({ queue, concurrency: 3, leaseMs: 60_000 });
    bare.register("a", { handle: async () => void ran.push("a") });
    late = new Promise((r) => setTimeout(r, 20)).then(async () => void (await queue.enqueue(anyJob("a"), {})));
    expect((await bare.drain()).ran).toBe(0);
    await late;
    expect((await bare.drain()).ran).toBe(1);
  });

  test("passes the context and leaves jobs of unregistered types alone", async () => {
    const { queue, runner } = setup();
    let ctx: JobContext | undefined;
    runner.register("known", {
      maxAttempts: 7,
      async handle(_p, c) {
        ctx = c;
      },
    });
    const id = (await queue.enqueue(anyJob("known"), null)).id;
    const other = (await queue.enqueue(anyJob("unknown"), null)).id;
    await runner.drain();
    expect(ctx).toMatchObject({ jobId: id, attempt: 1, maxAttempts: 7 });
    expect(ctx?.signal.aborted).toBe(false);
    expect((await queue.get(other))?.status).toBe("queued");
  });

  test("one pass with runDue() runs at most `concurrency` jobs", async () => {
    const { queue, runner } = setup();
    runner.register("t", { async handle() {} });
    for (let i = 0; i < 5; i++) await queue.enqueue(anyJob("t"), i);
    expect((await runner.runDue()).ran).toBe(3);
    expect((await runner.runDue()).ran).toBe(2);
    expect((await runner.runDue()).ran).toBe(0);
  });

  test("rejects when handlers never finish within timeoutMs", async () => {
    const { queue, runner } = setup();
    runner.register("stuck", { handle: () => new Promise<void>(() => {}) });
    await queue.enqueue(anyJob("stuck"), {});
    await expect(runner.drain({ timeoutMs: 50 })).rejects.toThrow(/timed out.*stuck:job_/);
  });

  test("registering a type twice is refused", () => {
    const { runner } = setup();
    runner.register("t", { async handle() {} });
    expect(() => runner.register("t", { async handle() {} })).toThrow("already registered");
  });
});

describe("failures and retries", () => {
  test("retries with backoff, then fails for good after maxAttempts", async () => {
    const { queue, runner, clock } = setup();
    const attempts: number[] = [];
    runner.register("flaky", {
      maxAttempts: 3,
      backoff: (attempt) => attempt * 1_000,
      async handle(_p, ctx) {
        attempts.push(ctx.attempt);
        throw new Error(`nope ${ctx.attempt}`);
      },
    });
    const id = (await queue.enqueue(anyJob("flaky"), {})).id;
    expect(await runner.drain()).toMatchObject({ ran: 1, retried: 1 });
    expect(await queue.get(id)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "nope 1",
      runAt: clock.now() + 1_000,
    });
    clock.advance(999);
    expect((await runner.drain()).ran).toBe(0);
    clock.advance(1);
    await runner.drain();
    expect(await queue.get(id)).toMatchObject({ status: "queued", attempts: 2, runAt: clock.now() + 2_000 });
    clock.advance(2_000);
    expect(await runner.drain()).toMatchObject({ ran: 1, failed: 1 });
    expect(await queue.get(id)).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "nope 3",
      finishedAt: clock.now(),
    });
    clock.advance(3_600_000);
    expect((await runner.drain()).ran).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
  });

  test("the default is 5 attempts with exponential backoff and jitter", async () => {
    const { queue, runner, clock } = setup();
    runner.register("bad", {
      async handle() {
        throw new Error("down");
      },
    });
    const id = (await queue.enqueue(anyJob("bad"), {})).id;
    const delays: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const before = clock.now();
      await runner.drain();
      const job = (await queue.get(id))!;
      if (job.status === "failed") break;
      delays.push(job.runAt - before);
      clock.set(job.runAt);
    }
    expect(await queue.get(id)).toMatchObject({ status: "failed", attempts: 5 });
    expect(delays).toHaveLength(4);
    delays.forEach((d, i) => {
      const step = 1_000 * 2 ** i;
      expect(d).toBeGreaterThanOrEqual(step / 2);
      expect(d).toBeLessThanOrEqual(step);
    });
  });

  test("maxAttempts given at enqueue wins over the handler's", async () => {
    const { queue, runner } = setup();
    runner.register("bad", {
      maxAttempts: 9,
      async handle() {
        throw new Error("x");
      },
    });
    const id = (await queue.enqueue(anyJob("bad"), {}, { maxAttempts: 1 })).id;
    await runner.drain();
    expect(await queue.get(id)).toMatchObject({ status: "failed", attempts: 1 });
  });

  test("PermanentError fails the job at once", async () => {
    const { queue, runner } = setup();
    runner.register("gone", {
      async handle() {
        throw new PermanentError("source deleted");
      },
    });
    const id = (await queue.enqueue(anyJob("gone"), {})).id;
    expect(await runner.drain()).toMatchObject({ failed: 1 });
    expect(await queue.get(id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "PermanentError: source deleted",
    });
  });

  test("RetryLaterError retries after exactly its delay and uses up an attempt", async () => {
    const { queue, runner, clock } = setup();
    runner.register("limited", {
      maxAttempts: 2,
      async handle() {
        throw new RetryLaterError(42_000);
      },
    });
    const id = (await queue.enqueue(anyJob("limited"), {})).id;
    await runner.drain();
    expect(await queue.get(id)).toMatchObject({ status: "queued", attempts: 1, runAt: clock.now() + 42_000 });
    clock.advance(42_000);
    await runner.drain();
    expect(await queue.get(id)).toMatchObject({ status: "failed", attempts: 2 });
  });

  test("a handler that throws, even synchronously, does not stop the others", async () => {
    const { queue, runner } = setup();
    const done: number[] = [];
    runner.register("mixed", {
      maxAttempts: 1,
      handle(p) {
        if (p === 2) throw new Error("sync throw");
        done.push(p as number);
        return Promise.resolve();
      },
    });
    for (let i = 1; i <= 4; i++) await queue.enqueue(anyJob("mixed"), i);
    expect(await runner.drain()).toEqual({ ran: 4, succeeded: 3, retried: 0, failed: 1 });
    expect(done.sort()).toEqual([1, 3, 4]);
  });
});

describe("payload validation", () => {
  const handled: string[] = [];
  const sourceFetch = defineJob("source.fetch", T.Object({ sourceId: T.String({ pattern: "^src_" }) }));
  const { handler } = handleJob(sourceFetch, {
    async handle(p) {
      handled.push(p.sourceId);
    },
  });

  test("a valid payload reaches the handler; an invalid one fails at once without running it", async () => {
    const { queue, runner } = setup();
    runner.register(sourceFetch.type, handler);
    const ok = (await queue.enqueue(sourceFetch, { sourceId: "src_1" })).id;
    const bad = (await queue.enqueue(anyJob("source.fetch"), { sourceId: 12 })).id;
    expect(await runner.drain()).toEqual({ ran: 2, succeeded: 1, retried: 0, failed: 1 });
    expect(handled).toEqual(["src_1"]);
    expect((await queue.get(ok))?.status).toBe("succeeded");
    expect(await queue.get(bad)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await queue.get(bad))?.lastError).toContain("invalid payload: /sourceId");
  });
});

describe("defaultBackoff", () => {
  test("doubles from 1 s, stays within [step/2, step], caps at one hour", () => {
    expect(defaultBackoff(1, () => 0)).toBe(500);
    expect(defaultBackoff(1, () => 1)).toBe(1_000);
    expect(defaultBackoff(4, () => 0.5)).toBe(6_000);
    expect(defaultBackoff(30, () => 1)).toBe(3_600_000);
    expect(defaultBackoff(30, () => 0)).toBe(1_800_000);
  });
});

// Queue behaviour against the real migrations: outbox enqueue, idempotency, claiming, leases, pruning.
import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../db/client.ts";
import { sqlRows } from "../db/inspect.ts";
import type { JobEnqueuer } from "./port.ts";
import { createQueue } from "./queue.ts";
import { anyJob, fakeClock } from "./testing.ts";
import { queueStore } from "../stores.ts";

function setup() {
  const db = openTestDatabase();
  const clock = fakeClock();
  const queue = createQueue({ ...queueStore(db), clock });
  return { db, clock, queue };
}

describe("enqueue", () => {
  test("commits and rolls back with the caller's transaction (outbox)", async () => {
    const { db, queue } = setup();
    await sqlRows(db, "CREATE TABLE things (id TEXT PRIMARY KEY)");
    // The caller's own write, on the transaction's connection (sqlRows would run beside it).
    const insertThing = (id: string) =>
      db.engine === "postgres"
        ? db.pg.exec((c) => c.sql`INSERT INTO things (id) VALUES (${id})`)
        : db.exec(({ sqlite }) => sqlite.query("INSERT INTO things (id) VALUES (?)").run(id));
    const save = (id: string, fail: boolean) =>
      db.tx(async () => {
        await insertThing(id);
        await queue.enqueue(anyJob("things.index"), { id });
        if (fail) throw new Error("boom");
      });
    await expect(save("a", true)).rejects.toThrow("boom");
    expect(await queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0 });
    expect(await sqlRows(db, "SELECT count(*) AS n FROM things")).toEqual([{ n: 0 }]);
    await save("b", false);
    const [job] = await queue.claim("w", 10, 1000);
    expect(job?.type).toBe("things.index");
    expect(job?.payload).toEqual({ id: "b" });
  });

  test("wakes listeners only after the enqueuing transaction commits, never on rollback", async () => {
    const { db, queue } = setup();
    const woken: string[] = [];
    // null means "maybe missed some" (a PostgreSQL LISTEN coming up); this test counts named wake-ups.
    queue.onEnqueue((type) => type !== null && woken.push(type));
    await expect(
      db.tx(async () => {
        await queue.enqueue(anyJob("lost"), {});
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await db.tx(async () => {
      await queue.enqueue(anyJob("kept"), {});
      // Inside the transaction nobody has been told yet: the job is not visible to other connections.
      expect(woken).toEqual([]);
    });
    expect(woken).toEqual(["kept"]);
    await queue.enqueue(anyJob("alone"), {});
    await Promise.resolve();
    expect(woken).toEqual(["kept", "alone"]);
  });

  test("stores the job with its defaults", async () => {
    const { queue, clock } = setup();
    const narrow: JobEnqueuer = queue; // features depend on the narrow port; the queue must keep fitting it
    expect(narrow.enqueue).toBe(queue.enqueue);
    const { id, created } = await queue.enqueue(anyJob("mail.send"), { to: "a@example.com" });
    expect(created).toBe(true);
    expect(id).toMatch(/^job_[0-9A-Z]{26}$/);
    expect(await queue.get(id)).toMatchObject({
      type: "mail.send",
      status: "queued",
      attempts: 0,
      maxAttempts: null,
      runAt: clock.now(),
      leaseUntil: null,
      lastError: null,
      idempotencyKey: null,
      finishedAt: null,
    });
  });

  test("the same (type, idempotency key) returns the existing job", async () => {
    const { queue } = setup();
    const first = await queue.enqueue(anyJob("feed.poll"), { feed: 1 }, { idempotencyKey: "feed-1" });
    const again = await queue.enqueue(anyJob("feed.poll"), { feed: 2 }, { idempotencyKey: "feed-1" });
    expect(again).toEqual({ id: first.id, created: false });
    expect((await queue.get(first.id))?.payload).toEqual({ feed: 1 });
    expect((await queue.enqueue(anyJob("mail.send"), {}, { idempotencyKey: "feed-1" })).created).toBe(true);
    expect((await queue.enqueue(anyJob("feed.poll"), {})).created).toBe(true);
    expect((await queue.enqueue(anyJob("feed.poll"), {})).created).toBe(true);
    expect((await queue.counts("feed.poll")).queued).toBe(3);
  });

  test("an existing key inside a transaction still answers created:false", async () => {
    const { db, queue } = setup();
    const first = await queue.enqueue(anyJob("x"), {}, { idempotencyKey: "k" });
    const again = await db.tx(() => queue.enqueue(anyJob("x"), {}, { idempotencyKey: "k" }));
    expect(again).toEqual({ id: first.id, created: false });
  });

  test("delayMs and runAt decide when a job is due", async () => {
    const { queue, clock } = setup();
    const later = (await queue.enqueue(anyJob("t"), {}, { delayMs: 5_000 })).id;
    const at = (await queue.enqueue(anyJob("t"), {}, { runAt: clock.now() + 10_000 })).id;
    expect(await queue.claim("w", 10, 60_000)).toEqual([]);
    clock.advance(5_000);
    expect((await queue.claim("w", 10, 60_000)).map((j) => j.id)).toEqual([later]);
    clock.advance(5_000);
    expect((await queue.claim("w", 10, 60_000)).map((j) => j.id)).toEqual([at]);
  });

  test("rejects a bad maxAttempts", async () => {
    const { queue } = setup();
    await expect(queue.enqueue(anyJob("t"), {}, { maxAttempts: 0 })).rejects.toThrow("maxAttempts");
  });
});

describe("claim and leases", () => {
  test("claims due jobs oldest first, up to the limit, only of the given types", async () => {
    const { queue, clock } = setup();
    const a = (await queue.enqueue(anyJob("a"), 1)).id;
    clock.advance(1);
    const b = (await queue.enqueue(anyJob("b"), 2)).id;
    clock.advance(1);
    const c = (await queue.enqueue(anyJob("a"), 3)).id;
    expect(await queue.claim("w", 10, 1000, [])).toEqual([]);
    expect((await queue.claim("w", 1, 1000, ["a"])).map((j) => j.id)).toEqual([a]);
    expect((await queue.claim("w", 10, 1000, ["a"])).map((j) => j.id)).toEqual([c]);
    expect((await queue.claim("w", 10, 1000)).map((j) => j.id)).toEqual([b]);
  });

  test("a claim sets the lease, owner and attempt; a leased job is not claimed again", async () => {
    const { queue, clock } = setup();
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    const [job] = await queue.claim("w1", 5, 30_000);
    expect(job).toMatchObject({ id, status: "running", attempts: 1, lockedBy: "w1", leaseUntil: clock.now() + 30_000 });
    clock.advance(29_999);
    expect(await queue.claim("w2", 5, 30_000)).toEqual([]);
  });

  test("an expired lease is reclaimed, and the old owner can no longer write", async () => {
    const { queue, clock } = setup();
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    await queue.claim("w1", 1, 1_000);
    clock.advance(1_000);
    const [again] = await queue.claim("w2", 1, 1_000);
    expect(again).toMatchObject({ id, attempts: 2, lockedBy: "w2" });
    expect(await queue.complete(id, { workerId: "w1", attempt: 1 })).toBe(false);
    expect(await queue.fail(id, "late", { lock: { workerId: "w1", attempt: 1 } })).toBe(false);
    expect(await queue.extendLease(id, clock.now() + 99_000, { workerId: "w1", attempt: 1 })).toBe(false);
    expect((await queue.get(id))?.status).toBe("running");
    expect(await queue.complete(id, { workerId: "w2", attempt: 2 })).toBe(true);
    expect(await queue.get(id)).toMatchObject({ status: "succeeded", finishedAt: clock.now(), leaseUntil: null });
  });

  test("extending the lease keeps the job from being reclaimed", async () => {
    const { queue, clock } = setup();
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    await queue.claim("w1", 1, 1_000);
    clock.advance(900);
    expect(await queue.extendLease(id, clock.now() + 1_000, { workerId: "w1", attempt: 1 })).toBe(true);
    clock.advance(900);
    expect(await queue.claim("w2", 1, 1_000)).toEqual([]);
    clock.advance(100);
    expect(await queue.claim("w2", 1, 1_000)).toHaveLength(1);
  });
});

describe("finishing", () => {
  test("fail with retryAt queues again; without it the failure is final", async () => {
    const { queue, clock } = setup();
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    await queue.claim("w", 1, 1_000);
    expect(await queue.fail(id, new TypeError("bad thing"), { retryAt: clock.now() + 5_000 })).toBe(true);
    expect(await queue.get(id)).toMatchObject({
      status: "queued",
      runAt: clock.now() + 5_000,
      lastError: "TypeError: bad thing",
      lockedBy: null,
      attempts: 1,
    });
    clock.advance(5_000);
    await queue.claim("w", 1, 1_000);
    expect(await queue.fail(id, "still bad")).toBe(true);
    expect(await queue.get(id)).toMatchObject({
      status: "failed",
      lastError: "still bad",
      attempts: 2,
      finishedAt: clock.now(),
    });
    expect(await queue.claim("w", 1, 1_000)).toEqual([]);
  });

  test("release hands the job back, due now, without counting the attempt", async () => {
    const { queue } = setup();
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    await queue.claim("w", 1, 60_000);
    expect(await queue.release(id, { workerId: "w", attempt: 1 })).toBe(true);
    expect(await queue.get(id)).toMatchObject({ status: "queued", attempts: 0, leaseUntil: null });
    expect((await queue.claim("w2", 1, 60_000))[0]?.attempts).toBe(1);
  });

  test("complete only applies to running jobs", async () => {
    const { queue } = setup();
    const id = (await queue.enqueue(anyJob("t"), {})).id;
    expect(await queue.complete(id)).toBe(false);
    expect(await queue.complete("job_missing")).toBe(false);
    expect(await queue.get("job_missing")).toBeNull();
  });

  test("counts by status, optionally for one type", async () => {
    const { queue } = setup();
    await queue.enqueue(anyJob("a"), {});
    await queue.enqueue(anyJob("a"), {});
    const b = (await queue.enqueue(anyJob("b"), {})).id;
    await queue.claim("w", 1, 1_000, ["b"]);
    await queue.complete(b);
    expect(await queue.counts()).toEqual({ queued: 2, running: 0, succeeded: 1, failed: 0 });
    expect(await queue.counts("a")).toEqual({ queued: 2, running: 0, succeeded: 0, failed: 0 });
  });

  test("prune removes finished jobs past retention, frees their idempotency keys, keeps the rest", async () => {
    const { queue, clock } = setup();
    const old = (await queue.enqueue(anyJob("t"), {}, { idempotencyKey: "k" })).id;
    const oldFailed = (await queue.enqueue(anyJob("u"), {})).id;
    await queue.claim("w", 10, 1_000);
    await queue.complete(old);
    await queue.fail(oldFailed, "x");
    clock.advance(10_000);
    const recent = (await queue.enqueue(anyJob("t"), {})).id;
    const pending = (await queue.enqueue(anyJob("v"), {}, { delayMs: 1 })).id;
    await queue.claim("w", 1, 1_000, ["t"]);
    await queue.complete(recent);
    expect(await queue.prune({ succeededBefore: clock.now() - 5_000 })).toBe(1);
    expect(await queue.get(old)).toBeNull();
    expect((await queue.get(oldFailed))?.status).toBe("failed");
    expect(await queue.prune({ succeededBefore: clock.now() - 5_000, failedBefore: clock.now() - 5_000 })).toBe(1);
    expect((await queue.get(recent))?.status).toBe("succeeded");
    expect((await queue.get(pending))?.status).toBe("queued");
    expect((await queue.enqueue(anyJob("t"), {}, { idempotencyKey: "k" })).created).toBe(true);
  });

  test("prune works through more rows than one batch", async () => {
    const { queue, clock } = setup();
    for (let i = 0; i < 1_200; i++) await queue.enqueue(anyJob("t"), i);
    for (const j of await queue.claim("w", 2_000, 1_000)) await queue.complete(j.id);
    clock.advance(10);
    expect(await queue.prune({ succeededBefore: clock.now() })).toBe(1_200);
    expect((await queue.counts()).succeeded).toBe(0);
  });
});

describe("holdsLease", () => {
  test("is true for the attempt holding the job and false once a lapsed lease was taken over", async () => {
    const { queue, clock } = setup();
    await queue.enqueue(anyJob("things.index"), { id: "a" });
    const [first] = await queue.claim("w1", 1, 1000);
    expect(await queue.holdsLease(first!.id, first!.attempts)).toBe(true);
    clock.advance(1001);
    const [again] = await queue.claim("w2", 1, 1000);
    expect(again?.id).toBe(first!.id);
    expect(await queue.holdsLease(first!.id, first!.attempts)).toBe(false);
    expect(await queue.holdsLease(again!.id, again!.attempts)).toBe(true);
    await queue.complete(again!.id);
    expect(await queue.holdsLease(again!.id, again!.attempts)).toBe(false);
  });
});

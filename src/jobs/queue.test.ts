// Queue behaviour against the real migrations: outbox enqueue, idempotency, claiming, leases, pruning.
import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../db/client.ts";
import type { JobEnqueuer } from "./port.ts";
import { createQueue } from "./queue.ts";
import { fakeClock } from "./testing.ts";

function setup() {
  const db = openTestDatabase();
  const clock = fakeClock();
  const queue = createQueue({ db, clock });
  return { db, clock, queue };
}

describe("enqueue", () => {
  test("commits and rolls back with the caller's transaction (outbox)", () => {
    const { db, queue } = setup();
    db.sqlite.exec("CREATE TABLE things (id TEXT PRIMARY KEY)");
    const save = db.sqlite.transaction((id: string, fail: boolean) => {
      db.sqlite.query("INSERT INTO things (id) VALUES (?)").run(id);
      queue.enqueue("things.index", { id });
      if (fail) throw new Error("boom");
    });
    expect(() => save("a", true)).toThrow("boom");
    expect(queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0 });
    expect(db.sqlite.query("SELECT count(*) AS n FROM things").get()).toEqual({ n: 0 });
    save("b", false);
    const [job] = queue.claim("w", 10, 1000);
    expect(job?.type).toBe("things.index");
    expect(job?.payload).toEqual({ id: "b" });
  });

  test("wakes listeners only after the enqueuing transaction commits, never on rollback", async () => {
    const { db, queue } = setup();
    const woken: string[] = [];
    queue.onEnqueue((type) => woken.push(type));
    expect(() =>
      db.tx(() => {
        queue.enqueue("lost", {});
        throw new Error("boom");
      }),
    ).toThrow("boom");
    db.tx(() => {
      queue.enqueue("kept", {});
      // Inside the transaction nobody has been told yet: the job is not visible to other connections.
      expect(woken).toEqual([]);
    });
    expect(woken).toEqual(["kept"]);
    queue.enqueue("alone", {});
    await Promise.resolve();
    expect(woken).toEqual(["kept", "alone"]);
  });

  test("stores the job with its defaults", () => {
    const { queue, clock } = setup();
    const narrow: JobEnqueuer = queue; // features depend on the narrow port; the queue must keep fitting it
    expect(narrow.enqueue).toBe(queue.enqueue);
    const { id, created } = queue.enqueue("mail.send", { to: "a@example.com" });
    expect(created).toBe(true);
    expect(id).toMatch(/^job_[0-9A-Z]{26}$/);
    expect(queue.get(id)).toMatchObject({
      type: "mail.send", status: "queued", attempts: 0, maxAttempts: null, runAt: clock.now(),
      leaseUntil: null, lastError: null, idempotencyKey: null, finishedAt: null,
    });
  });

  test("the same (type, idempotency key) returns the existing job", () => {
    const { queue } = setup();
    const first = queue.enqueue("feed.poll", { feed: 1 }, { idempotencyKey: "feed-1" });
    const again = queue.enqueue("feed.poll", { feed: 2 }, { idempotencyKey: "feed-1" });
    expect(again).toEqual({ id: first.id, created: false });
    expect(queue.get(first.id)?.payload).toEqual({ feed: 1 });
    expect(queue.enqueue("mail.send", {}, { idempotencyKey: "feed-1" }).created).toBe(true);
    expect(queue.enqueue("feed.poll", {}).created).toBe(true);
    expect(queue.enqueue("feed.poll", {}).created).toBe(true);
    expect(queue.counts("feed.poll").queued).toBe(3);
  });

  test("an existing key inside a transaction still answers created:false", () => {
    const { db, queue } = setup();
    const first = queue.enqueue("x", {}, { idempotencyKey: "k" });
    const again = db.sqlite.transaction(() => queue.enqueue("x", {}, { idempotencyKey: "k" }))();
    expect(again).toEqual({ id: first.id, created: false });
  });

  test("delayMs and runAt decide when a job is due", () => {
    const { queue, clock } = setup();
    const later = queue.enqueue("t", {}, { delayMs: 5_000 }).id;
    const at = queue.enqueue("t", {}, { runAt: clock.now() + 10_000 }).id;
    expect(queue.claim("w", 10, 60_000)).toEqual([]);
    clock.advance(5_000);
    expect(queue.claim("w", 10, 60_000).map((j) => j.id)).toEqual([later]);
    clock.advance(5_000);
    expect(queue.claim("w", 10, 60_000).map((j) => j.id)).toEqual([at]);
  });

  test("rejects a bad maxAttempts", () => {
    const { queue } = setup();
    expect(() => queue.enqueue("t", {}, { maxAttempts: 0 })).toThrow("maxAttempts");
  });
});

describe("claim and leases", () => {
  test("claims due jobs oldest first, up to the limit, only of the given types", () => {
    const { queue, clock } = setup();
    const a = queue.enqueue("a", 1).id;
    clock.advance(1);
    const b = queue.enqueue("b", 2).id;
    clock.advance(1);
    const c = queue.enqueue("a", 3).id;
    expect(queue.claim("w", 10, 1000, [])).toEqual([]);
    expect(queue.claim("w", 1, 1000, ["a"]).map((j) => j.id)).toEqual([a]);
    expect(queue.claim("w", 10, 1000, ["a"]).map((j) => j.id)).toEqual([c]);
    expect(queue.claim("w", 10, 1000).map((j) => j.id)).toEqual([b]);
  });

  test("a claim sets the lease, owner and attempt; a leased job is not claimed again", () => {
    const { queue, clock } = setup();
    const id = queue.enqueue("t", {}).id;
    const [job] = queue.claim("w1", 5, 30_000);
    expect(job).toMatchObject({ id, status: "running", attempts: 1, lockedBy: "w1", leaseUntil: clock.now() + 30_000 });
    clock.advance(29_999);
    expect(queue.claim("w2", 5, 30_000)).toEqual([]);
  });

  test("an expired lease is reclaimed, and the old owner can no longer write", () => {
    const { queue, clock } = setup();
    const id = queue.enqueue("t", {}).id;
    queue.claim("w1", 1, 1_000);
    clock.advance(1_000);
    const [again] = queue.claim("w2", 1, 1_000);
    expect(again).toMatchObject({ id, attempts: 2, lockedBy: "w2" });
    expect(queue.complete(id, { workerId: "w1", attempt: 1 })).toBe(false);
    expect(queue.fail(id, "late", { lock: { workerId: "w1", attempt: 1 } })).toBe(false);
    expect(queue.extendLease(id, clock.now() + 99_000, { workerId: "w1", attempt: 1 })).toBe(false);
    expect(queue.get(id)?.status).toBe("running");
    expect(queue.complete(id, { workerId: "w2", attempt: 2 })).toBe(true);
    expect(queue.get(id)).toMatchObject({ status: "succeeded", finishedAt: clock.now(), leaseUntil: null });
  });

  test("extending the lease keeps the job from being reclaimed", () => {
    const { queue, clock } = setup();
    const id = queue.enqueue("t", {}).id;
    queue.claim("w1", 1, 1_000);
    clock.advance(900);
    expect(queue.extendLease(id, clock.now() + 1_000, { workerId: "w1", attempt: 1 })).toBe(true);
    clock.advance(900);
    expect(queue.claim("w2", 1, 1_000)).toEqual([]);
    clock.advance(100);
    expect(queue.claim("w2", 1, 1_000)).toHaveLength(1);
  });
});

describe("finishing", () => {
  test("fail with retryAt queues again; without it the failure is final", () => {
    const { queue, clock } = setup();
    const id = queue.enqueue("t", {}).id;
    queue.claim("w", 1, 1_000);
    expect(queue.fail(id, new TypeError("bad thing"), { retryAt: clock.now() + 5_000 })).toBe(true);
    expect(queue.get(id)).toMatchObject({ status: "queued", runAt: clock.now() + 5_000, lastError: "TypeError: bad thing", lockedBy: null, attempts: 1 });
    clock.advance(5_000);
    queue.claim("w", 1, 1_000);
    expect(queue.fail(id, "still bad")).toBe(true);
    expect(queue.get(id)).toMatchObject({ status: "failed", lastError: "still bad", attempts: 2, finishedAt: clock.now() });
    expect(queue.claim("w", 1, 1_000)).toEqual([]);
  });

  test("release hands the job back, due now, without counting the attempt", () => {
    const { queue } = setup();
    const id = queue.enqueue("t", {}).id;
    queue.claim("w", 1, 60_000);
    expect(queue.release(id, { workerId: "w", attempt: 1 })).toBe(true);
    expect(queue.get(id)).toMatchObject({ status: "queued", attempts: 0, leaseUntil: null });
    expect(queue.claim("w2", 1, 60_000)[0]?.attempts).toBe(1);
  });

  test("complete only applies to running jobs", () => {
    const { queue } = setup();
    const id = queue.enqueue("t", {}).id;
    expect(queue.complete(id)).toBe(false);
    expect(queue.complete("job_missing")).toBe(false);
    expect(queue.get("job_missing")).toBeNull();
  });

  test("counts by status, optionally for one type", () => {
    const { queue } = setup();
    queue.enqueue("a", {});
    queue.enqueue("a", {});
    const b = queue.enqueue("b", {}).id;
    queue.claim("w", 1, 1_000, ["b"]);
    queue.complete(b);
    expect(queue.counts()).toEqual({ queued: 2, running: 0, succeeded: 1, failed: 0 });
    expect(queue.counts("a")).toEqual({ queued: 2, running: 0, succeeded: 0, failed: 0 });
  });

  test("prune removes finished jobs past retention, frees their idempotency keys, keeps the rest", () => {
    const { queue, clock } = setup();
    const old = queue.enqueue("t", {}, { idempotencyKey: "k" }).id;
    const oldFailed = queue.enqueue("u", {}).id;
    queue.claim("w", 10, 1_000);
    queue.complete(old);
    queue.fail(oldFailed, "x");
    clock.advance(10_000);
    const recent = queue.enqueue("t", {}).id;
    const pending = queue.enqueue("v", {}, { delayMs: 1 }).id;
    queue.claim("w", 1, 1_000, ["t"]);
    queue.complete(recent);
    expect(queue.prune({ succeededBefore: clock.now() - 5_000 })).toBe(1);
    expect(queue.get(old)).toBeNull();
    expect(queue.get(oldFailed)?.status).toBe("failed");
    expect(queue.prune({ succeededBefore: clock.now() - 5_000, failedBefore: clock.now() - 5_000 })).toBe(1);
    expect(queue.get(recent)?.status).toBe("succeeded");
    expect(queue.get(pending)?.status).toBe("queued");
    expect(queue.enqueue("t", {}, { idempotencyKey: "k" }).created).toBe(true);
  });

  test("prune works through more rows than one batch", () => {
    const { queue, clock } = setup();
    for (let i = 0; i < 1_200; i++) queue.enqueue("t", i);
    for (const j of queue.claim("w", 2_000, 1_000)) queue.complete(j.id);
    clock.advance(10);
    expect(queue.prune({ succeededBefore: clock.now() })).toBe(1_200);
    expect(queue.counts().succeeded).toBe(0);
  });
});

// The events outbox repository on whichever engine the test run uses (SQLite, or PostgreSQL with
// DATABASE_URL): reading back for streams, and the dispatcher's claims, leases and marks.
import { afterEach, describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import type { Db } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import type { NewEvent } from "./repo.ts";
import { createEventsRepo } from "../../stores.ts";

const dbs: Db[] = [];
afterEach(() => dbs.splice(0).forEach((d) => d.close()));

function setup() {
  const db = openTestDatabase();
  dbs.push(db);
  const repo = createEventsRepo(db);
  const add = (userId: string, type = "source.created", dispatchedAt: number | null = null) => {
    const row: NewEvent = {
      id: newId("event"),
      userId,
      type,
      occurredAt: new Date(0).toISOString(),
      data: JSON.stringify({ type }),
      previous: null,
      depth: 0,
      dispatchedAt,
    };
    return repo.insert(row);
  };
  return { db, repo, add };
}

describe("events repository", () => {
  test("reads back in sequence, per user, with a type filter and a before cursor", async () => {
    const { repo, add } = setup();
    const s1 = await add("usr_a", "source.created");
    const s2 = await add("usr_b", "note.created");
    const s3 = await add("usr_a", "note.created");
    expect(s1 < s2 && s2 < s3).toBe(true);
    expect(await repo.latestSeq()).toBe(s3);
    expect((await repo.after(s1, 10)).map((e) => e.seq)).toEqual([s2, s3]);
    expect((await repo.after(0, 1)).map((e) => e.seq)).toEqual([s1]);
    expect((await repo.afterForUser("usr_a", 0, 10)).map((e) => e.seq)).toEqual([s1, s3]);
    expect((await repo.forUser("usr_a", { limit: 10 })).map((e) => e.seq)).toEqual([s3, s1]);
    expect((await repo.forUser("usr_a", { limit: 10, beforeSeq: s3 })).map((e) => e.seq)).toEqual([s1]);
    expect((await repo.forUser("usr_a", { limit: 10, type: "note.created" })).map((e) => e.seq)).toEqual([s3]);
    const [row] = await repo.after(s2, 1);
    expect(row).toMatchObject({ seq: s3, userId: "usr_a", type: "note.created", depth: 0, dispatchedAt: null });
    expect(JSON.parse(row!.data)).toEqual({ type: "note.created" });
  });

  test("an empty outbox: no latest, no pending, no lease", async () => {
    const { repo } = setup();
    expect(await repo.latestSeq()).toBe(0);
    expect(await repo.latestPendingSeq()).toBeNull();
    expect(await repo.nextLeaseExpiry(0)).toBeNull();
    expect(await repo.claimPending({ now: 0, leaseUntil: 10, limit: 5 })).toEqual([]);
  });

  test("claims lease pending events once; a mark needs the claim's lease; a release or an expiry frees them", async () => {
    const { repo, add } = setup();
    const now = 1_000_000;
    const done = await add("usr_a", "run.started", now);
    const [a, b, c] = [await add("usr_a"), await add("usr_a"), await add("usr_a")];
    expect(await repo.latestPendingSeq()).toBe(c);

    const first = await repo.claimPending({ now, leaseUntil: now + 100, limit: 2 });
    expect(first.map((e) => e.seq)).toEqual([a, b]);
    expect(first[0]!.dispatchLeaseUntil).toBe(now + 100);
    // Held events are not claimed again while the lease runs; the rest are.
    expect((await repo.claimPending({ now, leaseUntil: now + 200, limit: 10 })).map((e) => e.seq)).toEqual([c]);
    expect(await repo.claimPending({ now: now + 99, leaseUntil: now + 300, limit: 10 })).toEqual([]);
    expect(await repo.nextLeaseExpiry(now)).toBe(now + 100);

    expect(await repo.markDispatched(a, now + 1, now)).toBe(false); // not this claim's lease
    expect(await repo.markDispatched(a, now + 100, now)).toBe(true);
    expect(await repo.markDispatched(a, now + 100, now)).toBe(false); // already done
    expect(await repo.markDispatched(done, now + 100, now)).toBe(false);

    // A release frees only this claim's events.
    await repo.releaseClaims([b, c], now + 100);
    expect((await repo.claimPending({ now, leaseUntil: now + 400, limit: 10 })).map((e) => e.seq)).toEqual([b]);
    // c's lease (now + 200) runs out: it is claimed again, under a new lease that fences the old one.
    expect((await repo.claimPending({ now: now + 200, leaseUntil: now + 500, limit: 10 })).map((e) => e.seq)).toEqual([
      c,
    ]);
    expect(await repo.markDispatched(c, now + 200, now)).toBe(false);
    expect(await repo.markDispatched(c, now + 500, now)).toBe(true);
    expect(await repo.markDispatched(b, now + 400, now)).toBe(true);
    expect(await repo.latestPendingSeq()).toBeNull();
    expect(await repo.nextLeaseExpiry(now)).toBeNull();
  });

  test("a claim inside a rolled-back transaction leaves the events pending", async () => {
    const { db, repo, add } = setup();
    const a = await add("usr_a");
    await expect(
      db.tx(async () => {
        expect((await repo.claimPending({ now: 1, leaseUntil: 100, limit: 10 })).map((e) => e.seq)).toEqual([a]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await repo.claimPending({ now: 1, leaseUntil: 100, limit: 10 })).map((e) => e.seq)).toEqual([a]);
  });
});

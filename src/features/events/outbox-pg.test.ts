// The events outbox on PostgreSQL (runs when DATABASE_URL names a server): two pools on one schema stand
// for two processes; claims with FOR UPDATE SKIP LOCKED never hand one event to both, and an event that
// commits after a later one is still dispatched.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../../config.ts";
import { testSchemaName } from "../../db/client.ts";
import { openPostgres } from "../../db/pg/client.ts";
import { pgAsDb } from "../../db/pg/as-db.ts";
import type { Db } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import type { EventsRepo } from "./repo.ts";
import { createEventsRepo } from "../../stores.ts";

const url = databaseUrl();
const opened: Db[] = [];
const open = (schema: string) => {
  const db = pgAsDb(openPostgres(url!, { schema, max: 4, idleTimeout: 2 }));
  opened.push(db);
  return db;
};
afterAll(async () => {
  await Promise.all(opened.map((d) => d.end()));
});

const event = (userId: string) => ({
  id: newId("event"),
  userId,
  type: "source.created",
  occurredAt: new Date(0).toISOString(),
  data: "{}",
  previous: null,
  depth: 0,
  dispatchedAt: null,
});

/** A dispatcher's loop as workflows/dispatcher.ts runs it: claim a batch, mark each event in its own transaction. */
async function drain(db: Db, repo: EventsRepo, log: { claimed: number[]; marked: number[] }): Promise<void> {
  for (;;) {
    const now = Date.now();
    const lease = now + 60_000;
    const batch = await repo.claimPending({ now, leaseUntil: lease, limit: 7 });
    if (batch.length === 0 && (await repo.latestPendingSeq()) === null) return;
    for (const e of batch) {
      log.claimed.push(e.seq);
      if (await db.tx(() => repo.markDispatched(e.seq, lease, Date.now()))) log.marked.push(e.seq);
    }
    // Yield so the other pool's claims interleave with this one's.
    await Bun.sleep(0);
  }
}

describe.skipIf(!url)("events outbox on PostgreSQL", () => {
  test("two processes claiming concurrently dispatch each event exactly once", async () => {
    const schema = testSchemaName();
    const [a, b] = [open(schema), open(schema)];
    await Promise.all([a.ready, b.ready]);
    const [repoA, repoB] = [createEventsRepo(a), createEventsRepo(b)];
    const seqs: number[] = [];
    for (let i = 0; i < 300; i++) seqs.push(await (i % 2 ? repoA : repoB).insert(event("usr_a")));
    const logA = { claimed: [] as number[], marked: [] as number[] };
    const logB = { claimed: [] as number[], marked: [] as number[] };
    await Promise.all([drain(a, repoA, logA), drain(b, repoB, logB), drain(a, repoA, logA), drain(b, repoB, logB)]);
    const claimed = [...logA.claimed, ...logB.claimed];
    // No event was handed to two claims (a lease of a minute never ran out here), and every one was marked once.
    expect(claimed.length).toBe(300);
    expect(new Set(claimed).size).toBe(300);
    expect([...logA.marked, ...logB.marked].sort((x, y) => x - y)).toEqual(seqs);
    // Both processes did part of the work.
    expect(logA.marked.length).toBeGreaterThan(0);
    expect(logB.marked.length).toBeGreaterThan(0);
  }, 60_000);

  test("an event that commits after a later one is still claimed (no cursor passes it by)", async () => {
    const schema = testSchemaName();
    const [a, b] = [open(schema), open(schema)];
    const [repoA, repoB] = [createEventsRepo(a), createEventsRepo(b)];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: (seq: number) => void;
    const earlySeq = new Promise<number>((r) => (inserted = r));
    // Process A takes the earlier sequence number but does not commit yet.
    const slow = a.tx(async () => {
      inserted(await repoA.insert(event("usr_a")));
      await held;
    });
    const early = await earlySeq;
    const late = await repoB.insert(event("usr_a"));
    expect(late).toBeGreaterThan(early);
    const now = Date.now();
    const first = await repoB.claimPending({ now, leaseUntil: now + 60_000, limit: 10 });
    expect(first.map((e) => e.seq)).toEqual([late]);
    expect(await repoB.markDispatched(late, now + 60_000, now)).toBe(true);
    release();
    await slow;
    const second = await repoB.claimPending({ now, leaseUntil: now + 60_000, limit: 10 });
    expect(second.map((e) => e.seq)).toEqual([early]);
  }, 30_000);
});

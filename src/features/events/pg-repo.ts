// SQL for the events outbox on PostgreSQL: the twin of repo.ts; claims lock rows with FOR UPDATE SKIP LOCKED.
import { type PgDb, type PgSql, pgArray } from "../../db/pg/port.ts";
import type { EventRow } from "../../db/schema/index.ts";
import { cacheChannel, EVENT_RECORDED } from "../../db/pg/change-watch.ts";
import type { EventsRepo } from "./repo.ts";

// Quoted aliases: PostgreSQL folds unquoted names to lower case.
const cols = (sql: PgSql) =>
  sql`seq, id, user_id AS "userId", type, occurred_at AS "occurredAt", data, previous, depth,
    dispatched_at AS "dispatchedAt", dispatch_lease_until AS "dispatchLeaseUntil"`;

export function createEventsPgRepo(db: PgDb): EventsRepo {
  const eventsChannel = cacheChannel(db.schema);
  const rows = (fn: (sql: PgSql) => Promise<unknown>): Promise<EventRow[]> =>
    db.query(async (c) => (await fn(c.sql)) as EventRow[]);

  return {
    async insert(row) {
      return db.exec(async (c) => {
        const [r] = await c.sql<{ seq: number }[]>`
          INSERT INTO events (id, user_id, type, occurred_at, data, previous, depth, dispatched_at)
          VALUES (${row.id}, ${row.userId}, ${row.type}, ${row.occurredAt}, ${row.data}, ${row.previous},
            ${row.depth}, ${row.dispatchedAt})
          RETURNING seq`;
        // Other processes' live hubs learn of it at COMMIT (their streams read what is new).
        await c.sql`SELECT pg_notify(${eventsChannel}, ${EVENT_RECORDED})`;
        return r!.seq;
      });
    },
    async after(seq, limit) {
      return rows((sql) => sql`SELECT ${cols(sql)} FROM events WHERE seq > ${seq} ORDER BY seq LIMIT ${limit}`);
    },
    async afterForUser(userId, seq, limit) {
      return rows(
        (sql) =>
          sql`SELECT ${cols(sql)} FROM events WHERE user_id = ${userId} AND seq > ${seq} ORDER BY seq LIMIT ${limit}`,
      );
    },
    async latestSeq() {
      return db.query(
        async (c) => (await c.sql<{ seq: number | null }[]>`SELECT max(seq) AS seq FROM events`)[0]?.seq ?? 0,
      );
    },
    async forUser(userId, opts) {
      return rows(
        (sql) => sql`SELECT ${cols(sql)} FROM events WHERE user_id = ${userId}
          ${opts.beforeSeq === undefined ? sql`` : sql`AND seq < ${opts.beforeSeq}`}
          ${opts.type === undefined ? sql`` : sql`AND type = ${opts.type}`}
          ORDER BY seq DESC LIMIT ${opts.limit}`,
      );
    },
    // Rows another dispatcher is claiming right now are skipped, not waited for; one it has just
    // claimed is re-checked against its new lease (READ COMMITTED re-evaluates a locked row), so two
    // processes never hold the same event. Pending rows are found by the events_pending index, in seq
    // order but not by a cursor: an event that commits after a later one is still claimed.
    async claimPending(p) {
      const claimed = await db.exec(
        (c) => c.sql<EventRow[]>`
          UPDATE events SET dispatch_lease_until = ${p.leaseUntil}
          WHERE seq IN (SELECT seq FROM events WHERE dispatched_at IS NULL
                          AND (dispatch_lease_until IS NULL OR dispatch_lease_until <= ${p.now})
                        ORDER BY seq LIMIT ${p.limit} FOR UPDATE SKIP LOCKED)
          RETURNING ${cols(c.sql)}`,
      );
      return [...claimed].sort((a, b) => a.seq - b.seq);
    },
    async markDispatched(seq, lease, now) {
      const r = await db.exec(
        (c) => c.sql`UPDATE events SET dispatched_at = ${now}, dispatch_lease_until = NULL
          WHERE seq = ${seq} AND dispatched_at IS NULL AND dispatch_lease_until = ${lease}`,
      );
      return r.count > 0;
    },
    async releaseClaims(seqs, lease) {
      if (seqs.length === 0) return;
      await db.exec(
        (c) => c.sql`UPDATE events SET dispatch_lease_until = NULL
          WHERE seq = ANY(${pgArray(seqs)}::bigint[]) AND dispatched_at IS NULL AND dispatch_lease_until = ${lease}`,
      );
    },
    async latestPendingSeq() {
      return db.query(
        async (c) =>
          (await c.sql<{ seq: number | null }[]>`SELECT max(seq) AS seq FROM events WHERE dispatched_at IS NULL`)[0]
            ?.seq ?? null,
      );
    },
    async nextLeaseExpiry(now) {
      return db.query(
        async (c) =>
          (
            await c.sql<{ until: number | null }[]>`SELECT min(dispatch_lease_until) AS until FROM events
              WHERE dispatched_at IS NULL AND dispatch_lease_until > ${now}`
          )[0]?.until ?? null,
      );
    },
  };
}

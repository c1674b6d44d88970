// SQL for the events outbox: recording, reading back for streams, and the dispatcher's claims.
import type { SqliteDb } from "../../db/port.ts";
import type { EventRow } from "../../db/schema/index.ts";

type P = Record<string, string | number | null>;

const COLS = `seq, id, user_id AS userId, type, occurred_at AS occurredAt, data, previous, depth,
  dispatched_at AS dispatchedAt, dispatch_lease_until AS dispatchLeaseUntil`;

// Every change records an event, and an import records thousands in a row: prepared SQL, not a builder.
const INSERT = `INSERT INTO events (id, user_id, type, occurred_at, data, previous, depth, dispatched_at)
  VALUES ($id, $userId, $type, $occurredAt, $data, $previous, $depth, $dispatchedAt) RETURNING seq`;
const AFTER = `SELECT ${COLS} FROM events WHERE seq > $seq ORDER BY seq LIMIT $limit`;
/** Uses the (user_id, seq) index: a resume reads only this user's rows. */
const AFTER_FOR_USER = `SELECT ${COLS} FROM events WHERE user_id = $userId AND seq > $seq ORDER BY seq LIMIT $limit`;
const LATEST = `SELECT max(seq) AS seq FROM events`;
const FOR_USER = `SELECT ${COLS} FROM events WHERE user_id = $userId AND ($beforeSeq IS NULL OR seq < $beforeSeq)
  AND ($type IS NULL OR type = $type) ORDER BY seq DESC LIMIT $limit`;

// One statement, so two dispatchers can never claim the same event: the lease value each writes is
// later than any expired one, so it also names the claim (a fencing token) when the event is marked.
const CLAIM = `UPDATE events SET dispatch_lease_until = $leaseUntil
  WHERE seq IN (SELECT seq FROM events WHERE dispatched_at IS NULL
                  AND (dispatch_lease_until IS NULL OR dispatch_lease_until <= $now)
                ORDER BY seq LIMIT $limit)
  RETURNING ${COLS}`;
const MARK = `UPDATE events SET dispatched_at = $now, dispatch_lease_until = NULL
  WHERE seq = $seq AND dispatched_at IS NULL AND dispatch_lease_until = $lease`;
const RELEASE = `UPDATE events SET dispatch_lease_until = NULL
  WHERE seq IN (SELECT value FROM json_each($seqs)) AND dispatched_at IS NULL AND dispatch_lease_until = $lease`;
const LATEST_PENDING = `SELECT max(seq) AS seq FROM events WHERE dispatched_at IS NULL`;
const NEXT_EXPIRY = `SELECT min(dispatch_lease_until) AS until FROM events WHERE dispatched_at IS NULL AND dispatch_lease_until > $now`;

export type NewEvent = Omit<EventRow, "seq" | "dispatchLeaseUntil">;

export function createEventsSqliteRepo(db: SqliteDb): EventsRepo {
  const rows = async (sql: string, params: P): Promise<EventRow[]> =>
    db.query((c) => c.sqlite.query<EventRow, [P]>(sql).all(params));

  return {
    /** `dispatchedAt` set: the event can trigger nothing, so the dispatcher never sees it. */
    async insert(row) {
      const params = {
        id: row.id,
        userId: row.userId,
        type: row.type,
        occurredAt: row.occurredAt,
        data: row.data,
        previous: row.previous,
        depth: row.depth,
        dispatchedAt: row.dispatchedAt,
      };
      return db.exec((c) => c.sqlite.query<{ seq: number }, [P]>(INSERT).get(params)!.seq);
    },
    async after(seq, limit) {
      return rows(AFTER, { seq, limit });
    },
    async afterForUser(userId, seq, limit) {
      return rows(AFTER_FOR_USER, { userId, seq, limit });
    },
    async latestSeq() {
      return db.query((c) => c.sqlite.query<{ seq: number | null }, []>(LATEST).get()?.seq ?? 0);
    },
    async forUser(userId, opts) {
      return rows(FOR_USER, { userId, beforeSeq: opts.beforeSeq ?? null, type: opts.type ?? null, limit: opts.limit });
    },
    /** Leases up to `limit` pending events whose lease is free or expired; oldest first. */
    async claimPending(p) {
      const claimed = await db.exec((c) =>
        c.sqlite.query<EventRow, [P]>(CLAIM).all({ now: p.now, leaseUntil: p.leaseUntil, limit: p.limit }),
      );
      // RETURNING order is unspecified; dispatch in sequence order.
      return claimed.sort((a, b) => a.seq - b.seq);
    },
    /** Marks a claimed event dispatched; false when the claim `lease` no longer holds it (taken over or done). */
    async markDispatched(seq, lease, now) {
      return db.exec((c) => c.sqlite.query<null, [P]>(MARK).run({ seq, lease, now }).changes > 0);
    },
    /** Frees this claim's events that were not dispatched, so the next claim need not wait for the lease. */
    async releaseClaims(seqs, lease) {
      if (seqs.length === 0) return;
      await db.exec((c) => c.sqlite.query<null, [P]>(RELEASE).run({ seqs: JSON.stringify(seqs), lease }));
    },
    /** The newest event still waiting for dispatch (claimed or not), or null when none waits. */
    async latestPendingSeq() {
      return db.query((c) => c.sqlite.query<{ seq: number | null }, []>(LATEST_PENDING).get()?.seq ?? null);
    },
    /** When the earliest live claim on a pending event runs out, or null when none is held. */
    async nextLeaseExpiry(now) {
      return db.query((c) => c.sqlite.query<{ until: number | null }, [P]>(NEXT_EXPIRY).get({ now })?.until ?? null);
    },
  };
}
/** What the feature needs of its events table(s); SQLite below, PostgreSQL in pg-repo.ts (src/stores.ts chooses). */
export interface EventsRepo {
  /** `dispatchedAt` set: the event can trigger nothing, so the dispatcher never sees it. */
  insert(row: NewEvent): Promise<number>;
  after(seq: number, limit: number): Promise<EventRow[]>;
  afterForUser(userId: string, seq: number, limit: number): Promise<EventRow[]>;
  latestSeq(): Promise<number>;
  forUser(
    userId: string,
    opts: {
      limit: number;
      beforeSeq?: number;
      type?: string;
    },
  ): Promise<EventRow[]>;
  /** Leases up to `limit` pending events whose lease is free or expired; oldest first. */
  claimPending(p: { now: number; leaseUntil: number; limit: number }): Promise<EventRow[]>;
  /** Marks a claimed event dispatched; false when the claim `lease` no longer holds it (taken over or done). */
  markDispatched(seq: number, lease: number, now: number): Promise<boolean>;
  /** Frees this claim's events that were not dispatched, so the next claim need not wait for the lease. */
  releaseClaims(seqs: number[], lease: number): Promise<void>;
  /** The newest event still waiting for dispatch (claimed or not), or null when none waits. */
  latestPendingSeq(): Promise<number | null>;
  /** When the earliest live claim on a pending event runs out, or null when none is held. */
  nextLeaseExpiry(now: number): Promise<number | null>;
}

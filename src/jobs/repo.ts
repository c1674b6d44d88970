// SQL for the jobs table: prepared statements run through the Db port, synchronous so enqueue joins a caller's transaction.
import type { SqliteDb } from "../db/port.ts";
import type { Job, JobLock, JobStatus } from "./types.ts";

interface JobRow {
  id: string;
  type: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number | null;
  run_at: number;
  lease_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  idempotency_key: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface NewJobRow {
  id: string;
  type: string;
  payload: string;
  maxAttempts: number | null;
  runAt: number;
  idempotencyKey: string | null;
  now: number;
}

type Lock = JobLock | undefined;
const lockParams = (lock: Lock) => ({ workerId: lock?.workerId ?? null, attempt: lock?.attempt ?? null });

export function toJob(r: JobRow): Job {
  return {
    id: r.id,
    type: r.type,
    payload: JSON.parse(r.payload) as unknown,
    status: r.status,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: r.run_at,
    leaseUntil: r.lease_until,
    lockedBy: r.locked_by,
    lastError: r.last_error,
    idempotencyKey: r.idempotency_key,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
  };
}

// A worker that passes its lock only touches the job while it still holds it (a reclaimed job moved on).
const OWNED = `id = $id AND status = 'running'
  AND ($workerId IS NULL OR (locked_by = $workerId AND attempts = $attempt))`;

const TYPES = `($types IS NULL OR type IN (SELECT value FROM json_each($types)))`;

type P = Record<string, string | number | null>;

const INSERT = `INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, idempotency_key, created_at, updated_at)
     VALUES ($id, $type, $payload, 'queued', 0, $maxAttempts, $runAt, $key, $now, $now)
     ON CONFLICT (type, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING id`;
const BY_KEY = `SELECT id FROM jobs WHERE type = $type AND idempotency_key = $key`;
const BY_ID = `SELECT * FROM jobs WHERE id = $id`;
// One statement, so the pick and the mark are atomic across connections and processes. Each arm walks
// its index in order and stops at the limit, so a long backlog does not make every claim sort it all.
const CLAIM = `WITH
       expired AS (SELECT id FROM jobs WHERE status = 'running' AND lease_until <= $now AND ${TYPES}
                   ORDER BY lease_until LIMIT $limit),
       due AS (SELECT id FROM jobs WHERE status = 'queued' AND run_at <= $now AND ${TYPES}
               ORDER BY run_at LIMIT $limit)
     UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = $leaseUntil,
       locked_by = $workerId, updated_at = $now
     WHERE id IN (SELECT id FROM expired UNION ALL SELECT id FROM due LIMIT $limit)
     RETURNING *`;
const COMPLETE = `UPDATE jobs SET status = 'succeeded', lease_until = NULL,
       finished_at = $now, updated_at = $now
     WHERE ${OWNED}`;
const RETRY = `UPDATE jobs SET status = 'queued', run_at = $runAt, lease_until = NULL, locked_by = NULL,
       last_error = $error, updated_at = $now
     WHERE ${OWNED}`;
const FAIL = `UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = $error,
       finished_at = $now, updated_at = $now
     WHERE ${OWNED}`;
// Handing a job back undoes its attempt: a shutdown is not the job's fault.
const RELEASE = `UPDATE jobs SET status = 'queued', attempts = attempts - 1, run_at = $now, lease_until = NULL,
       locked_by = NULL, updated_at = $now
     WHERE ${OWNED}`;
const EXTEND = `UPDATE jobs SET lease_until = $until, updated_at = $now WHERE ${OWNED}`;
const COUNTS = `SELECT status, count(*) AS n FROM jobs WHERE $type IS NULL OR type = $type GROUP BY status`;
const PRUNE = `DELETE FROM jobs WHERE id IN (
       SELECT id FROM jobs WHERE status = $status AND finished_at < $before LIMIT $limit
     )`;

// Hot paths (claim, complete, lease) use c.sqlite.query: bun compiles each statement once per connection.
export function createJobsSqliteRepo(db: SqliteDb): JobsRepo {
  const write = async (sql: string, params: P): Promise<number> =>
    db.exec((c) => c.sqlite.query<null, [P]>(sql).run(params).changes);

  return {
    /** Returns the new id, or null when (type, key) already exists. */
    async insert(j) {
      const params = {
        id: j.id,
        type: j.type,
        payload: j.payload,
        maxAttempts: j.maxAttempts,
        runAt: j.runAt,
        key: j.idempotencyKey,
        now: j.now,
      };
      return db.exec((c) => c.sqlite.query<{ id: string }, [P]>(INSERT).get(params)?.id ?? null);
    },
    async idByKey(type, key) {
      return db.query((c) => c.sqlite.query<{ id: string }, [P]>(BY_KEY).get({ type, key })?.id ?? null);
    },
    async get(id) {
      const r = await db.query((c) => c.sqlite.query<JobRow, [P]>(BY_ID).get({ id }));
      return r ? toJob(r) : null;
    },
    async claim(p) {
      const params = {
        workerId: p.workerId,
        limit: p.limit,
        leaseUntil: p.leaseUntil,
        now: p.now,
        types: p.types ? JSON.stringify(p.types) : null,
      };
      const rows = await db.exec((c) => c.sqlite.query<JobRow, [P]>(CLAIM).all(params));
      // RETURNING order is unspecified; hand jobs out oldest first.
      return rows.map(toJob).sort((a, b) => a.runAt - b.runAt || (a.id < b.id ? -1 : 1));
    },
    async complete(id, lock, now) {
      return (await write(COMPLETE, { id, ...lockParams(lock), now })) > 0;
    },
    async retry(id, lock, error, runAt, now) {
      return (await write(RETRY, { id, ...lockParams(lock), error, runAt, now })) > 0;
    },
    async fail(id, lock, error, now) {
      return (await write(FAIL, { id, ...lockParams(lock), error, now })) > 0;
    },
    async release(id, lock, now) {
      return (await write(RELEASE, { id, ...lockParams(lock), now })) > 0;
    },
    async extendLease(id, lock, until, now) {
      return (await write(EXTEND, { id, ...lockParams(lock), until, now })) > 0;
    },
    /** Whether this attempt still holds the job (inside a transaction: the writer lock keeps it so until commit). */
    async holdsLease(id, attempt) {
      return db.query(
        (c) =>
          c.sqlite
            .query<{ one: number }, [P]>(
              "SELECT 1 AS one FROM jobs WHERE id = $id AND status = 'running' AND attempts = $attempt",
            )
            .get({ id, attempt }) !== null,
      );
    },
    async counts(type) {
      return db.query((c) => c.sqlite.query<{ status: JobStatus; n: number }, [P]>(COUNTS).all({ type }));
    },
    /** Deletes up to `limit` finished jobs of one status; returns how many went. */
    async prune(status, before, limit) {
      return write(PRUNE, { status, before, limit });
    },
  };
}
/** What the feature needs of its jobs table(s); SQLite below, PostgreSQL in pg-repo.ts (src/stores.ts chooses). */
export interface JobsRepo {
  /** Returns the new id, or null when (type, key) already exists. */
  insert(j: NewJobRow): Promise<string | null>;
  idByKey(type: string, key: string): Promise<string | null>;
  get(id: string): Promise<Job | null>;
  claim(p: {
    workerId: string;
    limit: number;
    leaseUntil: number;
    now: number;
    types: string[] | null;
  }): Promise<Job[]>;
  complete(id: string, lock: Lock, now: number): Promise<boolean>;
  retry(id: string, lock: Lock, error: string, runAt: number, now: number): Promise<boolean>;
  fail(id: string, lock: Lock, error: string, now: number): Promise<boolean>;
  release(id: string, lock: Lock, now: number): Promise<boolean>;
  extendLease(id: string, lock: Lock, until: number, now: number): Promise<boolean>;
  /** Whether this attempt still holds the job (inside a transaction: the writer lock keeps it so until commit). */
  holdsLease(id: string, attempt: number): Promise<boolean>;
  counts(type: string | null): Promise<
    {
      status: JobStatus;
      n: number;
    }[]
  >;
  /** Deletes up to `limit` finished jobs of one status; returns how many went. */
  prune(status: "succeeded" | "failed", before: number, limit: number): Promise<number>;
}

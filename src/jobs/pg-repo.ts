// SQL for the jobs table on PostgreSQL: the twin of repo.ts. Claims skip rows another claimer holds
// (FOR UPDATE SKIP LOCKED); the hot writes are single autocommit statements; insert joins the caller's tx.
import { type PgDb, type PgSql, pgArray } from "../db/pg/port.ts";
import { toJob, type JobsRepo } from "./repo.ts";
import type { JobWakeups } from "./queue.ts";
import type { JobLock, JobStatus } from "./types.ts";

type Lock = JobLock | undefined;

// A worker that passes its lock only touches the job while it still holds it (a reclaimed job moved on).
const owned = (sql: PgSql, id: string, lock: Lock) =>
  lock
    ? sql`id = ${id} AND status = 'running' AND locked_by = ${lock.workerId} AND attempts = ${lock.attempt}`
    : sql`id = ${id} AND status = 'running'`;

const ofTypes = (sql: PgSql, types: string[] | null) =>
  types ? sql`AND type = ANY(${pgArray(types)}::text[])` : sql``;

export function createJobsPgRepo(db: PgDb): JobsRepo {
  const count = async (run: (sql: PgSql) => Promise<{ count: number }>): Promise<number> =>
    (await db.exec((c) => run(c.sql))).count;

  return {
    async insert(j) {
      const rows = await db.exec(
        (c) => c.sql<{ id: string }[]>`
          INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, idempotency_key, created_at, updated_at)
          VALUES (${j.id}, ${j.type}, ${j.payload}, 'queued', 0, ${j.maxAttempts}, ${j.runAt}, ${j.idempotencyKey},
                  ${j.now}, ${j.now})
          ON CONFLICT (type, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
          RETURNING id`,
      );
      return rows[0]?.id ?? null;
    },
    async idByKey(type, key) {
      const rows = await db.query(
        (c) => c.sql<{ id: string }[]>`SELECT id FROM jobs WHERE type = ${type} AND idempotency_key = ${key}`,
      );
      return rows[0]?.id ?? null;
    },
    async get(id) {
      const rows = await db.query((c) => c.sql`SELECT * FROM jobs WHERE id = ${id}`);
      return rows[0] ? toJob(rows[0] as never) : null;
    },
    async claim(p) {
      // One statement: each arm walks its index in order, locks what it picks and skips rows another
      // claimer has locked, so concurrent claimers split the backlog instead of queueing on it.
      const rows = await db.exec(
        (c) => c.sql`
          WITH expired AS (
                 SELECT id FROM jobs WHERE status = 'running' AND lease_until <= ${p.now} ${ofTypes(c.sql, p.types)}
                 ORDER BY lease_until LIMIT ${p.limit} FOR UPDATE SKIP LOCKED),
               due AS (
                 SELECT id FROM jobs WHERE status = 'queued' AND run_at <= ${p.now} ${ofTypes(c.sql, p.types)}
                 ORDER BY run_at LIMIT ${p.limit} FOR UPDATE SKIP LOCKED),
               picked AS (SELECT id FROM expired UNION ALL SELECT id FROM due LIMIT ${p.limit})
          UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, lease_until = ${p.leaseUntil},
                 locked_by = ${p.workerId}, updated_at = ${p.now}
          FROM picked WHERE jobs.id = picked.id
          RETURNING jobs.*`,
      );
      // RETURNING order is unspecified; hand jobs out oldest first.
      return rows.map((r) => toJob(r as never)).sort((a, b) => a.runAt - b.runAt || (a.id < b.id ? -1 : 1));
    },
    async complete(id, lock, now) {
      const n = await count(
        (sql) => sql`UPDATE jobs SET status = 'succeeded', lease_until = NULL, finished_at = ${now}, updated_at = ${now}
                     WHERE ${owned(sql, id, lock)}`,
      );
      return n > 0;
    },
    async retry(id, lock, error, runAt, now) {
      const n = await count(
        (sql) => sql`UPDATE jobs SET status = 'queued', run_at = ${runAt}, lease_until = NULL, locked_by = NULL,
                       last_error = ${error}, updated_at = ${now}
                     WHERE ${owned(sql, id, lock)}`,
      );
      return n > 0;
    },
    async fail(id, lock, error, now) {
      const n = await count(
        (sql) => sql`UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = ${error},
                       finished_at = ${now}, updated_at = ${now}
                     WHERE ${owned(sql, id, lock)}`,
      );
      return n > 0;
    },
    async release(id, lock, now) {
      // Handing a job back undoes its attempt: a shutdown is not the job's fault.
      const n = await count(
        (sql) => sql`UPDATE jobs SET status = 'queued', attempts = attempts - 1, run_at = ${now}, lease_until = NULL,
                       locked_by = NULL, updated_at = ${now}
                     WHERE ${owned(sql, id, lock)}`,
      );
      return n > 0;
    },
    async extendLease(id, lock, until, now) {
      const n = await count(
        (sql) => sql`UPDATE jobs SET lease_until = ${until}, updated_at = ${now} WHERE ${owned(sql, id, lock)}`,
      );
      return n > 0;
    },
    async holdsLease(id, attempt) {
      // FOR UPDATE: inside the caller's transaction the row stays locked until commit, so a claim
      // (which skips locked rows) cannot take the job over between this check and the commit.
      const rows = await db.query(
        (c) => c.sql`SELECT 1 FROM jobs WHERE id = ${id} AND status = 'running' AND attempts = ${attempt} FOR UPDATE`,
      );
      return rows.length > 0;
    },
    async counts(type) {
      return db.query(
        (c) => c.sql<{ status: JobStatus; n: number }[]>`
          SELECT status, count(*) AS n FROM jobs ${type === null ? c.sql`` : c.sql`WHERE type = ${type}`}
          GROUP BY status`,
      );
    },
    async prune(status, before, limit) {
      // SKIP LOCKED: two processes pruning at once take different batches instead of waiting on each other.
      return count(
        (sql) => sql`DELETE FROM jobs WHERE id IN (
                       SELECT id FROM jobs WHERE status = ${status} AND finished_at < ${before}
                       LIMIT ${limit} FOR UPDATE SKIP LOCKED)`,
      );
    },
  };
}

/**
 * The NOTIFY channel of one schema's queue: notifications are per database, and tests (or tenants) may
 * share one database with a schema each. Channel names are identifiers of at most 63 bytes.
 */
export function jobsChannel(schema: string): string {
  const name = `jobs:${schema}`;
  return name.length <= 63 ? name : `jobs:${Bun.hash(schema).toString(36)}`;
}

/** Wakes queues in other processes: NOTIFY on the schema's channel (delivered at commit), and LISTEN. */
export function createPgJobWakeups(db: PgDb): JobWakeups {
  const channel = jobsChannel(db.schema);
  return {
    announce: (payload) => db.notify(channel, payload),
    listen: (fn, onListen) => db.listen(channel, fn, onListen),
  };
}

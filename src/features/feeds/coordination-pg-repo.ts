// Feed politeness and single polls across processes on PostgreSQL: per-host request slots and per-watch
// poll leases in tables of migration 0005, each taken with one atomic statement on the database's clock.
import type { PgDb } from "../../db/pg/port.ts";
import type { HostGate } from "./host-gate.ts";
import type { PollLeases } from "./poller.ts";

// The shared clock: every process on every machine reads the same server's time.
const DB_NOW = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";
// Each process sweeps hosts whose slot has long passed now and then; the table stays one row per busy host.
const SWEEP_EVERY = 1024;

/** Requests to one host start at least spacingMs apart across every process on this schema. */
export function createPgHostGate(db: PgDb, spacingMs: number): HostGate {
  let booked = 0;
  return {
    async wait(host, signal) {
      if (spacingMs <= 0) return;
      if (++booked % SWEEP_EVERY === 0)
        await db.exec((c) => c.sql.unsafe(`DELETE FROM feed_host_slots WHERE next_free < ${DB_NOW} - 60000`));
      // Books the host's next free start (now at the earliest) and moves it on by the spacing; returns the wait.
      const [row] = await db.exec((c) =>
        c.sql.unsafe<{ delay: number }[]>(
          `WITH t AS (SELECT ${DB_NOW} AS now)
           INSERT INTO feed_host_slots AS s (host, next_free) SELECT $1, t.now + $2 FROM t
           ON CONFLICT (host) DO UPDATE SET next_free = GREATEST(s.next_free, (SELECT now FROM t)) + $2
           RETURNING s.next_free - $2 - (SELECT now FROM t) AS delay`,
          [host, spacingMs],
        ),
      );
      const delay = Number(row?.delay ?? 0);
      if (delay <= 0) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
  };
}

/** One poll of a watch at a time across processes: a lease row, taken if free or expired. */
export function createPgPollLeases(db: PgDb, ttlMs: number): PollLeases {
  return {
    async take(watchId, owner) {
      const rows = await db.exec((c) =>
        c.sql.unsafe(
          `INSERT INTO feed_polls AS p (watch_id, owner, until) VALUES ($1, $2, ${DB_NOW} + $3)
           ON CONFLICT (watch_id) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until
             WHERE p.until < ${DB_NOW}
           RETURNING owner`,
          [watchId, owner, ttlMs],
        ),
      );
      return rows.length > 0;
    },
    async release(watchId, owner) {
      await db.exec((c) => c.sql`DELETE FROM feed_polls WHERE watch_id = ${watchId} AND owner = ${owner}`);
    },
  };
}

// Start-up work that every process runs but one at a time: on PostgreSQL a session advisory lock held on
// a reserved connection; on SQLite (one process per file in practice) the work simply runs.
import type { EngineDb } from "./port.ts";

/**
 * Runs fn while holding the cluster-wide lock `name` (per schema). The lock is a session lock on a
 * connection reserved for it, so it does not care what fn does with the pool or its transactions; a
 * process that dies holding it releases it with its connection.
 */
export async function exclusively<T>(db: EngineDb, name: string, fn: () => Promise<T>): Promise<T> {
  if (db.engine === "sqlite") return fn();
  const pg = db.pg;
  await pg.ready;
  const key = `commonplace:${pg.schema}:${name}`;
  return pg.session(async (conn) => {
    await conn`SELECT pg_advisory_lock(hashtext(${key}))`;
    try {
      return await fn();
    } finally {
      await conn`SELECT pg_advisory_unlock(hashtext(${key}))`;
    }
  });
}

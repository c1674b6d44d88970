// Applies db/migrations/pg in order, once each, under an advisory lock: N processes starting together
// queue on the lock, the first applies what is missing and the others find it recorded.
import type postgres from "postgres";
import { pgMigrations } from "../../../db/migrations/pg/index.ts";

/** One lock id for "migrating this schema"; hashtext keeps schemas of one server apart. */
const LOCK = "commonplace:migrate:";

export async function migratePg(sql: postgres.Sql, schema: string): Promise<string[]> {
  const done: string[] = [];
  await sql.begin(async (tx) => {
    // Transaction-scoped: released at COMMIT or ROLLBACK, even if this process dies.
    await tx`SELECT pg_advisory_xact_lock(hashtext(${LOCK + schema}))`;
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', '""')}"`);
    await tx`CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY, applied_at text NOT NULL)`;
    const applied = new Set((await tx<{ name: string }[]>`SELECT name FROM _migrations`).map((r) => r.name));
    for (const m of pgMigrations) {
      if (applied.has(m.name)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO _migrations (name, applied_at) VALUES (${m.name}, ${new Date().toISOString()})`;
      done.push(m.name);
    }
  });
  return done;
}

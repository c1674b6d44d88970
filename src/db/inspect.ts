// Raw SQL on either engine, for tests and maintenance scripts that inspect or nudge rows directly:
// `?` placeholders (rewritten to $1, $2… on PostgreSQL), rows as plain objects. Not for features:
// repositories own their SQL.
import type { EngineDb } from "./port.ts";

/** Rewrites `?` placeholders outside quotes to PostgreSQL's numbered form. */
export function numberPlaceholders(text: string): string {
  let n = 0;
  let out = "";
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "?") {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

type Param = string | number | boolean | null | bigint | Uint8Array;

/** Runs a statement and returns its rows (none for a write without RETURNING). */
export async function sqlRows<T = Record<string, unknown>>(
  db: EngineDb,
  text: string,
  ...params: Param[]
): Promise<T[]> {
  if (db.engine === "postgres") {
    const pg = db.pg;
    await pg.ready;
    return (await pg.sql.unsafe(numberPlaceholders(text), params as never[])) as unknown as T[];
  }
  return db.sqlite.query(text).all(...(params as never[])) as T[];
}

/** The first row of sqlRows, or undefined. */
export async function sqlRow<T = Record<string, unknown>>(
  db: EngineDb,
  text: string,
  ...params: Param[]
): Promise<T | undefined> {
  return (await sqlRows<T>(db, text, ...params))[0];
}

/**
 * The plan either engine makes for a statement (SQLite's EXPLAIN QUERY PLAN details, PostgreSQL's
 * EXPLAIN lines), one step a line. PostgreSQL plans with sequential scans turned off: on a test's tiny
 * tables it would rightly scan, and the question asked is whether an index can answer.
 */
export async function queryPlan(db: EngineDb, statement: { sql: string; params: unknown[] }): Promise<string> {
  const params = statement.params as Param[];
  if (db.engine === "sqlite")
    return (await sqlRows<{ detail: string }>(db, `EXPLAIN QUERY PLAN ${statement.sql}`, ...params))
      .map((r) => r.detail)
      .join("\n");
  const pg = db.pg;
  await pg.ready;
  const rows = await pg.sql.begin(async (tx) => {
    await tx.unsafe("SET LOCAL enable_seqscan = off");
    return tx.unsafe(`EXPLAIN ${numberPlaceholders(statement.sql)}`, params as never[]);
  });
  return rows.map((r) => String(Object.values(r)[0])).join("\n");
}

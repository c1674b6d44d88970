// SQL written once for both engines: drizzle's query builder over the SQLite table definitions
// (src/db/schema), run through a driver that hands each statement to the Db port of either engine.
// The SQLite dialect's output is standard SQL that PostgreSQL takes as it is, once its `?` parameters
// are numbered; values map the same way on both (booleans as 1/0 and true/false, JSON and timestamps
// as text, blobs as bytes, counts as numbers). Statements that only one engine understands stay in
// that engine's piece of a store.
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";

/** drizzle over either engine: every builder is awaited (`await orm.select()…`), never `.get()` sync. */
export type SharedOrm = SqliteRemoteDatabase;

export type StatementMethod = "run" | "all" | "values" | "get";

/**
 * Runs one statement on the engine's current connection (the transaction's inside `tx`): rows as
 * arrays of column values in select order, and for `run` the number of rows changed.
 */
export type StatementRunner = (
  sql: string,
  params: unknown[],
  method: StatementMethod,
  write: boolean,
) => Promise<{ rows: unknown[][]; changes: number }>;

/** A write, whatever method drizzle runs it with (an INSERT … RETURNING is read with `all`/`get`). */
export function isWrite(sql: string): boolean {
  return /^\s*(insert|update|delete|replace|with|create|drop|alter)\b/i.test(sql);
}

export function createSharedOrm(run: StatementRunner): SharedOrm {
  return drizzle(async (sql, params, method) => {
    const { rows, changes } = await run(sql, params, method, method === "run" || isWrite(sql));
    // The proxy reads one row for `get` and the rows for `all`/`values`; `run` hands back what it gets.
    if (method === "get") return { rows: rows[0] as unknown[] };
    if (method === "run") return { rows: [], changes } as { rows: unknown[] };
    return { rows };
  });
}

/**
 * A statement of the SQLite dialect as PostgreSQL takes it: `?` parameters numbered, and conflict
 * targets unqualified (SQLite's `on conflict ("t"."c")` is `on conflict ("c")` there). Values are
 * always parameters, never inlined, so the SQL text holds nothing a caller wrote.
 */
export function toPostgres(sql: string): string {
  return numberParameters(sql).replace(
    /\bon conflict \(([^)]*)\)/g,
    (_m, cols: string) => `on conflict (${cols.replace(/"[^"]+"\./g, "")})`,
  );
}

/** `?` parameters as `$1, $2, …`, leaving quoted strings and identifiers alone. */
export function numberParameters(sql: string): string {
  let out = "";
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "?") {
      out += `$${++n}`;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * The few expressions the engines spell differently, each engine's spelling chosen where its port is
 * built: statements written once use these instead of asking which engine runs them.
 */
export interface DialectParts {
  /** True when a JSON array kept in a text column holds this string. */
  jsonArrayHas(column: SQLWrapper, value: string): SQL;
}

export const sqliteParts: DialectParts = {
  jsonArrayHas: (column, value) => sql`EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ${value})`,
};

export const postgresParts: DialectParts = {
  // Containment of a one-element array is "has this element".
  jsonArrayHas: (column, value) => sql`${column}::jsonb @> jsonb_build_array(${value}::text)`,
};

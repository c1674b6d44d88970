// The PostgreSQL side of the Db port as repositories see it: a connection (the pool, or the current
// transaction's), drizzle over it, and NOTIFY/LISTEN for waking other processes.
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import type { Transactor } from "../transactor.ts";

/** The pool, or the connection of the transaction in progress. */
export type PgSql = postgres.Sql | postgres.TransactionSql;

export interface PgConn {
  sql: PgSql;
  orm: PostgresJsDatabase;
}

export interface PgDb extends Transactor {
  /** Runs a read: inside tx on the transaction's connection, outside on the pool. */
  query<T>(fn: (c: PgConn) => Promise<T>): Promise<T>;
  /** Runs a write: inside tx on the transaction's connection, outside as its own autocommit statement(s). */
  exec<T>(fn: (c: PgConn) => Promise<T>): Promise<T>;
  /**
   * Sends a notification. Inside a transaction it is delivered when (and only if) it commits — PostgreSQL
   * holds NOTIFYs until COMMIT — so a listener never wakes before the rows it is told about are visible.
   */
  notify(channel: string, payload?: string): Promise<void>;
  /**
   * Calls fn for each notification on channel (in this and every other process). onListen runs once the
   * subscription is live, and again after a dropped connection is re-established: notifications sent in
   * the gap are lost, so a cache must be flushed there.
   */
  listen(channel: string, fn: (payload: string) => void, onListen?: () => void): Promise<void>;
  /**
   * Runs fn on a connection of its own (not from the pool), closed afterwards: for session-level state
   * such as advisory locks held while fn's caller uses the pool. (The pool's reserve() never resolves on
   * a fresh connection when array types are not fetched, so this replaces it.)
   */
  session<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T>;
  /** The pool, for src/db and tests (schema checks, row inspection). */
  readonly sql: postgres.Sql;
  /** The schema every table lives in (search_path of each connection). */
  readonly schema: string;
  /** Resolves once the schema exists and migrations are applied; every call waits for it. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * A PostgreSQL array literal of values, to bind as one text parameter and cast (`${pgArray(ids)}::text[]`).
 * The pool does not fetch the server's array types at connect (on a catalog with many schemas that
 * query returned every table's row type and took most of a second), so JS arrays are never bound directly.
 */
export function pgArray(values: readonly (string | number)[]): string {
  return `{${values.map((v) => (typeof v === "number" ? String(v) : `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`)).join(",")}}`;
}

// The Db port: the one way code reaches the database. Repositories run statements through
// query (reads) and exec (writes); services group them with tx and schedule wake-ups with
// afterCommit. Nothing outside repositories and src/db touches a connection or a table.
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

export type Orm = BunSQLiteDatabase;

/** A connection as a repository sees it: drizzle over it, and the raw handle for prepared SQL. */
export interface Conn {
  orm: Orm;
  sqlite: Database;
}

/** What a service may do with the database: group repository calls and act after they commit. */
export interface Transactor {
  /** Runs fn in one transaction (a savepoint when nested): everything in it commits or nothing does. */
  tx<T>(fn: () => T): T;
  /** Runs fn after the current transaction commits (never if it rolls back); at once outside one. */
  afterCommit(fn: () => void): void;
}

export interface Db extends Transactor {
  /** Runs a read. Inside tx it sees the transaction's own writes. */
  query<T>(fn: (c: Conn) => T): T;
  /** Runs a write; outside tx it is its own transaction. */
  exec<T>(fn: (c: Conn) => T): T;
  /** The SQLite handles, for src/db, migrations and tests that inspect rows. */
  readonly sqlite: Database;
  readonly orm: Orm;
  close(): void;
}

// The Db port: the one way code reaches the database. Repositories run statements through
// query (reads) and exec (writes); services group them with tx and schedule wake-ups with
// afterCommit. Nothing outside repositories and src/db touches a connection or a table.
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { PgDb } from "./pg/port.ts";
import type { DialectParts, SharedOrm } from "./shared.ts";

export type Orm = BunSQLiteDatabase;

/** A connection as a repository sees it: drizzle over it, and the raw handle for prepared SQL. */
export interface Conn {
  orm: Orm;
  sqlite: Database;
}

/** What a service may do with the database: group repository calls and act after they commit. */
export interface TxOptions {
  /**
   * PostgreSQL only (SQLite has one writer, so every transaction is serial): "read committed" for a hot
   * transaction whose every race is closed by a constraint or one statement, not by SERIALIZABLE's
   * read tracking. Ignored when nested (a savepoint keeps its transaction's level). Default serializable.
   */
  isolation?: "serializable" | "read committed";
}

export interface Transactor {
  /**
   * Runs fn in one transaction (a savepoint when nested): everything in it commits or nothing does.
   * The transaction follows fn's awaits (AsyncLocalStorage), so repository calls inside it join it.
   * Do only database work inside: the writer is held until fn settles.
   */
  tx<T>(fn: () => Promise<T> | T, opts?: TxOptions): Promise<T>;
  /** Runs fn after the current transaction commits (never if it rolls back); soon, outside one. */
  afterCommit(fn: () => void): void;
}

export interface Db extends Transactor {
  /** Which engine is behind this port: SQLite (embedded default) or PostgreSQL (DATABASE_URL). */
  readonly engine: "sqlite" | "postgres";
  /**
   * The PostgreSQL port when engine is postgres, else null. Each repository checks it once, at
   * construction, and builds its PostgreSQL twin (pg-repo.ts) over it.
   */
  readonly pg: PgDb | null;
  /**
   * drizzle over this engine for SQL written once (src/db/shared.ts): each statement runs like `query`
   * (a read) or `exec` (a write) would run it, on the transaction's connection inside `tx`.
   */
  readonly shared: SharedOrm;
  /** The expressions the engines spell differently, for statements written once. */
  readonly dialect: DialectParts;
  /** Runs a read: inside tx on the transaction, outside on a reader that sees committed rows. */
  query<T>(fn: (c: Conn) => T): Promise<T>;
  /** Runs a write: inside tx on the transaction, outside as its own (waits for the writer). */
  exec<T>(fn: (c: Conn) => T): Promise<T>;
  /** The writer's SQLite handles, for src/db, migrations and tests that inspect rows (SQLite only: on PostgreSQL they throw). */
  readonly sqlite: Database;
  readonly orm: Orm;
  /** Closes the connections (on PostgreSQL it starts ending the pool; `end` waits for it). */
  close(): void;
  /** Closes the connections and resolves once they are closed (on PostgreSQL the pool and the LISTEN connection). */
  end(): Promise<void>;
}

// The Db port: the one way code reaches the database. Repositories written once run statements through
// `shared`; services group them with tx and schedule wake-ups with afterCommit. The engine's own handles
// (SqliteDb, PostgresDb) are for src/db and the engine-specific stores that src/stores.ts chooses.
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { PgDb } from "./pg/port.ts";
import type { DialectParts, SharedOrm } from "./shared.ts";
import type { Transactor } from "./transactor.ts";

export type Orm = BunSQLiteDatabase;

/** A connection as a repository sees it: drizzle over it, and the raw handle for prepared SQL. */
export interface Conn {
  orm: Orm;
  sqlite: Database;
}

export type { Transactor, TxOptions } from "./transactor.ts";

/**
 * The engine-neutral port that services, features and repositories written once receive: transactions,
 * wake-ups after commit, and drizzle for SQL that both engines take. Nothing in it names an engine.
 */
export interface Db extends Transactor {
  /**
   * drizzle over this engine for SQL written once (src/db/shared.ts): each statement runs like a read or
   * a write would run it, on the transaction's connection inside `tx`.
   */
  readonly shared: SharedOrm;
  /** The expressions the engines spell differently, for statements written once. */
  readonly dialect: DialectParts;
  /** Resolves once the schema is migrated (at once on SQLite, which migrates as it opens). */
  readonly ready: Promise<void>;
  /** Closes the connections (on PostgreSQL it starts ending the pool; `end` waits for it). */
  close(): void;
  /** Closes the connections and resolves once they are closed (on PostgreSQL the pool and the LISTEN connection). */
  end(): Promise<void>;
}

/**
 * The SQLite database behind a Db: its connections, for the stores whose SQL is SQLite's own
 * (src/stores.ts chooses them), src/db, migrations and tests that inspect rows.
 */
export interface SqliteDb extends Db {
  readonly engine: "sqlite";
  /** Runs a read: inside tx on the transaction, outside on a reader that sees committed rows. */
  query<T>(fn: (c: Conn) => T): Promise<T>;
  /** Runs a write: inside tx on the transaction, outside as its own (waits for the writer). */
  exec<T>(fn: (c: Conn) => T): Promise<T>;
  /** The writer's handles. */
  readonly sqlite: Database;
  readonly orm: Orm;
}

/** The PostgreSQL database behind a Db: its port, for the stores whose SQL is PostgreSQL's own. */
export interface PostgresDb extends Db {
  readonly engine: "postgres";
  readonly pg: PgDb;
}

/** A Db together with its engine: what opening a database returns, and only src/db and src/stores.ts look inside. */
export type EngineDb = SqliteDb | PostgresDb;

/** Builds the piece of the engine behind db: the one way code outside src/db tells the engines apart. */
export function byEngine<T>(
  db: EngineDb,
  make: { sqlite: (db: SqliteDb) => T; postgres: (pg: PgDb, db: PostgresDb) => T },
): T {
  return db.engine === "postgres" ? make.postgres(db.pg, db) : make.sqlite(db);
}

// Opens the SQLite database: pragmas for a busy single-file service, sqlite-vec, drizzle on top.
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import * as sqliteVec from "sqlite-vec";
import { migrate } from "./migrate.ts";
import type { Config } from "../config.ts";
import { databaseUrl } from "../config.ts";
import { pgAsDb } from "./pg/as-db.ts";
import { openPostgres } from "./pg/client.ts";
import type { PgDb } from "./pg/port.ts";
import type { EngineDb, SqliteDb } from "./port.ts";
import { createSqlitePort } from "./sqlite-tx.ts";

export type { Conn, Db, EngineDb, Orm, PostgresDb, SqliteDb, Transactor } from "./port.ts";

let unpackedVec: string | undefined;

/** The sqlite-vec loadable, found in node_modules or (in a compiled binary) unpacked from the bundle. */
function vecPath(): string {
  try {
    const p = sqliteVec.getLoadablePath();
    if (existsSync(p)) return p;
  } catch {
    // fall through to the embedded copy
  }
  const embedded = (globalThis as { __COMMONPLACE_VEC0__?: Uint8Array }).__COMMONPLACE_VEC0__;
  if (!embedded) throw new Error("sqlite-vec extension not found: run `bun install`");
  if (unpackedVec) return unpackedVec;
  // A private directory (mode 0700) so no other user can swap the library before it is loaded;
  // the file must be named vec0.* because SQLite derives the init symbol from the file name.
  const dir = mkdtempSync(join(tmpdir(), "commonplace-vec0-"));
  unpackedVec = join(dir, "vec0.so");
  writeFileSync(unpackedVec, embedded);
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return unpackedVec;
}

export function openDatabase(path: string, opts: { migrate?: boolean; readers?: boolean } = {}): SqliteDb {
  const memory = path === ":memory:";
  if (!memory) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // A new database file is private (0600); SQLite gives its -wal and -shm files the same mode.
    if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
  }
  const writer = connect(path, { create: true });
  if (opts.migrate !== false) migrate(writer);
  // In WAL a second connection reads committed rows while the writer holds a transaction open.
  const reader = memory || opts.readers === false ? null : connect(path, { readonly: true });
  return createSqlitePort(
    { sqlite: writer, orm: drizzle({ client: writer }) },
    reader ? { sqlite: reader, orm: drizzle({ client: reader }) } : null,
    {
      close: () => {
        reader?.close();
        writer.close();
      },
    },
  );
}

function connect(path: string, mode: { create: true } | { readonly: true }): Database {
  const sqlite = new Database(path, { ...mode, strict: true });
  sqlite.exec("PRAGMA busy_timeout = 5000");
  if ("create" in mode && path !== ":memory:") sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  sqlite.loadExtension(vecPath());
  return sqlite;
}

/** The SQLite database behind db, for scripts and tests that read its files' rows directly; throws on PostgreSQL. */
export function asSqlite(db: EngineDb): SqliteDb {
  if (db.engine !== "sqlite") throw new Error("this needs the SQLite database (DATABASE_URL is set)");
  return db;
}

/** The PostgreSQL port behind db, for tests of PostgreSQL's own SQL; throws on SQLite. */
export function asPostgres(db: EngineDb): PgDb {
  if (db.engine !== "postgres") throw new Error("this needs PostgreSQL (set DATABASE_URL)");
  return db.pg;
}

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
export function openConfiguredDatabase(config: Config): EngineDb {
  const { url, schema, poolSize } = config.database;
  if (url) return pgAsDb(openPostgres(url, { schema, max: poolSize }));
  return openDatabase(join(config.dataDir, "commonplace.db"));
}

/**
 * A fresh database with the real migrations, for tests: in memory on SQLite, or — when the test run
 * has DATABASE_URL set to PostgreSQL — a new schema of its own on that server (migrated on first use).
 */
export function openTestDatabase(): EngineDb {
  const url = databaseUrl();
  if (!url) return openDatabase(":memory:");
  return pgAsDb(openPostgres(url, { schema: testSchemaName(), max: 4, idleTimeout: 2 }));
}

/** A schema name no other test (or test process) uses. */
export function testSchemaName(): string {
  return `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}

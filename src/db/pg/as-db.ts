// The PostgreSQL port behind the engine-neutral Db that services and features receive: tx and
// afterCommit are shared, the SQLite-only handles refuse with a message naming what has no PostgreSQL path.
import type { Conn, Db, Orm } from "../port.ts";
import { createSharedOrm, postgresParts, toPostgres } from "../shared.ts";
import type { PgConn, PgDb } from "./port.ts";

function sqliteOnly(what: string): never {
  throw new Error(`${what} is SQLite-only: this code path has no PostgreSQL implementation (DATABASE_URL is postgres)`);
}

export function pgAsDb(pg: PgDb): Db {
  const shared = createSharedOrm((sql, params, _method, write) => {
    const run = async (c: PgConn) => {
      const result = await c.sql.unsafe(toPostgres(sql), params as never[], { prepare: true }).values();
      return { rows: result as unknown as unknown[][], changes: result.count ?? 0 };
    };
    return write ? pg.exec(run) : pg.query(run);
  });
  return {
    engine: "postgres",
    pg,
    shared,
    dialect: postgresParts,
    tx: (fn, opts) => pg.tx(fn, opts),
    afterCommit: (fn) => pg.afterCommit(fn),
    query<T>(_fn: (c: Conn) => T): Promise<T> {
      return Promise.reject(new Error("Db.query with a SQLite connection on PostgreSQL: use the repository's pg twin"));
    },
    exec<T>(_fn: (c: Conn) => T): Promise<T> {
      return Promise.reject(new Error("Db.exec with a SQLite connection on PostgreSQL: use the repository's pg twin"));
    },
    get sqlite(): never {
      return sqliteOnly("db.sqlite");
    },
    get orm(): Orm {
      return sqliteOnly("db.orm");
    },
    close(): void {
      pg.close().catch(() => {});
    },
    end: () => pg.close(),
  };
}

// The PostgreSQL port behind the engine-neutral Db that services and features receive: tx and
// afterCommit are the pool's, SQL written once runs with numbered parameters, prepared.
import type { PostgresDb } from "../port.ts";
import { createSharedOrm, postgresParts, toPostgres } from "../shared.ts";
import type { PgConn, PgDb } from "./port.ts";

export function pgAsDb(pg: PgDb): PostgresDb {
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
    ready: pg.ready,
    tx: (fn, opts) => pg.tx(fn, opts),
    afterCommit: (fn) => pg.afterCommit(fn),
    close(): void {
      pg.close().catch(() => {});
    },
    end: () => pg.close(),
  };
}

// Opens PostgreSQL: a pool on DATABASE_URL with every table in one schema, migrations under an advisory
// lock, SERIALIZABLE transactions with bounded retry, the transaction carried in AsyncLocalStorage.
import { AsyncLocalStorage } from "node:async_hooks";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { acquireListener, type Listener } from "./listener.ts";
import { runCallbacks } from "../sqlite-tx.ts";
import { migratePg } from "./migrate.ts";
import type { PgConn, PgDb } from "./port.ts";
import type { TxOptions } from "../port.ts";

export interface PgOptions {
  /** Every table lives here (each connection's search_path); created if missing. */
  schema?: string;
  /** Connections in this process's pool. */
  max?: number;
  /** Seconds an idle connection stays open. */
  idleTimeout?: number;
  migrate?: boolean;
  /** Attempts of a transaction that fails with a serialisation failure or a deadlock. */
  maxAttempts?: number;
  onCallbackError?: (err: unknown) => void;
}

interface TxContext {
  conn: PgConn;
  active: boolean;
  afterCommit: (() => void)[];
}

/** SQLSTATEs after which a whole transaction may simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);

/** Looks through drizzle's DrizzleQueryError, which carries the driver's error (and its SQLSTATE) as cause. */
export function isRetryable(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === "string" && RETRYABLE.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function openPostgres(url: string, opts: PgOptions = {}): PgDb {
  const schema = opts.schema ?? "public";
  const options = (max: number): postgres.Options<Record<string, postgres.PostgresType>> => ({
    max,
    idle_timeout: opts.idleTimeout ?? 30,
    connect_timeout: 10,
    onnotice: () => {},
    // No array-type catalog query at connect: arrays are bound as literals (pgArray), see port.ts.
    fetch_types: false,
    connection: { search_path: schema, application_name: "commonplace" },
    // bigint (count(*), epoch milliseconds) as JS numbers: every value we store is below 2^53.
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number | bigint) => x.toString(),
        parse: (x: string) => Number(x),
      },
      // Statements written once for both engines (src/db/shared.ts) bind booleans as SQLite stores
      // them, 1 and 0; the default serializer would write 1 as false.
      boolean: {
        to: 16,
        from: [16],
        serialize: (x: unknown) => (x === true || x === 1 || x === "1" || x === "t" || x === "true" ? "t" : "f"),
        parse: (x: string) => x === "t",
      },
    },
  });
  const sql = postgres(url, options(opts.max ?? 10));
  const pool: PgConn = { sql, orm: drizzle({ client: sql }) };
  const als = new AsyncLocalStorage<TxContext>();
  const maxAttempts = opts.maxAttempts ?? 8;
  const onError = opts.onCallbackError ?? ((err) => console.error("afterCommit callback failed", err));
  let listener: Listener | undefined;
  const ready = opts.migrate === false ? Promise.resolve() : migratePg(sql, schema).then(() => undefined);
  // A failed migration is reported by the first call that waits for it, not as an unhandled rejection.
  ready.catch(() => {});

  // drizzle over the transaction's connection, built on first use (most transactions use raw SQL).
  // A transaction handle has no options of its own; drizzle reads (and sets the same parsers on) the pool's.
  const txConn = (tsql: postgres.TransactionSql): PgConn => {
    let orm: PgConn["orm"] | undefined;
    return {
      sql: tsql,
      get orm() {
        orm ??= drizzle({ client: Object.assign(tsql, { options: sql.options }) as unknown as postgres.Sql });
        return orm;
      },
    };
  };

  const current = (): TxContext | undefined => {
    const ctx = als.getStore();
    return ctx?.active ? ctx : undefined;
  };

  async function run<T>(fn: (c: PgConn) => Promise<T>): Promise<T> {
    const ctx = current();
    if (ctx) return fn(ctx.conn);
    await ready;
    return fn(pool);
  }

  async function tx<T>(fn: () => Promise<T> | T, opts: TxOptions = {}): Promise<T> {
    const outer = current();
    if (outer) {
      // Nested: a savepoint on the same connection; its wake-ups go if it rolls back.
      const mark = outer.afterCommit.length;
      const tsql = outer.conn.sql as postgres.TransactionSql;
      try {
        return (await tsql.savepoint(async () => fn())) as T;
      } catch (err) {
        outer.afterCommit.length = Math.min(outer.afterCommit.length, mark);
        throw err;
      }
    }
    await ready;
    for (let attempt = 1; ; attempt++) {
      const ctx: TxContext = { conn: pool, active: true, afterCommit: [] };
      try {
        const level = opts.isolation === "read committed" ? "read committed" : "serializable";
        const result = (await sql.begin(`isolation level ${level}`, async (tsql) => {
          ctx.conn = txConn(tsql);
          try {
            return await als.run(ctx, fn);
          } finally {
            ctx.active = false;
          }
        })) as T;
        if (ctx.afterCommit.length > 0) als.exit(() => runCallbacks(ctx.afterCommit, onError));
        return result;
      } catch (err) {
        if (!isRetryable(err) || attempt >= maxAttempts) throw err;
        // Another transaction won the conflict: back off a little (jittered, growing) and run again.
        await Bun.sleep(Math.random() * Math.min(100, 2 ** attempt * 2));
      }
    }
  }

  return {
    sql,
    schema,
    ready,
    query: run,
    exec: run,
    tx,
    afterCommit(fn: () => void): void {
      const ctx = current();
      if (ctx) ctx.afterCommit.push(fn);
      else queueMicrotask(() => als.exit(() => runCallbacks([fn], onError)));
    },
    async notify(channel: string, payload = ""): Promise<void> {
      const ctx = current();
      if (ctx) await ctx.conn.sql`SELECT pg_notify(${channel}, ${payload})`;
      else {
        await ready;
        await sql.notify(channel, payload);
      }
    },
    async session(fn) {
      await ready;
      const own = postgres(url, options(1));
      try {
        return await fn(own);
      } finally {
        await own.end({ timeout: 5 });
      }
    },
    async listen(channel, fn, onListen): Promise<void> {
      await ready;
      listener ??= acquireListener(url);
      await listener.listen(channel, fn, onListen);
    },
    async close(): Promise<void> {
      await Promise.all([sql.end({ timeout: 5 }), listener?.release()]);
    },
  };
}

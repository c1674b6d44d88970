// The SQLite side of the Db port: one writer connection behind an async mutex (a transaction owns
// it from BEGIN IMMEDIATE to COMMIT, across awaits), the current transaction carried in
// AsyncLocalStorage, savepoints when nested, and after-commit callbacks run once rows are visible.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Conn, SqliteDb } from "./port.ts";
import { createSharedOrm, type SharedOrm, sqliteParts } from "./shared.ts";

interface TxContext {
  /** Cleared at commit or rollback: work that escaped the transaction (a timer, a stray promise) must not use it. */
  active: boolean;
  afterCommit: (() => void)[];
  savepoints: number;
  /** Open savepoints, innermost last: nested transactions must not overlap (run them one at a time). */
  open: string[];
  /** Set once two nested transactions overlapped: every savepoint of this transaction then fails. */
  overlapped: boolean;
}

/** A FIFO lock: whoever holds it owns the writer connection. */
function createMutex() {
  let locked = false;
  const waiting: (() => void)[] = [];
  return {
    get locked() {
      return locked;
    },
    async acquire(): Promise<void> {
      if (!locked) {
        locked = true;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next)
        next(); // ownership passes straight to the next waiter
      else locked = false;
    },
  };
}

/** Runs after-commit callbacks (either engine): one that throws is reported, the rest still run. */
export function runCallbacks(fns: (() => void)[], onError: (err: unknown) => void): void {
  for (const fn of fns) {
    try {
      fn();
    } catch (err) {
      // A wake-up that throws must not undo or hide a committed transaction.
      onError(err);
    }
  }
}

/**
 * The shared builder over SQLite: each statement runs as a `query` or `exec` of its own, synchronously
 * on the connection they choose (prepared once: bun:sqlite caches what `query` compiles).
 */
export function sqliteSharedOrm(query: SqliteDb["query"], exec: SqliteDb["exec"]): SharedOrm {
  return createSharedOrm((sql, params, method, write) => {
    const run = (c: Conn) => {
      const statement = c.sqlite.query(sql);
      if (method === "run") return { rows: [], changes: statement.run(...(params as never[])).changes };
      return { rows: statement.values(...(params as never[])) as unknown[][], changes: 0 };
    };
    return write ? exec(run) : query(run);
  });
}

export function createSqlitePort(
  writer: Conn,
  reader: Conn | null,
  opts: { onCallbackError?: (err: unknown) => void; close: () => void },
): SqliteDb {
  const als = new AsyncLocalStorage<TxContext>();
  const mutex = createMutex();
  const onError = opts.onCallbackError ?? ((err) => console.error("afterCommit callback failed", err));
  const current = (): TxContext | undefined => {
    const ctx = als.getStore();
    return ctx?.active ? ctx : undefined;
  };

  async function withWriter<T>(fn: (c: Conn) => T): Promise<T> {
    await mutex.acquire();
    try {
      return fn(writer);
    } finally {
      mutex.release();
    }
  }

  async function tx<T>(fn: () => Promise<T> | T): Promise<T> {
    const ctx = current();
    if (ctx) {
      const name = `sp${++ctx.savepoints}`;
      const mark = ctx.afterCommit.length;
      writer.sqlite.run(`SAVEPOINT ${name}`);
      ctx.open.push(name);
      const overlap = () => new Error("nested transactions overlapped: run them one after another, not concurrently");
      const innermost = () => {
        if (ctx.overlapped || ctx.open.at(-1) !== name) {
          ctx.overlapped = true;
          throw overlap();
        }
        ctx.open.pop();
      };
      try {
        const result = await fn();
        innermost();
        writer.sqlite.run(`RELEASE ${name}`);
        return result;
      } catch (err) {
        if (ctx.open.at(-1) === name) ctx.open.pop();
        // A savepoint that rolls back takes its wake-ups with it.
        ctx.afterCommit.length = Math.min(ctx.afterCommit.length, mark);
        try {
          writer.sqlite.run(`ROLLBACK TO ${name}`);
          writer.sqlite.run(`RELEASE ${name}`);
        } catch {
          // Gone with an overlapping sibling's rollback; the error below says why.
        }
        throw err;
      }
    }
    await mutex.acquire();
    const own: TxContext = { active: true, afterCommit: [], savepoints: 0, open: [], overlapped: false };
    let result: T;
    try {
      writer.sqlite.run("BEGIN IMMEDIATE");
      try {
        result = await als.run(own, fn);
        writer.sqlite.run("COMMIT");
      } catch (err) {
        if (writer.sqlite.inTransaction) writer.sqlite.run("ROLLBACK");
        throw err;
      } finally {
        own.active = false;
      }
    } finally {
      mutex.release();
    }
    if (own.afterCommit.length > 0) als.exit(() => runCallbacks(own.afterCommit, onError));
    return result;
  }

  async function query<T>(fn: (c: Conn) => T): Promise<T> {
    if (current()) return fn(writer);
    if (reader) return fn(reader);
    // One connection (in memory): wait for an open transaction so a read never sees its uncommitted rows.
    return mutex.locked ? withWriter(fn) : fn(writer);
  }
  async function exec<T>(fn: (c: Conn) => T): Promise<T> {
    if (current()) return fn(writer);
    return mutex.locked ? withWriter(fn) : fn(writer);
  }
  const shared = sqliteSharedOrm(query, exec);

  return {
    engine: "sqlite",
    sqlite: writer.sqlite,
    orm: writer.orm,
    shared,
    dialect: sqliteParts,
    ready: Promise.resolve(),
    query,
    exec,
    tx,
    afterCommit(fn: () => void): void {
      const ctx = current();
      if (ctx) ctx.afterCommit.push(fn);
      else queueMicrotask(() => als.exit(() => runCallbacks([fn], onError)));
    },
    close: opts.close,
    async end() {
      opts.close();
    },
  };
}

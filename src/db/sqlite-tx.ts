// Transactions on the SQLite connection: BEGIN IMMEDIATE (a savepoint when nested) and the
// after-commit queue, so wake-ups and events fire only once their rows are visible.
import type { Database } from "bun:sqlite";
import type { Transactor } from "./port.ts";

export function createSqliteTransactor(sqlite: Database): Transactor {
  let pending: (() => void)[] | null = null;

  function runAll(fns: (() => void)[]): void {
    for (const fn of fns) {
      try {
        fn();
      } catch (err) {
        // A wake-up that throws must not undo or hide a committed transaction.
        console.error("afterCommit callback failed", err);
      }
    }
  }

  return {
    tx<T>(fn: () => T): T {
      if (pending) {
        // A savepoint that rolls back takes its wake-ups with it.
        const mark = pending.length;
        try {
          return sqlite.transaction(fn).immediate();
        } catch (err) {
          pending.length = mark;
          throw err;
        }
      }
      const queued: (() => void)[] = [];
      pending = queued;
      let result: T;
      try {
        result = sqlite.transaction(fn).immediate();
      } finally {
        pending = null;
      }
      runAll(queued);
      return result;
    },
    afterCommit(fn: () => void): void {
      if (pending) pending.push(fn);
      else queueMicrotask(() => runAll([fn]));
    },
  };
}

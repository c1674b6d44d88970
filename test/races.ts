// Race tests: start one call, let the other begin after n microtask turns, for each n in a range,
import type { EngineDb, SqliteDb } from "../src/db/port.ts";
import { sqliteSharedOrm } from "../src/db/sqlite-tx.ts";
// so every interleaving of the two calls' awaits is tried (a fixed sleep would try one at random).
export async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

/** Runs `a` and, `n` microtask turns later, `b`, for n = 0 … spread; settles both each time. */
export async function interleave(
  spread: number,
  round: (n: number) => Promise<{ a: () => Promise<unknown>; b: () => Promise<unknown> }>,
  check: (n: number, results: [PromiseSettledResult<unknown>, PromiseSettledResult<unknown>]) => Promise<void> | void,
): Promise<void> {
  for (let n = 0; n <= spread; n++) {
    const { a, b } = await round(n);
    const results = await Promise.allSettled([a(), ticks(n).then(b)]);
    await check(n, results as [PromiseSettledResult<unknown>, PromiseSettledResult<unknown>]);
  }
}

/**
 * The database as a networked adapter (PostgreSQL) would behave: a read sees the rows of the moment
 * it runs, and its answer arrives `latency()` microtask turns later, so other requests run in
 * between. SQLite answers every read in the same few turns, which hides races a remote database
 * (where one answer is slower than the next) would show. `slowNext(turns)` delays the next read only.
 */
export function remoteReads(db: EngineDb): EngineDb & { slowNext(turns: number): void } {
  let next = 0;
  const slowNext = (turns: number) => {
    next = turns;
  };
  // PostgreSQL's answers already arrive over the network, each in its own time.
  if (db.engine === "postgres") return { ...db, slowNext };
  const query: SqliteDb["query"] = async (fn) => {
    const turns = next;
    next = 0;
    const rows = await db.query(fn);
    await ticks(turns);
    return rows;
  };
  // SQL written once for both engines reads through the slowed query too.
  const shared = sqliteSharedOrm(query, (fn) => db.exec(fn));
  return { ...db, query, shared, slowNext };
}

// Runs fn in one IMMEDIATE transaction (a savepoint when nested), so a change, its event and its
// jobs commit together or not at all.
import type { Database } from "bun:sqlite";

export function inTransaction<T>(sqlite: Database, fn: () => T): T {
  return sqlite.transaction(fn).immediate();
}

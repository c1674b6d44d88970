// The change watch for the engine behind the Db: SQLite's data_version, or NOTIFY/LISTEN on PostgreSQL.
import { type ChangeWatch, createChangeWatch } from "./change-watch.ts";
import { createPgChangeWatch } from "./pg/change-watch.ts";
import type { Db } from "./port.ts";

export function selectChangeWatch(db: Db, opts: { onError?: (err: unknown) => void } = {}): ChangeWatch {
  return db.pg ? createPgChangeWatch(db.pg, opts) : createChangeWatch(db.sqlite);
}

// The change watch for the engine behind the Db: SQLite's data_version, or NOTIFY/LISTEN on PostgreSQL.
import { type ChangeWatch, createChangeWatch } from "./change-watch.ts";
import { createPgChangeWatch } from "./pg/change-watch.ts";
import type { EngineDb } from "./port.ts";

export function selectChangeWatch(db: EngineDb, opts: { onError?: (err: unknown) => void } = {}): ChangeWatch {
  return db.engine === "postgres" ? createPgChangeWatch(db.pg, opts) : createChangeWatch(db.sqlite);
}

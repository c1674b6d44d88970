// SQL for readiness: one cheap read proving the database opens, is migrated and answers.
import type { Db } from "../../db/port.ts";
import { createHealthPgRepo } from "./pg-repo.ts";

export function createHealthRepo(db: Db): HealthRepo {
  return db.pg ? createHealthPgRepo(db.pg) : createHealthSqliteRepo(db);
}

function createHealthSqliteRepo(db: Db) {
  return {
    /** Throws when the database cannot answer (closed, locked past the busy timeout, not migrated). */
    async ping(): Promise<void> {
      await db.query((c) => c.sqlite.query("SELECT count(*) FROM _migrations").get());
    },
  };
}
export type HealthRepo = ReturnType<typeof createHealthSqliteRepo>;

// SQL for readiness: one cheap read proving the database opens, is migrated and answers (either engine).
import { sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";

export interface HealthRepo {
  /** Throws when the database cannot answer (closed, locked past the busy timeout, not migrated). */
  ping(): Promise<void>;
}

export function createHealthRepo(db: Db): HealthRepo {
  return {
    async ping() {
      await db.shared.get(sql`SELECT count(*) FROM _migrations`);
    },
  };
}

// Readiness on PostgreSQL: the twin of repo.ts, one cheap read of the migrations table.
import type { PgDb } from "../../db/pg/port.ts";
import type { HealthRepo } from "./repo.ts";

export function createHealthPgRepo(db: PgDb): HealthRepo {
  return {
    async ping() {
      await db.query((c) => c.sql`SELECT count(*) FROM _migrations`);
    },
  };
}

// SQL for search quality runs, written once for both engines (src/db/shared.ts); every user-facing
// query is scoped by owner. A partial unique index keeps one queued or running run per user.
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { searchQualityRuns, type SearchQualityRunRow } from "../../db/schema/index.ts";

export type QualityRunRow = SearchQualityRunRow;
const ACTIVE = ["queued", "running"] as const;

export interface QualityRunsRepo {
  /** Inserts the run unless the user already has one queued or running; true when this call inserted it. */
  insertIfIdle(row: typeof searchQualityRuns.$inferInsert): Promise<boolean>;
  /** The user's queued or running run. */
  active(userId: string): Promise<QualityRunRow | undefined>;
  /** The user's newest runs, newest first. */
  recent(userId: string, limit: number): Promise<QualityRunRow[]>;
  /** For the job, which carries only the id. */
  byIdUnscoped(id: string): Promise<QualityRunRow | undefined>;
  update(id: string, patch: Partial<typeof searchQualityRuns.$inferInsert>): Promise<void>;
}

export function createQualityRunsRepo(db: Db): QualityRunsRepo {
  const orm = db.shared;
  return {
    async insertIfIdle(row) {
      const inserted = await orm
        .insert(searchQualityRuns)
        .values(row)
        .onConflictDoNothing()
        .returning({ id: searchQualityRuns.id });
      return inserted.length > 0;
    },
    active(userId) {
      return orm
        .select()
        .from(searchQualityRuns)
        .where(and(eq(searchQualityRuns.userId, userId), inArray(searchQualityRuns.status, [...ACTIVE])))
        .get();
    },
    recent(userId, limit) {
      return orm
        .select()
        .from(searchQualityRuns)
        .where(eq(searchQualityRuns.userId, userId))
        .orderBy(desc(searchQualityRuns.id))
        .limit(limit);
    },
    byIdUnscoped(id) {
      return orm.select().from(searchQualityRuns).where(eq(searchQualityRuns.id, id)).get();
    },
    async update(id, patch) {
      await orm.update(searchQualityRuns).set(patch).where(eq(searchQualityRuns.id, id));
    },
  };
}

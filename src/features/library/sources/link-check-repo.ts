// SQL for the link check, written once for both engines: which ready sources are due for a check.
import { and, asc, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import type { SharedOrm } from "../../../db/shared.ts";
import { sources } from "../../../db/schema/index.ts";

export interface LinkCheckRepo {
  /** Ready sources last checked (or, never checked, last fetched) before `before`, longest waiting first. */
  due(before: string, limit: number): Promise<{ id: string; url: string; since: string }[]>;
}

// The expression and the literal status are those of the partial index sources_link_check_due
// (db/migrations): a bound parameter for the status would keep a planner from proving the index applies.
const since = sql<string>`coalesce(${sources.originalCheckedAt}, ${sources.fetchedAt}, ${sources.createdAt})`;
const ready = sql`${sources.status} = 'ready'`;

/** The due query as a builder: awaited by the repository, explained by its test. */
export function dueQuery(orm: SharedOrm, before: string, limit: number) {
  return orm
    .select({ id: sources.id, url: sources.url, since })
    .from(sources)
    .where(and(ready, lt(since, before)))
    .orderBy(asc(since), asc(sources.id))
    .limit(limit);
}

export function createLinkCheckRepo(db: Db): LinkCheckRepo {
  return {
    async due(before, limit) {
      return dueQuery(db.shared, before, limit);
    },
  };
}

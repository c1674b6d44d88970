// SQL for the link check, written once for both engines: which ready sources are due for a check.
import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import { sources } from "../../../db/schema/index.ts";

export interface LinkCheckRepo {
  /** Ready sources last checked (or, never checked, last fetched) before `before`, longest waiting first. */
  due(before: string, limit: number): Promise<{ id: string; url: string; since: string }[]>;
}

export function createLinkCheckRepo(db: Db): LinkCheckRepo {
  const orm = db.shared;
  const since = sql<string>`coalesce(${sources.originalCheckedAt}, ${sources.fetchedAt}, ${sources.createdAt})`;
  return {
    async due(before, limit) {
      return orm
        .select({ id: sources.id, url: sources.url, since })
        .from(sources)
        .where(and(eq(sources.status, "ready"), lt(since, before)))
        .orderBy(asc(since), asc(sources.id))
        .limit(limit);
    },
  };
}

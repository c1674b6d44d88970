// SQL for sources and their notebook links; every user-facing query is scoped by owner.
import { and, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { preparedOn } from "../../db/prepared.ts";
import { notebookSources, sources, type SourceRow } from "../../db/schema/index.ts";
import { splitSavedCursor } from "./list-query.ts";
import { createSourcesPgRepo } from "./pg-repo.ts";

export interface SourceListFilter {
  limit: number;
  before?: string;
  notebookId?: string;
  status?: string;
  createdAfter?: string;
  tag?: string;
  /** Default: newest created first (by id). */
  sort?: "created_at" | "saved_at";
}

// The lookups and writes an import makes per entry, prepared once per connection (building drizzle SQL
// per call costs far more than running it).
const ph = (name: string) => sql.placeholder(name);
const byNormalized = preparedOn((orm) =>
  orm
    .select()
    .from(sources)
    .where(and(eq(sources.userId, ph("userId")), eq(sources.normalizedUrl, ph("n"))))
    .prepare(),
);
const byIdStmt = preparedOn((orm) =>
  orm
    .select()
    .from(sources)
    .where(eq(sources.id, ph("id")))
    .prepare(),
);
const linkStmt = preparedOn((orm) =>
  orm
    .insert(notebookSources)
    .values({ notebookId: ph("nb"), sourceId: ph("src"), addedAt: ph("at") })
    .onConflictDoNothing()
    .returning()
    .prepare(),
);
const insertImportedStmt = preparedOn((orm) =>
  orm
    .insert(sources)
    .values({
      id: ph("id"),
      userId: ph("userId"),
      url: ph("url"),
      normalizedUrl: ph("normalizedUrl"),
      title: ph("title"),
      status: "pending",
      tags: ph("tags"),
      archived: ph("archived"),
      content: ph("content"),
      savedAt: ph("savedAt"),
      createdAt: ph("createdAt"),
      updatedAt: ph("updatedAt"),
      importId: ph("importId"),
    })
    .prepare(),
);

export function createSourcesRepo(db: Db): SourcesRepo {
  return db.pg ? createSourcesPgRepo(db.pg) : createSourcesSqliteRepo(db);
}

function createSourcesSqliteRepo(db: Db) {
  return {
    async insert(row: typeof sources.$inferInsert): Promise<void> {
      await db.exec((c) => c.orm.insert(sources).values(row).run());
    },
    /** Inserts a new source unless this owner already saved its address; true when this call inserted it. */
    async insertIfNew(row: typeof sources.$inferInsert): Promise<boolean> {
      const r = await db.exec((c) =>
        c.orm
          .insert(sources)
          .values(row)
          .onConflictDoNothing({ target: [sources.userId, sources.normalizedUrl] })
          .returning({ id: sources.id })
          .all(),
      );
      return r.length > 0;
    },
    /** A new pending source from an import (prepared: called once per imported link). */
    async insertImported(row: {
      id: string;
      userId: string;
      url: string;
      normalizedUrl: string;
      title: string | null;
      tags: string;
      archived: boolean;
      content: string | null;
      savedAt: string;
      createdAt: string;
      updatedAt: string;
      importId: string;
    }): Promise<void> {
      await db.exec((c) => insertImportedStmt(c).run({ ...row, archived: row.archived ? 1 : 0 }));
    },
    async byId(userId: string, id: string): Promise<SourceRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(eq(sources.id, id), eq(sources.userId, userId)))
          .get(),
      );
    },
    /** For background jobs that carry only the id (the owner is read from the row). */
    async byIdUnscoped(id: string): Promise<SourceRow | undefined> {
      return db.query((c) => byIdStmt(c).get({ id }));
    },
    /** Title and address of sources by id, whoever owns them (search shows the sources of hits already scoped to their owner). */
    async titlesAndUrls(ids: string[]): Promise<{ id: string; title: string | null; url: string }[]> {
      if (ids.length === 0) return [];
      return db.query((c) =>
        c.sqlite
          .query<{ id: string; title: string | null; url: string }, [string]>(
            "SELECT id, title, url FROM sources WHERE id IN (SELECT value FROM json_each(?))",
          )
          .all(JSON.stringify(ids)),
      );
    },
    async byNormalizedUrl(userId: string, normalizedUrl: string): Promise<SourceRow | undefined> {
      return db.query((c) => byNormalized(c).get({ userId, n: normalizedUrl }));
    },
    async byIds(userId: string, ids: string[]): Promise<SourceRow[]> {
      if (ids.length === 0) return [];
      return db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(eq(sources.userId, userId), inArray(sources.id, ids)))
          .all(),
      );
    },
    async list(userId: string, f: SourceListFilter): Promise<SourceRow[]> {
      const conds = [eq(sources.userId, userId)];
      if (f.tag !== undefined)
        conds.push(sql`EXISTS (SELECT 1 FROM json_each(${sources.tags}) WHERE value = ${f.tag})`);
      if (f.status) conds.push(eq(sources.status, f.status as SourceRow["status"]));
      if (f.createdAfter) conds.push(gt(sources.createdAt, f.createdAfter));
      const bySaved = f.sort === "saved_at";
      if (f.before && bySaved) {
        // The cursor is "saved_at|id" of the last row: rows with the same saved time are ordered by id.
        const [at, id] = splitSavedCursor(f.before);
        conds.push(sql`(${sources.savedAt} < ${at} OR (${sources.savedAt} = ${at} AND ${sources.id} < ${id}))`);
      }
      const order = bySaved ? [desc(sources.savedAt), desc(sources.id)] : [desc(sources.id)];
      const notebookId = f.notebookId;
      if (notebookId) {
        // By creation: walks the notebook's links backwards from the cursor and stops at the limit (an
        // IN (subquery) listed every link of the notebook on each page, so paging a large notebook was
        // quadratic). By saved time: the notebook's rows past the cursor are sorted, keeping the top page.
        if (f.before && !bySaved) conds.push(lt(notebookSources.sourceId, f.before));
        return db.query((c) =>
          c.orm
            .select({ s: sources })
            .from(notebookSources)
            .innerJoin(sources, eq(sources.id, notebookSources.sourceId))
            .where(and(eq(notebookSources.notebookId, notebookId), ...conds))
            .orderBy(...(bySaved ? order : [desc(notebookSources.sourceId)]))
            .limit(f.limit)
            .all()
            .map((r) => r.s),
        );
      }
      if (f.before && !bySaved) conds.push(lt(sources.id, f.before));
      return db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(...conds))
          .orderBy(...order)
          .limit(f.limit)
          .all(),
      );
    },
    /** A page of an import's sources still waiting to be fetched, by id after `afterId`. */
    async pendingOfImport(
      importId: string,
      afterId: string,
      limit: number,
    ): Promise<{ id: string; url: string; hasContent: boolean }[]> {
      return db.query((c) =>
        c.orm
          .select({ id: sources.id, url: sources.url, hasContent: sql<number>`${sources.content} IS NOT NULL` })
          .from(sources)
          .where(and(eq(sources.importId, importId), eq(sources.status, "pending"), gt(sources.id, afterId)))
          .orderBy(sources.id)
          .limit(limit)
          .all()
          .map((r) => ({ ...r, hasContent: Boolean(r.hasContent) })),
      );
    },
    /** How far fetching the sources an import created has got, by status. */
    async statusCountsOfImport(importId: string): Promise<Record<string, number>> {
      const rows = await db.query((c) =>
        c.orm
          .select({ status: sources.status, n: sql<number>`count(*)` })
          .from(sources)
          .where(eq(sources.importId, importId))
          .groupBy(sources.status)
          .all(),
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
    async update(id: string, patch: Partial<typeof sources.$inferInsert>): Promise<void> {
      await db.exec((c) => c.orm.update(sources).set(patch).where(eq(sources.id, id)).run());
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(sources)
          .where(and(eq(sources.id, id), eq(sources.userId, userId)))
          .run(),
      );
    },
    async notebookIds(sourceIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      if (sourceIds.length === 0) return out;
      const rows = await db.query((c) =>
        c.orm
          .select({ s: notebookSources.sourceId, n: notebookSources.notebookId })
          .from(notebookSources)
          .where(inArray(notebookSources.sourceId, sourceIds))
          .orderBy(notebookSources.notebookId)
          .all(),
      );
      for (const r of rows) out.set(r.s, [...(out.get(r.s) ?? []), r.n]);
      return out;
    },
    /** Returns true when the link is new. */
    async link(notebookId: string, sourceId: string, at: string): Promise<boolean> {
      return (await db.exec((c) => linkStmt(c).all({ nb: notebookId, src: sourceId, at }))).length > 0;
    },
    async unlink(notebookId: string, sourceId: string): Promise<boolean> {
      const r = await db.exec((c) =>
        c.orm
          .delete(notebookSources)
          .where(and(eq(notebookSources.notebookId, notebookId), eq(notebookSources.sourceId, sourceId)))
          .returning()
          .all(),
      );
      return r.length > 0;
    },
    async countInNotebook(notebookId: string): Promise<number> {
      return (
        (
          await db.query((c) =>
            c.orm
              .select({ n: sql<number>`count(*)` })
              .from(notebookSources)
              .where(eq(notebookSources.notebookId, notebookId))
              .get(),
          )
        )?.n ?? 0
      );
    },
    /** The ready sources of a notebook, oldest first (the order they were saved in): a podcast of the notebook reads them. */
    async readyIdsInNotebook(userId: string, notebookId: string): Promise<string[]> {
      return (
        await db.query((c) =>
          c.orm
            .select({ id: sources.id })
            .from(sources)
            .innerJoin(notebookSources, eq(notebookSources.sourceId, sources.id))
            .where(
              and(eq(notebookSources.notebookId, notebookId), eq(sources.userId, userId), eq(sources.status, "ready")),
            )
            .orderBy(sources.id)
            .all(),
        )
      ).map((r) => r.id);
    },
  };
}
export type SourcesRepo = ReturnType<typeof createSourcesSqliteRepo>;

// SQL for sources and their notebook links on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { notebookSources, sources } from "../../db/pg/schema/index.ts";
import type { SourceRow } from "../../db/schema/index.ts";
import { splitSavedCursor } from "./list-query.ts";
import type { SourcesRepo } from "./repo.ts";

export function createSourcesPgRepo(db: PgDb): SourcesRepo {
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(sources).values(row));
    },
    async insertIfNew(row) {
      // A concurrent save of the same address (another request, another process) loses here rather than
      // raising a unique violation; in a SERIALIZABLE transaction that cannot see the winner yet PostgreSQL
      // reports a serialisation failure instead, and the retried transaction finds the winner's row.
      const r = await db.exec((c) =>
        c.orm
          .insert(sources)
          .values(row)
          .onConflictDoNothing({ target: [sources.userId, sources.normalizedUrl] })
          .returning({ id: sources.id }),
      );
      return r.length > 0;
    },
    async insertImported(row) {
      await db.exec((c) => c.orm.insert(sources).values({ ...row, status: "pending" }));
    },
    async byId(userId, id) {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(eq(sources.id, id), eq(sources.userId, userId))),
      );
      return rows[0];
    },
    async byIdUnscoped(id) {
      return (await db.query((c) => c.orm.select().from(sources).where(eq(sources.id, id))))[0];
    },
    async titlesAndUrls(ids) {
      if (ids.length === 0) return [];
      return db.query((c) =>
        c.orm
          .select({ id: sources.id, title: sources.title, url: sources.url })
          .from(sources)
          .where(inArray(sources.id, ids)),
      );
    },
    async byNormalizedUrl(userId, normalizedUrl) {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(eq(sources.userId, userId), eq(sources.normalizedUrl, normalizedUrl))),
      );
      return rows[0];
    },
    async byIds(userId, ids) {
      if (ids.length === 0) return [];
      return db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(eq(sources.userId, userId), inArray(sources.id, ids))),
      );
    },
    async list(userId, f): Promise<SourceRow[]> {
      const conds = [eq(sources.userId, userId)];
      // Tags are a JSON array kept in text: containment of a one-element array is "has this tag".
      if (f.tag !== undefined) conds.push(sql`${sources.tags}::jsonb @> jsonb_build_array(${f.tag}::text)`);
      if (f.status) conds.push(eq(sources.status, f.status as SourceRow["status"]));
      if (f.createdAfter) conds.push(gt(sources.createdAt, f.createdAfter));
      const bySaved = f.sort === "saved_at";
      if (f.before && bySaved) {
        const [at, id] = splitSavedCursor(f.before);
        conds.push(sql`(${sources.savedAt} < ${at} OR (${sources.savedAt} = ${at} AND ${sources.id} < ${id}))`);
      }
      const order = bySaved ? [desc(sources.savedAt), desc(sources.id)] : [desc(sources.id)];
      const notebookId = f.notebookId;
      if (notebookId) {
        if (f.before && !bySaved) conds.push(lt(notebookSources.sourceId, f.before));
        const rows = await db.query((c) =>
          c.orm
            .select({ s: sources })
            .from(notebookSources)
            .innerJoin(sources, eq(sources.id, notebookSources.sourceId))
            .where(and(eq(notebookSources.notebookId, notebookId), ...conds))
            .orderBy(...(bySaved ? order : [desc(notebookSources.sourceId)]))
            .limit(f.limit),
        );
        return rows.map((r) => r.s);
      }
      if (f.before && !bySaved) conds.push(lt(sources.id, f.before));
      return db.query((c) =>
        c.orm
          .select()
          .from(sources)
          .where(and(...conds))
          .orderBy(...order)
          .limit(f.limit),
      );
    },
    async pendingOfImport(importId, afterId, limit) {
      const rows = await db.query((c) =>
        c.orm
          .select({ id: sources.id, url: sources.url, hasContent: sql<boolean>`${sources.content} IS NOT NULL` })
          .from(sources)
          .where(and(eq(sources.importId, importId), eq(sources.status, "pending"), gt(sources.id, afterId)))
          .orderBy(sources.id)
          .limit(limit),
      );
      return rows.map((r) => ({ ...r, hasContent: Boolean(r.hasContent) }));
    },
    async statusCountsOfImport(importId) {
      const rows = await db.query((c) =>
        c.orm
          .select({ status: sources.status, n: sql<number>`count(*)` })
          .from(sources)
          .where(eq(sources.importId, importId))
          .groupBy(sources.status),
      );
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(sources).set(patch).where(eq(sources.id, id)));
    },
    async delete(userId, id) {
      await db.exec((c) => c.orm.delete(sources).where(and(eq(sources.id, id), eq(sources.userId, userId))));
    },
    async notebookIds(sourceIds) {
      const out = new Map<string, string[]>();
      if (sourceIds.length === 0) return out;
      const rows = await db.query((c) =>
        c.orm
          .select({ s: notebookSources.sourceId, n: notebookSources.notebookId })
          .from(notebookSources)
          .where(inArray(notebookSources.sourceId, sourceIds))
          .orderBy(notebookSources.notebookId),
      );
      for (const r of rows) out.set(r.s, [...(out.get(r.s) ?? []), r.n]);
      return out;
    },
    async link(notebookId, sourceId, at) {
      const r = await db.exec((c) =>
        c.orm
          .insert(notebookSources)
          .values({ notebookId, sourceId, addedAt: at })
          .onConflictDoNothing()
          .returning({ s: notebookSources.sourceId }),
      );
      return r.length > 0;
    },
    async unlink(notebookId, sourceId) {
      const r = await db.exec((c) =>
        c.orm
          .delete(notebookSources)
          .where(and(eq(notebookSources.notebookId, notebookId), eq(notebookSources.sourceId, sourceId)))
          .returning({ s: notebookSources.sourceId }),
      );
      return r.length > 0;
    },
    async countInNotebook(notebookId) {
      const rows = await db.query((c) =>
        c.orm
          .select({ n: sql<number>`count(*)` })
          .from(notebookSources)
          .where(eq(notebookSources.notebookId, notebookId)),
      );
      return Number(rows[0]?.n ?? 0);
    },
    async readyIdsInNotebook(userId, notebookId) {
      const rows = await db.query((c) =>
        c.orm
          .select({ id: sources.id })
          .from(sources)
          .innerJoin(notebookSources, eq(notebookSources.sourceId, sources.id))
          .where(
            and(eq(notebookSources.notebookId, notebookId), eq(sources.userId, userId), eq(sources.status, "ready")),
          )
          .orderBy(sources.id),
      );
      return rows.map((r) => r.id);
    },
  };
}

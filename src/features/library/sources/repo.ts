// SQL for sources and their notebook links, written once for both engines (src/db/shared.ts); every
// user-facing query is scoped by owner.
import { and, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import type { DialectParts, SharedOrm } from "../../../db/shared.ts";
import { notebookSources, sourceCaptures, sources, type SourceRow } from "../../../db/schema/index.ts";
import { type SourceListFilter, splitSavedCursor } from "./list-query.ts";

export type { SourceListFilter };

/** The number of sources in each triage view: inbox (unread, not archived), favorites, archive, all. */
export interface ViewCounts {
  inbox: number;
  favorites: number;
  archive: number;
  all: number;
}

/** A new pending source from an import. */
export interface ImportedSource {
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
}

export interface SourcesRepo {
  insert(row: typeof sources.$inferInsert): Promise<void>;
  /** Inserts a new source unless this owner already saved its address; true when this call inserted it. */
  insertIfNew(row: typeof sources.$inferInsert): Promise<boolean>;
  /** A new pending source from an import (prepared: called once per imported link). */
  insertImported(row: ImportedSource): Promise<void>;
  byId(userId: string, id: string): Promise<SourceRow | undefined>;
  /** For background jobs that carry only the id (the owner is read from the row). */
  byIdUnscoped(id: string): Promise<SourceRow | undefined>;
  /** Title and address of sources by id, whoever owns them (search shows the sources of hits already scoped to their owner). */
  titlesAndUrls(ids: string[]): Promise<{ id: string; title: string | null; url: string }[]>;
  byNormalizedUrl(userId: string, normalizedUrl: string): Promise<SourceRow | undefined>;
  byIds(userId: string, ids: string[]): Promise<SourceRow[]>;
  list(userId: string, f: SourceListFilter): Promise<SourceRow[]>;
  /** How many of the owner's sources each triage view holds (one pass over the owner's rows). */
  viewCounts(userId: string): Promise<ViewCounts>;
  /** A page of an import's sources still waiting to be fetched, by id after `afterId`. */
  pendingOfImport(
    importId: string,
    afterId: string,
    limit: number,
  ): Promise<{ id: string; url: string; hasContent: boolean }[]>;
  /** How far fetching the sources an import created has got, by status. */
  statusCountsOfImport(importId: string): Promise<Record<string, number>>;
  update(id: string, patch: Partial<typeof sources.$inferInsert>): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
  notebookIds(sourceIds: string[]): Promise<Map<string, string[]>>;
  /** Returns true when the link is new. */
  link(notebookId: string, sourceId: string, at: string): Promise<boolean>;
  unlink(notebookId: string, sourceId: string): Promise<boolean>;
  countInNotebook(notebookId: string): Promise<number>;
  /** The ready sources of a notebook, oldest first (the order they were saved in): a podcast of the notebook reads them. */
  readyIdsInNotebook(userId: string, notebookId: string): Promise<string[]>;
  /** Every ready source of the owner, by id (oldest first): the search quality self-test samples them. */
  readyIds(userId: string): Promise<string[]>;
  /** The owner's sources whose title or address contains the text (any ASCII case), newest first. */
  findByText(userId: string, text: string, limit: number): Promise<{ id: string; title: string | null; url: string }[]>;
  /** The id and tags of each of the owner's sources that carry a tag (`tag` given: that one). */
  taggedRows(userId: string, tag?: string): Promise<{ id: string; tags: string }[]>;
  /** Keeps the HTML a browser sent for a source until ingestion extracts it (a newer one replaces it). */
  putCapture(sourceId: string, html: string, at: string): Promise<void>;
  /** The HTML waiting for a source, if any. */
  capture(sourceId: string): Promise<{ html: string; createdAt: string } | undefined>;
  /** Deletes the capture that was read, not one that arrived since. */
  dropCapture(sourceId: string, createdAt: string): Promise<void>;
}

const ph = (name: string) => sql.placeholder(name);

/**
 * The owner's tagged sources (with one tag, if given), as a builder its test can explain. The literal
 * `tags <> '[]'` is the predicate of the partial index sources_user_tags, which holds (user_id, tags, id)
 * so the list is read from the index alone: on SQLite the row's tags sit after its article text, and the
 * tag list is on every Library and reader page.
 */
export function taggedQuery(orm: SharedOrm, dialect: DialectParts, userId: string, tag?: string) {
  const tagged = sql`${sources.tags} <> '[]'`;
  return orm
    .select({ id: sources.id, tags: sources.tags })
    .from(sources)
    .where(
      and(eq(sources.userId, userId), tagged, tag === undefined ? undefined : dialect.jsonArrayHas(sources.tags, tag)),
    );
}

/** Every column of a source, its text read as empty (lists that show no text). */
const WITHOUT_TEXT = { ...getTableColumns(sources), content: sql<string | null>`''` };

export function createSourcesRepo(db: Db): SourcesRepo {
  const orm = db.shared;
  // The lookups and writes an import makes per entry, prepared once (building drizzle SQL per call
  // costs far more than running it).
  const byNormalized = orm
    .select()
    .from(sources)
    .where(and(eq(sources.userId, ph("userId")), eq(sources.normalizedUrl, ph("n"))))
    .prepare();
  const byIdStmt = orm
    .select()
    .from(sources)
    .where(eq(sources.id, ph("id")))
    .prepare();
  const linkStmt = orm
    .insert(notebookSources)
    .values({ notebookId: ph("nb"), sourceId: ph("src"), addedAt: ph("at") })
    .onConflictDoNothing()
    .returning()
    .prepare();
  const insertImportedStmt = orm
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
    .prepare();

  return {
    async insert(row) {
      await orm.insert(sources).values(row);
    },
    async insertIfNew(row) {
      const r = await orm
        .insert(sources)
        .values(row)
        .onConflictDoNothing({ target: [sources.userId, sources.normalizedUrl] })
        .returning({ id: sources.id });
      return r.length > 0;
    },
    async insertImported(row) {
      // A placeholder is bound as given: the boolean as SQLite keeps it (PostgreSQL's reads 1 as true).
      await insertImportedStmt.run({ ...row, archived: row.archived ? 1 : 0 });
    },
    byId(userId, id) {
      return orm
        .select()
        .from(sources)
        .where(and(eq(sources.id, id), eq(sources.userId, userId)))
        .get();
    },
    byIdUnscoped(id) {
      return byIdStmt.get({ id });
    },
    async titlesAndUrls(ids) {
      if (ids.length === 0) return [];
      return orm
        .select({ id: sources.id, title: sources.title, url: sources.url })
        .from(sources)
        .where(inArray(sources.id, ids));
    },
    byNormalizedUrl(userId, normalizedUrl) {
      return byNormalized.get({ userId, n: normalizedUrl });
    },
    async byIds(userId, ids) {
      if (ids.length === 0) return [];
      return orm
        .select()
        .from(sources)
        .where(and(eq(sources.userId, userId), inArray(sources.id, ids)));
    },
    async list(userId, f) {
      const conds = [eq(sources.userId, userId)];
      if (f.tag !== undefined) conds.push(db.dialect.jsonArrayHas(sources.tags, f.tag));
      if (f.status) conds.push(eq(sources.status, f.status as SourceRow["status"]));
      if (f.createdAfter) conds.push(gt(sources.createdAt, f.createdAfter));
      if (f.archived !== undefined) conds.push(eq(sources.archived, f.archived));
      if (f.favorite !== undefined) conds.push(eq(sources.favorite, f.favorite));
      if (f.read !== undefined) conds.push(f.read ? isNotNull(sources.readAt) : isNull(sources.readAt));
      if (f.original !== undefined) conds.push(eq(sources.originalStatus, f.original));
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
        const rows = await orm
          .select({ s: f.withoutText ? WITHOUT_TEXT : getTableColumns(sources) })
          .from(notebookSources)
          .innerJoin(sources, eq(sources.id, notebookSources.sourceId))
          .where(and(eq(notebookSources.notebookId, notebookId), ...conds))
          .orderBy(...(bySaved ? order : [desc(notebookSources.sourceId)]))
          .limit(f.limit);
        return rows.map((r) => r.s);
      }
      if (f.before && !bySaved) conds.push(lt(sources.id, f.before));
      return orm
        .select(f.withoutText ? WITHOUT_TEXT : getTableColumns(sources))
        .from(sources)
        .where(and(...conds))
        .orderBy(...order)
        .limit(f.limit);
    },
    async viewCounts(userId) {
      // FILTER (WHERE …) on an aggregate: SQLite ≥ 3.30 and PostgreSQL both read it.
      const count = (cond: SQL | undefined) => sql<number>`count(*) FILTER (WHERE ${cond})`;
      const row = await orm
        .select({
          inbox: count(and(eq(sources.archived, false), isNull(sources.readAt))),
          favorites: count(eq(sources.favorite, true)),
          archive: count(eq(sources.archived, true)),
          all: sql<number>`count(*)`,
        })
        .from(sources)
        .where(eq(sources.userId, userId))
        .get();
      return {
        inbox: Number(row?.inbox ?? 0),
        favorites: Number(row?.favorites ?? 0),
        archive: Number(row?.archive ?? 0),
        all: Number(row?.all ?? 0),
      };
    },
    async pendingOfImport(importId, afterId, limit) {
      const rows = await orm
        .select({ id: sources.id, url: sources.url, hasContent: sql<unknown>`${sources.content} IS NOT NULL` })
        .from(sources)
        .where(and(eq(sources.importId, importId), eq(sources.status, "pending"), gt(sources.id, afterId)))
        .orderBy(sources.id)
        .limit(limit);
      // 1/0 on SQLite, true/false on PostgreSQL.
      return rows.map((r) => ({ ...r, hasContent: r.hasContent === true || r.hasContent === 1 }));
    },
    async statusCountsOfImport(importId) {
      const rows = await orm
        .select({ status: sources.status, n: sql<number>`count(*)` })
        .from(sources)
        .where(eq(sources.importId, importId))
        .groupBy(sources.status);
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    async update(id, patch) {
      await orm.update(sources).set(patch).where(eq(sources.id, id));
    },
    async delete(userId, id) {
      await orm.delete(sources).where(and(eq(sources.id, id), eq(sources.userId, userId)));
    },
    async notebookIds(sourceIds) {
      const out = new Map<string, string[]>();
      if (sourceIds.length === 0) return out;
      const rows = await orm
        .select({ s: notebookSources.sourceId, n: notebookSources.notebookId })
        .from(notebookSources)
        .where(inArray(notebookSources.sourceId, sourceIds))
        .orderBy(notebookSources.notebookId);
      for (const r of rows) out.set(r.s, [...(out.get(r.s) ?? []), r.n]);
      return out;
    },
    async link(notebookId, sourceId, at) {
      return (await linkStmt.all({ nb: notebookId, src: sourceId, at })).length > 0;
    },
    async unlink(notebookId, sourceId) {
      const r = await orm
        .delete(notebookSources)
        .where(and(eq(notebookSources.notebookId, notebookId), eq(notebookSources.sourceId, sourceId)))
        .returning();
      return r.length > 0;
    },
    async countInNotebook(notebookId) {
      const row = await orm
        .select({ n: sql<number>`count(*)` })
        .from(notebookSources)
        .where(eq(notebookSources.notebookId, notebookId))
        .get();
      return Number(row?.n ?? 0);
    },
    async readyIdsInNotebook(userId, notebookId) {
      const rows = await orm
        .select({ id: sources.id })
        .from(sources)
        .innerJoin(notebookSources, eq(notebookSources.sourceId, sources.id))
        .where(and(eq(notebookSources.notebookId, notebookId), eq(sources.userId, userId), eq(sources.status, "ready")))
        .orderBy(sources.id);
      return rows.map((r) => r.id);
    },
    async readyIds(userId) {
      const rows = await orm
        .select({ id: sources.id })
        .from(sources)
        .where(and(eq(sources.userId, userId), eq(sources.status, "ready")))
        .orderBy(sources.id);
      return rows.map((r) => r.id);
    },
    async findByText(userId, text, limit) {
      // LIKE with its wildcards escaped: the text is matched as typed.
      const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return orm
        .select({ id: sources.id, title: sources.title, url: sources.url })
        .from(sources)
        .where(
          and(
            eq(sources.userId, userId),
            sql`(lower(coalesce(${sources.title}, '')) LIKE ${pattern} ESCAPE '\\' OR lower(${sources.url}) LIKE ${pattern} ESCAPE '\\')`,
          ),
        )
        .orderBy(desc(sources.id))
        .limit(limit);
    },
    async taggedRows(userId, tag) {
      return taggedQuery(orm, db.dialect, userId, tag);
    },
    async putCapture(sourceId, html, at) {
      await orm
        .insert(sourceCaptures)
        .values({ sourceId, html, createdAt: at })
        .onConflictDoUpdate({ target: sourceCaptures.sourceId, set: { html, createdAt: at } });
    },
    capture(sourceId) {
      return orm
        .select({ html: sourceCaptures.html, createdAt: sourceCaptures.createdAt })
        .from(sourceCaptures)
        .where(eq(sourceCaptures.sourceId, sourceId))
        .get();
    },
    async dropCapture(sourceId, createdAt) {
      await orm
        .delete(sourceCaptures)
        .where(and(eq(sourceCaptures.sourceId, sourceId), eq(sourceCaptures.createdAt, createdAt)));
    },
  };
}

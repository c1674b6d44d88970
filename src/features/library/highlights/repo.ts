// SQL for highlights, written once for both engines (src/db/shared.ts); every user-facing query is
// scoped by owner. Listings carry the title, address and byline of each highlight's source.
import { and, asc, desc, eq, gt, inArray, lt } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import { highlights, notebookSources, sources, type HighlightRow } from "../../../db/schema/index.ts";

/** A highlight with what lists show of its source. */
export interface HighlightWithSource {
  /** The highlight's id (the paging key). */
  id: string;
  h: HighlightRow;
  title: string | null;
  url: string;
  byline: string | null;
}

export interface HighlightListFilter {
  limit: number;
  /** Id to continue before (newest first). */
  before?: string;
  sourceId?: string;
  notebookId?: string;
  tag?: string;
  createdAfter?: string;
}

export interface HighlightsRepo {
  insert(row: HighlightRow): Promise<void>;
  byId(userId: string, id: string): Promise<HighlightWithSource | undefined>;
  /** Newest first, with the filters the API takes. */
  list(userId: string, f: HighlightListFilter): Promise<HighlightWithSource[]>;
  /** Every highlight of a source in text order (the owner's; re-anchoring passes the source's owner). */
  ofSource(userId: string, sourceId: string): Promise<HighlightWithSource[]>;
  /** Highlights by id with their source (search hits and ask citations, already scoped to the owner). */
  byIds(userId: string, ids: string[]): Promise<HighlightWithSource[]>;
  update(userId: string, id: string, patch: Partial<HighlightRow>): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
}

const withSource = {
  id: highlights.id,
  h: highlights,
  title: sources.title,
  url: sources.url,
  byline: sources.byline,
};

export function createHighlightsRepo(db: Db): HighlightsRepo {
  const orm = db.shared;
  const joined = () => orm.select(withSource).from(highlights).innerJoin(sources, eq(sources.id, highlights.sourceId));
  return {
    async insert(row) {
      await orm.insert(highlights).values(row);
    },
    byId(userId, id) {
      return joined()
        .where(and(eq(highlights.id, id), eq(highlights.userId, userId)))
        .get();
    },
    list(userId, f) {
      const conds = [eq(highlights.userId, userId)];
      if (f.before) conds.push(lt(highlights.id, f.before));
      if (f.sourceId) conds.push(eq(highlights.sourceId, f.sourceId));
      if (f.createdAfter) conds.push(gt(highlights.createdAt, f.createdAfter));
      if (f.tag !== undefined) conds.push(db.dialect.jsonArrayHas(sources.tags, f.tag));
      if (f.notebookId)
        conds.push(
          inArray(
            highlights.sourceId,
            orm
              .select({ id: notebookSources.sourceId })
              .from(notebookSources)
              .where(eq(notebookSources.notebookId, f.notebookId)),
          ),
        );
      return joined()
        .where(and(...conds))
        .orderBy(desc(highlights.id))
        .limit(f.limit);
    },
    ofSource(userId, sourceId) {
      return joined()
        .where(and(eq(highlights.userId, userId), eq(highlights.sourceId, sourceId)))
        .orderBy(asc(highlights.startPos), asc(highlights.id));
    },
    async byIds(userId, ids) {
      if (ids.length === 0) return [];
      return joined().where(and(eq(highlights.userId, userId), inArray(highlights.id, ids)));
    },
    async update(userId, id, patch) {
      await orm
        .update(highlights)
        .set(patch)
        .where(and(eq(highlights.id, id), eq(highlights.userId, userId)));
    },
    async delete(userId, id) {
      await orm.delete(highlights).where(and(eq(highlights.id, id), eq(highlights.userId, userId)));
    },
  };
}

// SQL for notebooks, with the counts the public view shows: written once for both engines
// (src/db/shared.ts).
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import { notebooks, type NotebookRow } from "../../../db/schema/index.ts";

export type NotebookWithCounts = NotebookRow & { sourceCount: number; noteCount: number };

/** What the library needs of the notebooks table, in its own words. */
export interface NotebooksRepo {
  insert(row: NotebookRow): Promise<void>;
  byId(userId: string, id: string): Promise<NotebookWithCounts | undefined>;
  /** Which of these ids are the user's notebooks. */
  existingIds(userId: string, ids: string[]): Promise<Set<string>>;
  /** Newest first, `before` an id (exclusive). */
  list(userId: string, opts: { limit: number; before?: string }): Promise<NotebookWithCounts[]>;
  /** Every notebook's id by name (the oldest wins on a repeated name): imports find folders by name. */
  idsByName(userId: string): Promise<Map<string, string>>;
  update(id: string, patch: Partial<NotebookRow>): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
}

export function createNotebooksRepo(db: Db): NotebooksRepo {
  const orm = db.shared;
  const withCounts = {
    id: notebooks.id,
    userId: notebooks.userId,
    name: notebooks.name,
    description: notebooks.description,
    createdAt: notebooks.createdAt,
    updatedAt: notebooks.updatedAt,
    // Written out in full: drizzle renders columns unqualified inside sql``, which would bind to the inner table.
    sourceCount: sql<number>`(SELECT count(*) FROM notebook_sources ns WHERE ns.notebook_id = "notebooks"."id")`,
    noteCount: sql<number>`(SELECT count(*) FROM notes n WHERE n.notebook_id = "notebooks"."id")`,
  };
  return {
    async insert(row) {
      await orm.insert(notebooks).values(row);
    },
    async byId(userId, id) {
      return orm
        .select(withCounts)
        .from(notebooks)
        .where(and(eq(notebooks.id, id), eq(notebooks.userId, userId)))
        .get();
    },
    async existingIds(userId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await orm
        .select({ id: notebooks.id })
        .from(notebooks)
        .where(and(eq(notebooks.userId, userId), inArray(notebooks.id, ids)));
      return new Set(rows.map((r) => r.id));
    },
    async list(userId, opts) {
      const conds = [eq(notebooks.userId, userId)];
      if (opts.before) conds.push(lt(notebooks.id, opts.before));
      return orm
        .select(withCounts)
        .from(notebooks)
        .where(and(...conds))
        .orderBy(desc(notebooks.id))
        .limit(opts.limit);
    },
    async idsByName(userId) {
      const rows = await orm
        .select({ id: notebooks.id, name: notebooks.name })
        .from(notebooks)
        .where(eq(notebooks.userId, userId))
        .orderBy(notebooks.id);
      const out = new Map<string, string>();
      for (const r of rows) if (!out.has(r.name)) out.set(r.name, r.id);
      return out;
    },
    async update(id, patch) {
      await orm.update(notebooks).set(patch).where(eq(notebooks.id, id));
    },
    async delete(userId, id) {
      await orm.delete(notebooks).where(and(eq(notebooks.id, id), eq(notebooks.userId, userId)));
    },
  };
}

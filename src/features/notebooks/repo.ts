// SQL for notebooks, with the counts the public view shows.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { notebooks, type NotebookRow } from "../../db/schema/index.ts";
import { createNotebooksPgRepo } from "./pg-repo.ts";

export type NotebookWithCounts = NotebookRow & { sourceCount: number; noteCount: number };

export function createNotebooksRepo(db: Db): NotebooksRepo {
  return db.pg ? createNotebooksPgRepo(db.pg) : createNotebooksSqliteRepo(db);
}

function createNotebooksSqliteRepo(db: Db) {
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
    async insert(row: NotebookRow): Promise<void> {
      await db.exec((c) => c.orm.insert(notebooks).values(row).run());
    },
    async byId(userId: string, id: string): Promise<NotebookWithCounts | undefined> {
      return db.query((c) =>
        c.orm
          .select(withCounts)
          .from(notebooks)
          .where(and(eq(notebooks.id, id), eq(notebooks.userId, userId)))
          .get(),
      );
    },
    async existingIds(userId: string, ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.query((c) =>
        c.orm
          .select({ id: notebooks.id })
          .from(notebooks)
          .where(and(eq(notebooks.userId, userId), inArray(notebooks.id, ids)))
          .all(),
      );
      return new Set(rows.map((r) => r.id));
    },
    async list(userId: string, opts: { limit: number; before?: string }): Promise<NotebookWithCounts[]> {
      const conds = [eq(notebooks.userId, userId)];
      if (opts.before) conds.push(lt(notebooks.id, opts.before));
      return db.query((c) =>
        c.orm
          .select(withCounts)
          .from(notebooks)
          .where(and(...conds))
          .orderBy(desc(notebooks.id))
          .limit(opts.limit)
          .all(),
      );
    },
    /** Every notebook's id by name (the oldest wins on a repeated name): imports find folders by name. */
    async idsByName(userId: string): Promise<Map<string, string>> {
      const rows = await db.query((c) =>
        c.orm
          .select({ id: notebooks.id, name: notebooks.name })
          .from(notebooks)
          .where(eq(notebooks.userId, userId))
          .orderBy(notebooks.id)
          .all(),
      );
      const out = new Map<string, string>();
      for (const r of rows) if (!out.has(r.name)) out.set(r.name, r.id);
      return out;
    },
    async update(id: string, patch: Partial<NotebookRow>): Promise<void> {
      await db.exec((c) => c.orm.update(notebooks).set(patch).where(eq(notebooks.id, id)).run());
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(notebooks)
          .where(and(eq(notebooks.id, id), eq(notebooks.userId, userId)))
          .run(),
      );
    },
  };
}
export type NotebooksRepo = ReturnType<typeof createNotebooksSqliteRepo>;

// SQL for notebooks on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { notebooks } from "../../db/pg/schema/index.ts";
import type { NotebooksRepo, NotebookWithCounts } from "./repo.ts";

export function createNotebooksPgRepo(db: PgDb): NotebooksRepo {
  const withCounts = {
    id: notebooks.id,
    userId: notebooks.userId,
    name: notebooks.name,
    description: notebooks.description,
    createdAt: notebooks.createdAt,
    updatedAt: notebooks.updatedAt,
    // Written out in full, as on SQLite; count(*) is a bigint, which the pool parses as a number.
    sourceCount: sql<number>`(SELECT count(*) FROM notebook_sources ns WHERE ns.notebook_id = "notebooks"."id")`,
    noteCount: sql<number>`(SELECT count(*) FROM notes n WHERE n.notebook_id = "notebooks"."id")`,
  };
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(notebooks).values(row));
    },
    async byId(userId, id): Promise<NotebookWithCounts | undefined> {
      const rows = await db.query((c) =>
        c.orm
          .select(withCounts)
          .from(notebooks)
          .where(and(eq(notebooks.id, id), eq(notebooks.userId, userId))),
      );
      return rows[0];
    },
    async existingIds(userId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db.query((c) =>
        c.orm
          .select({ id: notebooks.id })
          .from(notebooks)
          .where(and(eq(notebooks.userId, userId), inArray(notebooks.id, ids))),
      );
      return new Set(rows.map((r) => r.id));
    },
    async list(userId, opts) {
      const conds = [eq(notebooks.userId, userId)];
      if (opts.before) conds.push(lt(notebooks.id, opts.before));
      return db.query((c) =>
        c.orm
          .select(withCounts)
          .from(notebooks)
          .where(and(...conds))
          .orderBy(desc(notebooks.id))
          .limit(opts.limit),
      );
    },
    async idsByName(userId) {
      const rows = await db.query((c) =>
        c.orm
          .select({ id: notebooks.id, name: notebooks.name })
          .from(notebooks)
          .where(eq(notebooks.userId, userId))
          .orderBy(notebooks.id),
      );
      const out = new Map<string, string>();
      for (const r of rows) if (!out.has(r.name)) out.set(r.name, r.id);
      return out;
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(notebooks).set(patch).where(eq(notebooks.id, id)));
    },
    async delete(userId, id) {
      await db.exec((c) => c.orm.delete(notebooks).where(and(eq(notebooks.id, id), eq(notebooks.userId, userId))));
    },
  };
}

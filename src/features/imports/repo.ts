// SQL for imports: the job's row, its counts and problems; every user-facing query is scoped by owner.
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { imports, type ImportRow } from "../../db/schema/index.ts";
import { createImportsPgRepo } from "./pg-repo.ts";

/** The row without the file (lists and progress never need the bytes). */
const view = {
  id: imports.id,
  userId: imports.userId,
  format: imports.format,
  filename: imports.filename,
  fileSha256: imports.fileSha256,
  status: imports.status,
  position: imports.position,
  total: imports.total,
  created: imports.created,
  alreadySaved: imports.alreadySaved,
  invalid: imports.invalid,
  failed: imports.failed,
  notebooksCreated: imports.notebooksCreated,
  feedsWatched: imports.feedsWatched,
  feedWorkflows: imports.feedWorkflows,
  problems: imports.problems,
  problemsTotal: imports.problemsTotal,
  error: imports.error,
  createdAt: imports.createdAt,
  startedAt: imports.startedAt,
  finishedAt: imports.finishedAt,
  updatedAt: imports.updatedAt,
};
export type ImportView = Omit<ImportRow, "file">;

// The job reads its counts once per ~3 ms slice: plain SQL (compiled once per connection) instead of
// building the drizzle query each time. Every column of the view is a plain text or integer, so the
// rows are the same as drizzle's.
const PROGRESS_SQL = `SELECT ${Object.entries(view)
  .map(([key, col]) => `"${col.name}" AS "${key}"`)
  .join(", ")} FROM imports WHERE id = ?`;

export function createImportsRepo(db: Db): ImportsRepo {
  return db.pg ? createImportsPgRepo(db.pg) : createImportsSqliteRepo(db);
}

function createImportsSqliteRepo(db: Db) {
  return {
    async insert(row: typeof imports.$inferInsert): Promise<void> {
      await db.exec((c) => c.orm.insert(imports).values(row).run());
    },
    async byId(userId: string, id: string): Promise<ImportView | undefined> {
      return db.query((c) =>
        c.orm
          .select(view)
          .from(imports)
          .where(and(eq(imports.id, id), eq(imports.userId, userId)))
          .get(),
      );
    },
    /** The job's counts between slices (without the file, which is read once per run). */
    async progressOf(id: string): Promise<ImportView | undefined> {
      return db.query((c) => c.sqlite.query<ImportView, [string]>(PROGRESS_SQL).get(id) ?? undefined);
    },
    /** For the job, which carries only the id. */
    async withFile(id: string): Promise<ImportRow | undefined> {
      return db.query((c) => c.orm.select().from(imports).where(eq(imports.id, id)).get());
    },
    async list(userId: string, opts: { limit: number; before?: string }): Promise<ImportView[]> {
      const conds = [eq(imports.userId, userId)];
      if (opts.before) conds.push(lt(imports.id, opts.before));
      return db.query((c) =>
        c.orm
          .select(view)
          .from(imports)
          .where(and(...conds))
          .orderBy(desc(imports.id))
          .limit(opts.limit)
          .all(),
      );
    },
    async update(id: string, patch: Partial<typeof imports.$inferInsert>): Promise<void> {
      await db.exec((c) => c.orm.update(imports).set(patch).where(eq(imports.id, id)).run());
    },
  };
}
export type ImportsRepo = ReturnType<typeof createImportsSqliteRepo>;

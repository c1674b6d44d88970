// SQL for imports: the job's row, its counts and problems; every user-facing query is scoped by owner.
// Written once for both engines (src/db/shared.ts); the file is a BLOB on SQLite, bytea on PostgreSQL.
import { and, desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { imports, type ImportRow } from "../../db/schema/index.ts";

/** The row without the file (lists and progress never need the bytes). */
const { file: _file, ...view } = getTableColumns(imports);
export type ImportView = Omit<ImportRow, "file">;

/** What imports need of the imports table, in their own words. */
export interface ImportsRepo {
  insert(row: typeof imports.$inferInsert): Promise<void>;
  /** One import of the user, without its file. */
  byId(userId: string, id: string): Promise<ImportView | undefined>;
  /** The job's counts between slices (without the file, which is read once per run). */
  progressOf(id: string): Promise<ImportView | undefined>;
  /** For the job, which carries only the id. */
  withFile(id: string): Promise<ImportRow | undefined>;
  /** Newest first, `before` an id (exclusive), without their files. */
  list(userId: string, opts: { limit: number; before?: string }): Promise<ImportView[]>;
  update(id: string, patch: Partial<typeof imports.$inferInsert>): Promise<void>;
}

export function createImportsRepo(db: Db): ImportsRepo {
  const orm = db.shared;
  // The job reads its counts once per ~3 ms slice: built once, not per read.
  const progress = orm
    .select(view)
    .from(imports)
    .where(eq(imports.id, sql.placeholder("id")))
    .prepare();
  return {
    async insert(row) {
      await orm.insert(imports).values(row);
    },
    byId(userId, id) {
      return orm
        .select(view)
        .from(imports)
        .where(and(eq(imports.id, id), eq(imports.userId, userId)))
        .get();
    },
    progressOf(id) {
      return progress.get({ id });
    },
    withFile(id) {
      return orm.select().from(imports).where(eq(imports.id, id)).get();
    },
    async list(userId, opts) {
      const conds = [eq(imports.userId, userId)];
      if (opts.before) conds.push(lt(imports.id, opts.before));
      return orm
        .select(view)
        .from(imports)
        .where(and(...conds))
        .orderBy(desc(imports.id))
        .limit(opts.limit);
    },
    async update(id, patch) {
      await orm.update(imports).set(patch).where(eq(imports.id, id));
    },
  };
}

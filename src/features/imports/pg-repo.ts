// SQL for imports on PostgreSQL: the twin of repo.ts, same methods and results (the file is bytea).
import { and, desc, eq, getTableColumns, lt } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { imports } from "../../db/pg/schema/index.ts";
import type { ImportRow } from "../../db/schema/index.ts";
import type { ImportsRepo, ImportView } from "./repo.ts";

/** The row without the file (lists and progress never need the bytes). */
const { file: _file, ...view } = getTableColumns(imports);

export function createImportsPgRepo(db: PgDb): ImportsRepo {
  const byIdOnly = async (id: string): Promise<ImportView | undefined> =>
    (await db.query((c) => c.orm.select(view).from(imports).where(eq(imports.id, id))))[0];
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(imports).values(row));
    },
    async byId(userId, id) {
      const rows = await db.query((c) =>
        c.orm
          .select(view)
          .from(imports)
          .where(and(eq(imports.id, id), eq(imports.userId, userId))),
      );
      return rows[0];
    },
    progressOf: byIdOnly,
    async withFile(id): Promise<ImportRow | undefined> {
      return (await db.query((c) => c.orm.select().from(imports).where(eq(imports.id, id))))[0];
    },
    async list(userId, opts) {
      const conds = [eq(imports.userId, userId)];
      if (opts.before) conds.push(lt(imports.id, opts.before));
      return db.query((c) =>
        c.orm
          .select(view)
          .from(imports)
          .where(and(...conds))
          .orderBy(desc(imports.id))
          .limit(opts.limit),
      );
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(imports).set(patch).where(eq(imports.id, id)));
    },
  };
}

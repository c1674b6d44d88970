// SQL for api_keys on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { apiKeys } from "../../db/pg/schema/index.ts";
import type { ApiKeyRow } from "../../db/schema/index.ts";
import type { KeysRepo } from "./repo.ts";

export function createKeysPgRepo(db: PgDb): KeysRepo {
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(apiKeys).values(row));
    },
    async byHash(hash) {
      return db.query(async (c) => (await c.orm.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).limit(1))[0]);
    },
    async byId(userId, id) {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(apiKeys)
          .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId))),
      );
      return rows[0];
    },
    async byIdAnyOwner(id) {
      return db.query(async (c) => (await c.orm.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]);
    },
    async list(userId, opts): Promise<ApiKeyRow[]> {
      const conds = [eq(apiKeys.userId, userId)];
      if (opts.before) conds.push(lt(apiKeys.id, opts.before));
      if (!opts.includeRevoked) conds.push(isNull(apiKeys.revokedAt));
      return db.query((c) =>
        c.orm
          .select()
          .from(apiKeys)
          .where(and(...conds))
          .orderBy(desc(apiKeys.id))
          .limit(opts.limit),
      );
    },
    async revoke(id, at) {
      const r = await db.exec((c) =>
        c.orm
          .update(apiKeys)
          .set({ revokedAt: at })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
          .returning({ id: apiKeys.id }),
      );
      return r.length > 0;
    },
    async revokeAllOfUser(userId, at) {
      const r = await db.exec((c) =>
        c.orm
          .update(apiKeys)
          .set({ revokedAt: at })
          .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
          .returning({ id: apiKeys.id }),
      );
      return r.map((x) => x.id);
    },
    async touch(id, at) {
      await db.exec((c) => c.orm.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id)));
    },
  };
}

// SQL for api_keys; every query takes the owner so another user's key is simply absent.
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { apiKeys, type ApiKeyRow } from "../../db/schema/index.ts";
import { createKeysPgRepo } from "./pg-repo.ts";

export function createKeysRepo(db: Db): KeysRepo {
  return db.pg ? createKeysPgRepo(db.pg) : createKeysSqliteRepo(db);
}

function createKeysSqliteRepo(db: Db) {
  return {
    async insert(row: ApiKeyRow): Promise<void> {
      await db.exec((c) => c.orm.insert(apiKeys).values(row).run());
    },
    async byHash(hash: string): Promise<ApiKeyRow | undefined> {
      return db.query((c) => c.orm.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).get());
    },
    async byId(userId: string, id: string): Promise<ApiKeyRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(apiKeys)
          .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
          .get(),
      );
    },
    async byIdAnyOwner(id: string): Promise<ApiKeyRow | undefined> {
      return db.query((c) => c.orm.select().from(apiKeys).where(eq(apiKeys.id, id)).get());
    },
    async list(
      userId: string,
      opts: { limit: number; before?: string; includeRevoked?: boolean },
    ): Promise<ApiKeyRow[]> {
      const conds = [eq(apiKeys.userId, userId)];
      if (opts.before) conds.push(lt(apiKeys.id, opts.before));
      if (!opts.includeRevoked) conds.push(isNull(apiKeys.revokedAt));
      return db.query((c) =>
        c.orm
          .select()
          .from(apiKeys)
          .where(and(...conds))
          .orderBy(desc(apiKeys.id))
          .limit(opts.limit)
          .all(),
      );
    },
    async revoke(id: string, at: string): Promise<boolean> {
      const r = await db.exec((c) =>
        c.orm
          .update(apiKeys)
          .set({ revokedAt: at })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
          .returning({ id: apiKeys.id })
          .all(),
      );
      return r.length > 0;
    },
    /** Revokes every live key of the user; returns their ids. */
    async revokeAllOfUser(userId: string, at: string): Promise<string[]> {
      const r = await db.exec((c) =>
        c.orm
          .update(apiKeys)
          .set({ revokedAt: at })
          .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
          .returning({ id: apiKeys.id })
          .all(),
      );
      return r.map((x) => x.id);
    },
    async touch(id: string, at: string): Promise<void> {
      await db.exec((c) => c.orm.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id)).run());
    },
  };
}
export type KeysRepo = ReturnType<typeof createKeysSqliteRepo>;

// SQL for api_keys; every query takes the owner so another user's key is simply absent.
// Written once for both engines (src/db/shared.ts).
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { apiKeys, type ApiKeyRow } from "../../db/schema/index.ts";

/** What API keys need of the api_keys table, in their own words. */
export interface KeysRepo {
  insert(row: ApiKeyRow): Promise<void>;
  /** The key with this hash, whoever owns it (authentication). */
  byHash(hash: string): Promise<ApiKeyRow | undefined>;
  /** One key of the user, or undefined when it is someone else's or does not exist. */
  byId(userId: string, id: string): Promise<ApiKeyRow | undefined>;
  byIdAnyOwner(id: string): Promise<ApiKeyRow | undefined>;
  /** Newest first, `before` an id (exclusive); live keys only unless includeRevoked. */
  list(userId: string, opts: { limit: number; before?: string; includeRevoked?: boolean }): Promise<ApiKeyRow[]>;
  /** Revokes a live key; false when it was already revoked or does not exist. */
  revoke(id: string, at: string): Promise<boolean>;
  /** Revokes every live key of the user; returns their ids. */
  revokeAllOfUser(userId: string, at: string): Promise<string[]>;
  /** Records when the key was last used. */
  touch(id: string, at: string): Promise<void>;
}

export function createKeysRepo(db: Db): KeysRepo {
  const orm = db.shared;
  return {
    async insert(row) {
      await orm.insert(apiKeys).values(row);
    },
    byHash(hash) {
      return orm.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).get();
    },
    byId(userId, id) {
      return orm
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
        .get();
    },
    byIdAnyOwner(id) {
      return orm.select().from(apiKeys).where(eq(apiKeys.id, id)).get();
    },
    async list(userId, opts) {
      const conds = [eq(apiKeys.userId, userId)];
      if (opts.before) conds.push(lt(apiKeys.id, opts.before));
      if (!opts.includeRevoked) conds.push(isNull(apiKeys.revokedAt));
      return orm
        .select()
        .from(apiKeys)
        .where(and(...conds))
        .orderBy(desc(apiKeys.id))
        .limit(opts.limit);
    },
    async revoke(id, at) {
      const r = await orm
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return r.length > 0;
    },
    async revokeAllOfUser(userId, at) {
      const r = await orm
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return r.map((x) => x.id);
    },
    async touch(id, at) {
      await orm.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
    },
  };
}

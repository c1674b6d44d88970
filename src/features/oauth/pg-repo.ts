// SQL for OAuth clients, grants, codes and tokens on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, isNull, lt, notExists, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { oauthClients, oauthCodes, oauthGrants, oauthTokens } from "../../db/pg/schema/index.ts";
import type { OAuthRepo } from "./repo.ts";

export function createOAuthPgRepo(db: PgDb): OAuthRepo {
  return {
    async insertClient(row) {
      await db.exec((c) => c.orm.insert(oauthClients).values(row));
    },
    async clientById(id) {
      return db.query(async (c) => (await c.orm.select().from(oauthClients).where(eq(oauthClients.id, id)))[0]);
    },
    async deleteUnusedClients(before) {
      return db.exec(async ({ orm }) => {
        const unused = and(
          lt(oauthClients.createdAt, before),
          notExists(orm.select({ one: sql`1` }).from(oauthGrants).where(eq(oauthGrants.clientId, oauthClients.id))),
          notExists(orm.select({ one: sql`1` }).from(oauthCodes).where(eq(oauthCodes.clientId, oauthClients.id))),
        );
        return (await orm.delete(oauthClients).where(unused).returning({ id: oauthClients.id })).length;
      });
    },

    async insertCode(row) {
      await db.exec((c) => c.orm.insert(oauthCodes).values(row));
    },
    async codeByHash(hash) {
      return db.query(async (c) => (await c.orm.select().from(oauthCodes).where(eq(oauthCodes.codeHash, hash)))[0]);
    },
    async useCode(hash, at, grantId) {
      // One conditional UPDATE: of two redemptions racing on two processes, the row lock lets one win.
      const r = await db.exec((c) =>
        c.orm
          .update(oauthCodes)
          .set({ usedAt: at, grantId })
          .where(and(eq(oauthCodes.codeHash, hash), isNull(oauthCodes.usedAt)))
          .returning({ h: oauthCodes.codeHash }),
      );
      return r.length > 0;
    },
    async deleteExpiredCodes(now) {
      await db.exec((c) => c.orm.delete(oauthCodes).where(lt(oauthCodes.expiresAt, now)));
    },

    async insertGrant(row) {
      await db.exec((c) => c.orm.insert(oauthGrants).values(row));
    },
    async grantById(id) {
      return db.query(async (c) => (await c.orm.select().from(oauthGrants).where(eq(oauthGrants.id, id)))[0]);
    },
    async revokeGrant(id, at, reason) {
      await db.exec((c) =>
        c.orm
          .update(oauthGrants)
          .set({ revokedAt: at, revokedReason: reason })
          .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt))),
      );
    },
    async revokeUserClient(userId, clientId, at, reason) {
      const r = await db.exec((c) =>
        c.orm
          .update(oauthGrants)
          .set({ revokedAt: at, revokedReason: reason })
          .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.clientId, clientId), isNull(oauthGrants.revokedAt)))
          .returning({ id: oauthGrants.id }),
      );
      return r.length;
    },
    async revokeUserGrants(userId, at, reason) {
      return db.tx(async () => {
        await db.exec((c) =>
          c.orm.delete(oauthCodes).where(and(eq(oauthCodes.userId, userId), isNull(oauthCodes.usedAt))),
        );
        const r = await db.exec((c) =>
          c.orm
            .update(oauthGrants)
            .set({ revokedAt: at, revokedReason: reason })
            .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
            .returning({ id: oauthGrants.id }),
        );
        return r.length;
      });
    },
    async touchGrant(id, at) {
      await db.exec((c) => c.orm.update(oauthGrants).set({ lastUsedAt: at }).where(eq(oauthGrants.id, id)));
    },
    async connectedApps(userId) {
      return db.query((c) =>
        c.orm
          .select({
            client: oauthClients,
            firstAuthorizedAt: sql<string>`min(${oauthGrants.createdAt})`,
            lastUsedAt: sql<string | null>`max(${oauthGrants.lastUsedAt})`,
          })
          .from(oauthGrants)
          .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
          .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
          .groupBy(oauthClients.id)
          .orderBy(desc(sql`max(coalesce(${oauthGrants.lastUsedAt}, ${oauthGrants.createdAt}))`)),
      );
    },

    async insertTokens(rows) {
      await db.exec((c) => c.orm.insert(oauthTokens).values(rows));
    },
    async tokenByHash(hash) {
      const rows = await db.query((c) =>
        c.orm
          .select({ token: oauthTokens, grant: oauthGrants })
          .from(oauthTokens)
          .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
          .where(eq(oauthTokens.tokenHash, hash)),
      );
      return rows[0];
    },
    async rotateToken(hash, at) {
      const r = await db.exec((c) =>
        c.orm
          .update(oauthTokens)
          .set({ rotatedAt: at })
          .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.rotatedAt), isNull(oauthTokens.revokedAt)))
          .returning({ h: oauthTokens.tokenHash }),
      );
      return r.length > 0;
    },
    async revokeToken(hash, at) {
      await db.exec((c) =>
        c.orm
          .update(oauthTokens)
          .set({ revokedAt: at })
          .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.revokedAt))),
      );
    },
    async deleteExpiredTokens(grantId, now) {
      await db.exec((c) =>
        c.orm.delete(oauthTokens).where(and(eq(oauthTokens.grantId, grantId), lt(oauthTokens.expiresAt, now))),
      );
    },
  };
}

// SQL for OAuth clients, grants, codes and tokens. Lookups by secret take its SHA-256 hash.
import { and, desc, eq, isNull, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import {
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthTokens,
  type OAuthClientRow,
  type OAuthCodeRow,
  type OAuthGrantRow,
  type OAuthTokenRow,
} from "../../db/schema/index.ts";
import { createOAuthPgRepo } from "./pg-repo.ts";

export interface TokenWithGrant {
  token: OAuthTokenRow;
  grant: OAuthGrantRow;
}

export interface ConnectedAppRow {
  client: OAuthClientRow;
  firstAuthorizedAt: string;
  lastUsedAt: string | null;
}

export function createOAuthRepo(db: Db): OAuthRepo {
  return db.pg ? createOAuthPgRepo(db.pg) : createOAuthSqliteRepo(db);
}

function createOAuthSqliteRepo(db: Db) {
  return {
    async insertClient(row: OAuthClientRow): Promise<void> {
      await db.exec((c) => c.orm.insert(oauthClients).values(row).run());
    },
    async clientById(id: string): Promise<OAuthClientRow | undefined> {
      return db.query((c) => c.orm.select().from(oauthClients).where(eq(oauthClients.id, id)).get());
    },
    /** Registered clients nobody ever authorised, older than `before`: registration is open, so they are swept. */
    async deleteUnusedClients(before: string): Promise<number> {
      return db.exec(({ orm }) => {
        const unused = and(
          lt(oauthClients.createdAt, before),
          notExists(orm.select({ one: sql`1` }).from(oauthGrants).where(eq(oauthGrants.clientId, oauthClients.id))),
          notExists(orm.select({ one: sql`1` }).from(oauthCodes).where(eq(oauthCodes.clientId, oauthClients.id))),
        );
        return orm.delete(oauthClients).where(unused).returning({ id: oauthClients.id }).all().length;
      });
    },

    async insertCode(row: OAuthCodeRow): Promise<void> {
      await db.exec((c) => c.orm.insert(oauthCodes).values(row).run());
    },
    async codeByHash(hash: string): Promise<OAuthCodeRow | undefined> {
      return db.query((c) => c.orm.select().from(oauthCodes).where(eq(oauthCodes.codeHash, hash)).get());
    },
    /** Marks the code used; false when it already was (only one redemption can win). */
    async useCode(hash: string, at: string, grantId: string): Promise<boolean> {
      const r = await db.exec((c) =>
        c.orm
          .update(oauthCodes)
          .set({ usedAt: at, grantId })
          .where(and(eq(oauthCodes.codeHash, hash), isNull(oauthCodes.usedAt)))
          .returning({ h: oauthCodes.codeHash })
          .all(),
      );
      return r.length > 0;
    },
    async deleteExpiredCodes(now: string): Promise<void> {
      await db.exec((c) => c.orm.delete(oauthCodes).where(lt(oauthCodes.expiresAt, now)).run());
    },

    async insertGrant(row: OAuthGrantRow): Promise<void> {
      await db.exec((c) => c.orm.insert(oauthGrants).values(row).run());
    },
    async grantById(id: string): Promise<OAuthGrantRow | undefined> {
      return db.query((c) => c.orm.select().from(oauthGrants).where(eq(oauthGrants.id, id)).get());
    },
    async revokeGrant(id: string, at: string, reason: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .update(oauthGrants)
          .set({ revokedAt: at, revokedReason: reason })
          .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)))
          .run(),
      );
    },
    /** Revokes every live grant of one user for one client; returns how many. */
    async revokeUserClient(userId: string, clientId: string, at: string, reason: string): Promise<number> {
      return db.exec(
        (c) =>
          c.orm
            .update(oauthGrants)
            .set({ revokedAt: at, revokedReason: reason })
            .where(
              and(eq(oauthGrants.userId, userId), eq(oauthGrants.clientId, clientId), isNull(oauthGrants.revokedAt)),
            )
            .returning({ id: oauthGrants.id })
            .all().length,
      );
    },
    /**
     * Ends everything OAuth has given the user: every live grant (its access and refresh tokens stop
     * with it) and every code not yet exchanged. Returns how many grants.
     */
    async revokeUserGrants(userId: string, at: string, reason: string): Promise<number> {
      return db.exec((c) => {
        c.orm
          .delete(oauthCodes)
          .where(and(eq(oauthCodes.userId, userId), isNull(oauthCodes.usedAt)))
          .run();
        return c.orm
          .update(oauthGrants)
          .set({ revokedAt: at, revokedReason: reason })
          .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
          .returning({ id: oauthGrants.id })
          .all().length;
      });
    },
    async touchGrant(id: string, at: string): Promise<void> {
      await db.exec((c) => c.orm.update(oauthGrants).set({ lastUsedAt: at }).where(eq(oauthGrants.id, id)).run());
    },
    /** Clients with a live grant of this user, most recently used first. */
    async connectedApps(userId: string): Promise<ConnectedAppRow[]> {
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
          .orderBy(desc(sql`max(coalesce(${oauthGrants.lastUsedAt}, ${oauthGrants.createdAt}))`))
          .all(),
      );
    },

    async insertTokens(rows: OAuthTokenRow[]): Promise<void> {
      await db.exec((c) => c.orm.insert(oauthTokens).values(rows).run());
    },
    /** The token and its grant, whatever their state: the caller decides what counts as valid. */
    async tokenByHash(hash: string): Promise<TokenWithGrant | undefined> {
      return db.query((c) =>
        c.orm
          .select({ token: oauthTokens, grant: oauthGrants })
          .from(oauthTokens)
          .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
          .where(eq(oauthTokens.tokenHash, hash))
          .get(),
      );
    },
    /** Marks a refresh token exchanged; false when it already was. */
    async rotateToken(hash: string, at: string): Promise<boolean> {
      const r = await db.exec((c) =>
        c.orm
          .update(oauthTokens)
          .set({ rotatedAt: at })
          .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.rotatedAt), isNull(oauthTokens.revokedAt)))
          .returning({ h: oauthTokens.tokenHash })
          .all(),
      );
      return r.length > 0;
    },
    async revokeToken(hash: string, at: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .update(oauthTokens)
          .set({ revokedAt: at })
          .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.revokedAt)))
          .run(),
      );
    },
    /** Expired tokens of a grant can no longer be used or reused: drop them to keep the table small. */
    async deleteExpiredTokens(grantId: string, now: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(oauthTokens)
          .where(and(eq(oauthTokens.grantId, grantId), lt(oauthTokens.expiresAt, now)))
          .run(),
      );
    },
  };
}
export type OAuthRepo = ReturnType<typeof createOAuthSqliteRepo>;

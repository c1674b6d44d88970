// SQL for OAuth clients, grants, codes and tokens. Lookups by secret take its SHA-256 hash.
// Written once for both engines (src/db/shared.ts).
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

export interface TokenWithGrant {
  token: OAuthTokenRow;
  grant: OAuthGrantRow;
}

export interface ConnectedAppRow {
  client: OAuthClientRow;
  firstAuthorizedAt: string;
  lastUsedAt: string | null;
}

/** What OAuth needs of its clients, codes, grants and tokens, in its own words. */
export interface OAuthRepo {
  insertClient(row: OAuthClientRow): Promise<void>;
  clientById(id: string): Promise<OAuthClientRow | undefined>;
  /** Registered clients nobody ever authorised, older than `before`: registration is open, so they are swept. */
  deleteUnusedClients(before: string): Promise<number>;

  insertCode(row: OAuthCodeRow): Promise<void>;
  codeByHash(hash: string): Promise<OAuthCodeRow | undefined>;
  /** Marks the code used; false when it already was (only one redemption can win). */
  useCode(hash: string, at: string, grantId: string): Promise<boolean>;
  deleteExpiredCodes(now: string): Promise<void>;

  insertGrant(row: OAuthGrantRow): Promise<void>;
  grantById(id: string): Promise<OAuthGrantRow | undefined>;
  /** Revokes one grant unless it already is (the first reason stays). */
  revokeGrant(id: string, at: string, reason: string): Promise<void>;
  /** Revokes every live grant of one user for one client; returns how many. */
  revokeUserClient(userId: string, clientId: string, at: string, reason: string): Promise<number>;
  /**
   * Ends everything OAuth has given the user: every live grant (its access and refresh tokens stop
   * with it) and every code not yet exchanged. Returns how many grants.
   */
  revokeUserGrants(userId: string, at: string, reason: string): Promise<number>;
  touchGrant(id: string, at: string): Promise<void>;
  /** Clients with a live grant of this user, most recently used first. */
  connectedApps(userId: string): Promise<ConnectedAppRow[]>;

  insertTokens(rows: OAuthTokenRow[]): Promise<void>;
  /** The token and its grant, whatever their state: the caller decides what counts as valid. */
  tokenByHash(hash: string): Promise<TokenWithGrant | undefined>;
  /** Marks a refresh token exchanged; false when it already was. */
  rotateToken(hash: string, at: string): Promise<boolean>;
  revokeToken(hash: string, at: string): Promise<void>;
  /** Expired tokens of a grant can no longer be used or reused: drop them to keep the table small. */
  deleteExpiredTokens(grantId: string, now: string): Promise<void>;
}

export function createOAuthRepo(db: Db): OAuthRepo {
  const orm = db.shared;
  // Asked on every request with an OAuth access token: built once.
  const tokenByHash = orm
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.tokenHash, sql.placeholder("hash")))
    .prepare();
  return {
    async insertClient(row) {
      await orm.insert(oauthClients).values(row);
    },
    clientById(id) {
      return orm.select().from(oauthClients).where(eq(oauthClients.id, id)).get();
    },
    async deleteUnusedClients(before) {
      const unused = and(
        lt(oauthClients.createdAt, before),
        notExists(orm.select({ one: sql`1` }).from(oauthGrants).where(eq(oauthGrants.clientId, oauthClients.id))),
        notExists(orm.select({ one: sql`1` }).from(oauthCodes).where(eq(oauthCodes.clientId, oauthClients.id))),
      );
      return (await orm.delete(oauthClients).where(unused).returning({ id: oauthClients.id })).length;
    },

    async insertCode(row) {
      await orm.insert(oauthCodes).values(row);
    },
    codeByHash(hash) {
      return orm.select().from(oauthCodes).where(eq(oauthCodes.codeHash, hash)).get();
    },
    async useCode(hash, at, grantId) {
      // One conditional UPDATE: of two redemptions racing (on two processes with PostgreSQL), one wins.
      const r = await orm
        .update(oauthCodes)
        .set({ usedAt: at, grantId })
        .where(and(eq(oauthCodes.codeHash, hash), isNull(oauthCodes.usedAt)))
        .returning({ h: oauthCodes.codeHash });
      return r.length > 0;
    },
    async deleteExpiredCodes(now) {
      await orm.delete(oauthCodes).where(lt(oauthCodes.expiresAt, now));
    },

    async insertGrant(row) {
      await orm.insert(oauthGrants).values(row);
    },
    grantById(id) {
      return orm.select().from(oauthGrants).where(eq(oauthGrants.id, id)).get();
    },
    async revokeGrant(id, at, reason) {
      await orm
        .update(oauthGrants)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.revokedAt)));
    },
    async revokeUserClient(userId, clientId, at, reason) {
      const r = await orm
        .update(oauthGrants)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.clientId, clientId), isNull(oauthGrants.revokedAt)))
        .returning({ id: oauthGrants.id });
      return r.length;
    },
    revokeUserGrants(userId, at, reason) {
      // Both statements or neither (within the caller's transaction when there is one).
      return db.tx(async () => {
        await orm.delete(oauthCodes).where(and(eq(oauthCodes.userId, userId), isNull(oauthCodes.usedAt)));
        const r = await orm
          .update(oauthGrants)
          .set({ revokedAt: at, revokedReason: reason })
          .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
          .returning({ id: oauthGrants.id });
        return r.length;
      });
    },
    async touchGrant(id, at) {
      await orm.update(oauthGrants).set({ lastUsedAt: at }).where(eq(oauthGrants.id, id));
    },
    connectedApps(userId) {
      return orm
        .select({
          client: oauthClients,
          firstAuthorizedAt: sql<string>`min(${oauthGrants.createdAt})`,
          lastUsedAt: sql<string | null>`max(${oauthGrants.lastUsedAt})`,
        })
        .from(oauthGrants)
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
        .groupBy(oauthClients.id)
        .orderBy(desc(sql`max(coalesce(${oauthGrants.lastUsedAt}, ${oauthGrants.createdAt}))`));
    },

    async insertTokens(rows) {
      await orm.insert(oauthTokens).values(rows);
    },
    tokenByHash(hash) {
      return tokenByHash.get({ hash });
    },
    async rotateToken(hash, at) {
      const r = await orm
        .update(oauthTokens)
        .set({ rotatedAt: at })
        .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.rotatedAt), isNull(oauthTokens.revokedAt)))
        .returning({ h: oauthTokens.tokenHash });
      return r.length > 0;
    },
    async revokeToken(hash, at) {
      await orm
        .update(oauthTokens)
        .set({ revokedAt: at })
        .where(and(eq(oauthTokens.tokenHash, hash), isNull(oauthTokens.revokedAt)));
    },
    async deleteExpiredTokens(grantId, now) {
      await orm.delete(oauthTokens).where(and(eq(oauthTokens.grantId, grantId), lt(oauthTokens.expiresAt, now)));
    },
  };
}

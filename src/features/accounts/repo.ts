// SQL for users and web sessions.
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { sessions, users, type SessionRow, type UserRow } from "../../db/schema/index.ts";
import { createAccountsPgRepo } from "./pg-repo.ts";

// Prepared SQL (bun caches it per connection): building a drizzle query per call costs 10–40× the
// lookup itself, and this one runs on every authenticated request.
const USER_BY_ID =
  "SELECT id, email, name, password_hash AS passwordHash, plan_id AS planId, created_at AS createdAt, updated_at AS updatedAt FROM users WHERE id = ?";

export function createAccountsRepo(db: Db): AccountsRepo {
  return db.pg ? createAccountsPgRepo(db.pg) : createAccountsSqliteRepo(db);
}

function createAccountsSqliteRepo(db: Db) {
  return {
    /**
     * Inserts the user; with `onlyFirst`, only if there is no user yet (closed sign-up lets the first
     * account in). The count and the insert are one writer callback, so two first sign-ups cannot both pass.
     */
    async insertUser(row: UserRow, opts: { onlyFirst?: boolean } = {}): Promise<boolean> {
      return db.exec((c) => {
        if (opts.onlyFirst && c.orm.select({ n: sql<number>`count(*)` }).from(users).get()!.n > 0) return false;
        c.orm.insert(users).values(row).run();
        return true;
      });
    },
    async countUsers(): Promise<number> {
      return db.query((c) => c.orm.select({ n: sql<number>`count(*)` }).from(users).get()?.n ?? 0);
    },
    async userById(id: string): Promise<UserRow | undefined> {
      return db.query((c) => c.sqlite.query<UserRow, [string]>(USER_BY_ID).get(id) ?? undefined);
    },
    async userByEmail(email: string): Promise<UserRow | undefined> {
      return db.query((c) => c.orm.select().from(users).where(sql`${users.email} = ${email} COLLATE NOCASE`).get());
    },
    /** Every user's id and email, for normalising stored emails at start-up. */
    async listEmails(): Promise<{ id: string; email: string }[]> {
      return db.query((c) => c.orm.select({ id: users.id, email: users.email }).from(users).orderBy(users.id).all());
    },
    async setEmail(id: string, email: string, at: string): Promise<void> {
      await db.exec((c) => c.orm.update(users).set({ email, updatedAt: at }).where(eq(users.id, id)).run());
    },
    async setPlan(id: string, planId: string, at: string): Promise<void> {
      await db.exec((c) => c.orm.update(users).set({ planId, updatedAt: at }).where(eq(users.id, id)).run());
    },
    async setPassword(id: string, passwordHash: string, at: string): Promise<void> {
      await db.exec((c) => c.orm.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id)).run());
    },
    /** Ends every session of the user except `keepId`; returns how many ended. */
    async deleteOtherSessions(userId: string, keepId: string): Promise<number> {
      return db.exec(
        (c) =>
          c.orm
            .delete(sessions)
            .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
            .returning({ id: sessions.id })
            .all().length,
      );
    },
    /** Ends every session of the user; returns how many ended. */
    async deleteUserSessions(userId: string): Promise<number> {
      return db.exec(
        (c) => c.orm.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }).all().length,
      );
    },
    async insertSession(row: SessionRow): Promise<void> {
      await db.exec((c) => c.orm.insert(sessions).values(row).run());
    },
    async sessionByHash(hash: string, now: string): Promise<SessionRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(sessions)
          .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now)))
          .get(),
      );
    },
    async deleteSession(id: string): Promise<void> {
      await db.exec((c) => c.orm.delete(sessions).where(eq(sessions.id, id)).run());
    },
    async deleteExpiredSessions(now: string): Promise<void> {
      await db.exec((c) => c.orm.delete(sessions).where(lt(sessions.expiresAt, now)).run());
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsSqliteRepo>;

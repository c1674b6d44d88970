// SQL for users and web sessions, written once for both engines (src/db/shared.ts).
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { sessions, users, type SessionRow, type UserRow } from "../../db/schema/index.ts";
import { AppError } from "../../errors.ts";

/** What accounts need of the users and sessions tables, in their own words. */
export interface AccountsRepo {
  /**
   * Inserts the user; with `onlyFirst`, only if there is no user yet (closed sign-up lets the first
   * account in): false when another account exists. A taken email (any case) is a conflict.
   */
  insertUser(row: typeof users.$inferInsert, opts?: { onlyFirst?: boolean }): Promise<boolean>;
  countUsers(): Promise<number>;
  /** Asked on every authenticated request. */
  userById(id: string): Promise<UserRow | undefined>;
  /** The user with this email, compared case-insensitively. */
  userByEmail(email: string): Promise<UserRow | undefined>;
  /** Every user's id and email, for normalising stored emails at start-up. */
  listEmails(): Promise<{ id: string; email: string }[]>;
  setEmail(id: string, email: string, at: string): Promise<void>;
  setPlan(id: string, planId: string, at: string): Promise<void>;
  setPreferences(id: string, json: string, at: string): Promise<void>;
  setPassword(id: string, passwordHash: string, at: string): Promise<void>;
  /** Ends every session of the user except `keepId`; returns how many ended. */
  deleteOtherSessions(userId: string, keepId: string): Promise<number>;
  /** Ends every session of the user; returns how many ended. */
  deleteUserSessions(userId: string): Promise<number>;
  insertSession(row: SessionRow): Promise<void>;
  /** The session with this token hash, if it has not expired by `now`. */
  sessionByHash(hash: string, now: string): Promise<SessionRow | undefined>;
  deleteSession(id: string): Promise<void>;
  deleteExpiredSessions(now: string): Promise<void>;
}

export function createAccountsRepo(db: Db): AccountsRepo {
  const orm = db.shared;
  // Runs on every authenticated request: built once, not per call.
  const userById = orm
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare();
  return {
    async insertUser(row, opts = {}) {
      // The check and the insert are one transaction: SQLite's writer runs it alone; on PostgreSQL
      // (SERIALIZABLE) of two first sign-ups one is retried and then sees the other's account.
      const inserted = await db.tx(async () => {
        if (opts.onlyFirst && (await orm.select({ one: sql`1` }).from(users).limit(1).get())) return null;
        return orm.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
      });
      if (inserted === null) return false;
      if (inserted.length === 0) throw new AppError("conflict", "An account with this email already exists");
      return true;
    },
    async countUsers() {
      return Number((await orm.select({ n: sql<number>`count(*)` }).from(users).get())?.n ?? 0);
    },
    userById(id) {
      return userById.get({ id });
    },
    userByEmail(email) {
      // lower() on both sides: the same as SQLite's COLLATE NOCASE (ASCII folding there), and on
      // PostgreSQL the unique index users_email_lower serves it.
      return orm.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).get();
    },
    listEmails() {
      return orm.select({ id: users.id, email: users.email }).from(users).orderBy(users.id);
    },
    async setEmail(id, email, at) {
      await orm.update(users).set({ email, updatedAt: at }).where(eq(users.id, id));
    },
    async setPreferences(id, json, at) {
      await orm.update(users).set({ preferences: json, updatedAt: at }).where(eq(users.id, id));
    },
    async setPlan(id, planId, at) {
      await orm.update(users).set({ planId, updatedAt: at }).where(eq(users.id, id));
    },
    async setPassword(id, passwordHash, at) {
      await orm.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id));
    },
    async deleteOtherSessions(userId, keepId) {
      const r = await orm
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
        .returning({ id: sessions.id });
      return r.length;
    },
    async deleteUserSessions(userId) {
      const r = await orm.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
      return r.length;
    },
    async insertSession(row) {
      await orm.insert(sessions).values(row);
    },
    sessionByHash(hash, now) {
      return orm
        .select()
        .from(sessions)
        .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now)))
        .get();
    },
    async deleteSession(id) {
      await orm.delete(sessions).where(eq(sessions.id, id));
    },
    async deleteExpiredSessions(now) {
      await orm.delete(sessions).where(lt(sessions.expiresAt, now));
    },
  };
}

// SQL for users and web sessions.
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { Orm } from "../../db/client.ts";
import { sessions, users, type SessionRow, type UserRow } from "../../db/schema/index.ts";

export function createAccountsRepo(orm: Orm) {
  // Prepared once: building and preparing a drizzle query per call costs 10–40× the lookup itself,
  // and this one runs on every authenticated request.
  const userByIdStmt = orm.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare();
  return {
    insertUser(row: UserRow): void {
      orm.insert(users).values(row).run();
    },
    countUsers(): number {
      return orm.select({ n: sql<number>`count(*)` }).from(users).get()?.n ?? 0;
    },
    userById(id: string): UserRow | undefined {
      return userByIdStmt.get({ id });
    },
    userByEmail(email: string): UserRow | undefined {
      return orm.select().from(users).where(sql`${users.email} = ${email} COLLATE NOCASE`).get();
    },
    setPlan(id: string, planId: string, at: string): void {
      orm.update(users).set({ planId, updatedAt: at }).where(eq(users.id, id)).run();
    },
    setPassword(id: string, passwordHash: string, at: string): void {
      orm.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id)).run();
    },
    /** Ends every session of the user except `keepId`; returns how many ended. */
    deleteOtherSessions(userId: string, keepId: string): number {
      return orm.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId))).returning({ id: sessions.id }).all().length;
    },
    insertSession(row: SessionRow): void {
      orm.insert(sessions).values(row).run();
    },
    sessionByHash(hash: string, now: string): SessionRow | undefined {
      return orm.select().from(sessions).where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now))).get();
    },
    deleteSession(id: string): void {
      orm.delete(sessions).where(eq(sessions.id, id)).run();
    },
    deleteExpiredSessions(now: string): void {
      orm.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    },
  };
}
export type AccountsRepo = ReturnType<typeof createAccountsRepo>;

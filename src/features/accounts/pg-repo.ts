// SQL for users and web sessions on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { sessions, users } from "../../db/pg/schema/index.ts";
import { AppError } from "../../errors.ts";
import type { AccountsRepo } from "./repo.ts";

export function createAccountsPgRepo(db: PgDb): AccountsRepo {
  return {
    /**
     * With `onlyFirst` the count and the insert are one SERIALIZABLE transaction: of two first sign-ups one
     * is retried and then sees the other's account. A taken email (any case) is a conflict, never a 500.
     */
    async insertUser(row, opts = {}) {
      const inserted = await db.tx(async () => {
        if (opts.onlyFirst) {
          const [first] = await db.query((c) => c.sql`SELECT 1 FROM users LIMIT 1`);
          if (first) return null;
        }
        return db.exec((c) => c.orm.insert(users).values(row).onConflictDoNothing().returning({ id: users.id }));
      });
      if (inserted === null) return false;
      if (inserted.length === 0) throw new AppError("conflict", "An account with this email already exists");
      return true;
    },
    async countUsers() {
      return db.query(async (c) => (await c.sql<{ n: number }[]>`SELECT count(*) AS n FROM users`)[0]?.n ?? 0);
    },
    async userById(id) {
      return db.query(async (c) => (await c.orm.select().from(users).where(eq(users.id, id)))[0]);
    },
    async userByEmail(email) {
      // lower() on both sides: the unique index users_email_lower serves it, as COLLATE NOCASE did on SQLite.
      return db.query(
        async (c) => (await c.orm.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0],
      );
    },
    async listEmails() {
      return db.query((c) => c.orm.select({ id: users.id, email: users.email }).from(users).orderBy(users.id));
    },
    async setEmail(id, email, at) {
      await db.exec((c) => c.orm.update(users).set({ email, updatedAt: at }).where(eq(users.id, id)));
    },
    async setPlan(id, planId, at) {
      await db.exec((c) => c.orm.update(users).set({ planId, updatedAt: at }).where(eq(users.id, id)));
    },
    async setPassword(id, passwordHash, at) {
      await db.exec((c) => c.orm.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id)));
    },
    async deleteOtherSessions(userId, keepId) {
      const r = await db.exec((c) =>
        c.orm
          .delete(sessions)
          .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
          .returning({ id: sessions.id }),
      );
      return r.length;
    },
    async deleteUserSessions(userId) {
      const r = await db.exec((c) =>
        c.orm.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }),
      );
      return r.length;
    },
    async insertSession(row) {
      await db.exec((c) => c.orm.insert(sessions).values(row));
    },
    async sessionByHash(hash, now) {
      return db.query(
        async (c) =>
          (
            await c.orm
              .select()
              .from(sessions)
              .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now)))
          )[0],
      );
    },
    async deleteSession(id) {
      await db.exec((c) => c.orm.delete(sessions).where(eq(sessions.id, id)));
    },
    async deleteExpiredSessions(now) {
      await db.exec((c) => c.orm.delete(sessions).where(lt(sessions.expiresAt, now)));
    },
  };
}

// SQL for the credits ledger.
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Orm } from "../../db/client.ts";
import { creditLedger } from "../../db/schema/index.ts";

export function createCreditsRepo(orm: Orm) {
  const used = orm
    .select({ used: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, sql.placeholder("userId")), gte(creditLedger.createdAt, sql.placeholder("from")), lt(creditLedger.createdAt, sql.placeholder("to"))))
    .prepare();
  return {
    usedBetween(userId: string, from: string, to: string): number {
      return used.get({ userId, from, to })?.used ?? 0;
    },
    /** The user's latest spends, newest first (the (user_id, created_at) index serves it). */
    recent(userId: string, limit: number) {
      return orm.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.createdAt), desc(creditLedger.id)).limit(limit).all();
    },
    insert(row: typeof creditLedger.$inferInsert): void {
      orm.insert(creditLedger).values(row).run();
    },
  };
}
export type CreditsRepo = ReturnType<typeof createCreditsRepo>;

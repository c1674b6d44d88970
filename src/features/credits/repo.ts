// SQL for the credits ledger, written once for both engines (src/db/shared.ts).
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { creditLedger } from "../../db/schema/index.ts";

type CreditLedgerRow = typeof creditLedger.$inferSelect;

export interface CreditsRepo {
  /** Credits the user spent in [from, to). */
  usedBetween(userId: string, from: string, to: string): Promise<number>;
  /** The user's latest spends, newest first (the (user_id, created_at) index serves it). */
  recent(userId: string, limit: number): Promise<CreditLedgerRow[]>;
  insert(row: typeof creditLedger.$inferInsert): Promise<void>;
}

export function createCreditsRepo(db: Db): CreditsRepo {
  const orm = db.shared;
  // Asked on every metered call: built once.
  const used = orm
    .select({ used: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.userId, sql.placeholder("userId")),
        gte(creditLedger.createdAt, sql.placeholder("from")),
        lt(creditLedger.createdAt, sql.placeholder("to")),
      ),
    )
    .prepare();
  return {
    async usedBetween(userId, from, to) {
      return Number((await used.get({ userId, from, to }))?.used ?? 0);
    },
    recent(userId, limit) {
      return orm
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.userId, userId))
        .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
        .limit(limit);
    },
    async insert(row) {
      await orm.insert(creditLedger).values(row);
    },
  };
}

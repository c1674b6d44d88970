// SQL for the credits ledger.
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { preparedOn } from "../../db/prepared.ts";
import { creditLedger } from "../../db/schema/index.ts";
import { createCreditsPgRepo } from "./pg-repo.ts";

const used = preparedOn((orm) =>
  orm
    .select({ used: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.userId, sql.placeholder("userId")),
        gte(creditLedger.createdAt, sql.placeholder("from")),
        lt(creditLedger.createdAt, sql.placeholder("to")),
      ),
    )
    .prepare(),
);

export function createCreditsRepo(db: Db): CreditsRepo {
  return db.pg ? createCreditsPgRepo(db.pg) : createCreditsSqliteRepo(db);
}

function createCreditsSqliteRepo(db: Db) {
  return {
    async usedBetween(userId: string, from: string, to: string): Promise<number> {
      return (await db.query((c) => used(c).get({ userId, from, to })))?.used ?? 0;
    },
    /** The user's latest spends, newest first (the (user_id, created_at) index serves it). */
    recent(userId: string, limit: number) {
      return db.query((c) =>
        c.orm
          .select()
          .from(creditLedger)
          .where(eq(creditLedger.userId, userId))
          .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
          .limit(limit)
          .all(),
      );
    },
    async insert(row: typeof creditLedger.$inferInsert): Promise<void> {
      await db.exec((c) => c.orm.insert(creditLedger).values(row).run());
    },
  };
}
export type CreditsRepo = ReturnType<typeof createCreditsSqliteRepo>;

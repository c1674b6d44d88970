// SQL for the credits ledger on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { creditLedger } from "../../db/pg/schema/index.ts";
import type { CreditsRepo } from "./repo.ts";

export function createCreditsPgRepo(db: PgDb): CreditsRepo {
  return {
    async usedBetween(userId, from, to) {
      const [row] = await db.query((c) =>
        c.orm
          .select({ used: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::integer` })
          .from(creditLedger)
          .where(
            and(eq(creditLedger.userId, userId), gte(creditLedger.createdAt, from), lt(creditLedger.createdAt, to)),
          ),
      );
      return row?.used ?? 0;
    },
    recent(userId, limit) {
      return db.query((c) =>
        c.orm
          .select()
          .from(creditLedger)
          .where(eq(creditLedger.userId, userId))
          .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
          .limit(limit),
      );
    },
    async insert(row) {
      await db.exec((c) => c.orm.insert(creditLedger).values(row));
    },
  };
}

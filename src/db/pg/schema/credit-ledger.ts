// credit_ledger (PostgreSQL twin): one row per credit spend.
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    ref: text("ref"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("credit_ledger_user_time").on(t.userId, t.createdAt)],
);

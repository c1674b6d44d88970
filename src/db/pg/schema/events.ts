// events (PostgreSQL twin): the internal events outbox, written in the same transaction as the change.
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { epochMs } from "./types.ts";

export const events = pgTable(
  "events",
  {
    // By default, not always: `db:copy` inserts the SQLite seq values as they are.
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    id: text("id").notNull().unique(),
    userId: text("user_id").notNull(),
    type: text("type").notNull(),
    occurredAt: text("occurred_at").notNull(),
    data: text("data").notNull(),
    previous: text("previous"),
    depth: integer("depth").notNull().default(0),
    dispatchedAt: epochMs("dispatched_at"),
    dispatchLeaseUntil: epochMs("dispatch_lease_until"),
  },
  (t) => [
    index("events_user").on(t.userId, t.seq),
    index("events_pending").on(t.seq).where(sql`${t.dispatchedAt} IS NULL`),
  ],
);

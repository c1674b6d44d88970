// events: the internal events outbox, written in the same transaction as the change.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const events = sqliteTable("events", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  id: text("id").notNull().unique(),
  userId: text("user_id").notNull(),
  type: text("type").notNull(),
  occurredAt: text("occurred_at").notNull(),
  data: text("data").notNull(),
  previous: text("previous"),
  depth: integer("depth").notNull().default(0),
  /** When the workflow dispatcher handled it (ms epoch); written at once for types that trigger nothing. */
  dispatchedAt: integer("dispatched_at"),
  /** A dispatcher's claim on a pending event (ms epoch); an expired one may be claimed again. */
  dispatchLeaseUntil: integer("dispatch_lease_until"),
});
export type EventRow = typeof events.$inferSelect;

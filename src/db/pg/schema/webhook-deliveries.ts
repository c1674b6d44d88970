// webhook_deliveries (PostgreSQL twin): accepted incoming webhooks, their dedupe key and runs.
import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { epochMs } from "./types.ts";
import { webhookTokens } from "./webhook-tokens.ts";

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    tokenId: text("token_id")
      .notNull()
      .references(() => webhookTokens.id, { onDelete: "cascade" }),
    dedupeKey: text("dedupe_key"),
    runIds: text("run_ids").notNull(),
    receivedAt: epochMs("received_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_dedupe").on(t.tokenId, t.dedupeKey).where(sql`${t.dedupeKey} IS NOT NULL`),
    index("webhook_deliveries_received").on(t.receivedAt),
  ],
);

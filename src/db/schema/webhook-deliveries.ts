// webhook_deliveries: accepted incoming webhooks, their dedupe key and the runs they started.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { webhookTokens } from "./webhook-tokens.ts";

export const webhookDeliveries = sqliteTable("webhook_deliveries", {
  id: text("id").primaryKey(),
  tokenId: text("token_id")
    .notNull()
    .references(() => webhookTokens.id, { onDelete: "cascade" }),
  dedupeKey: text("dedupe_key"),
  runIds: text("run_ids").notNull(),
  receivedAt: integer("received_at").notNull(),
});
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

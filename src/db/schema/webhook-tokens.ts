// webhook_tokens: the credentials of incoming workflow webhooks, stored as SHA-256 only.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const webhookTokens = sqliteTable("webhook_tokens", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  hint: text("hint").notNull(),
  createdAt: text("created_at").notNull(),
  regeneratedAt: text("regenerated_at"),
});
export type WebhookTokenRow = typeof webhookTokens.$inferSelect;

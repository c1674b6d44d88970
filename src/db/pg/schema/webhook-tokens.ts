// webhook_tokens (PostgreSQL twin): the credentials of incoming workflow webhooks, SHA-256 only.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const webhookTokens = pgTable(
  "webhook_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    hint: text("hint").notNull(),
    createdAt: text("created_at").notNull(),
    regeneratedAt: text("regenerated_at"),
  },
  (t) => [index("webhook_tokens_user").on(t.userId, t.id)],
);

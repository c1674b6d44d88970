// api_keys (PostgreSQL twin): personal keys; the SHA-256 of the whole key and a display hint.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    hint: text("hint").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("api_keys_user").on(t.userId, t.id)],
);

// api_keys: personal keys; the SHA-256 of the whole key and a display hint, never the key.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const apiKeys = sqliteTable("api_keys", {
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
});
export type ApiKeyRow = typeof apiKeys.$inferSelect;

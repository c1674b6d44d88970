// sessions: web sign-ins; only the SHA-256 of the cookie value is stored.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const sessions = sqliteTable("sessions", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  csrfToken: text("csrf_token").notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
});
export type SessionRow = typeof sessions.$inferSelect;

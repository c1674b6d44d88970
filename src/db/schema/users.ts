// users: one person, signed in with email + password (argon2id hash).
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  planId: text("plan_id").notNull().default("free"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  /** How the user reads (library view, reader typography), JSON; see features/accounts/preferences.ts. */
  preferences: text("preferences").notNull().default("{}"),
});
export type UserRow = typeof users.$inferSelect;

// users (PostgreSQL twin): email unique case-insensitively, as SQLite's COLLATE NOCASE made it.
import { sql } from "drizzle-orm";
import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    planId: text("plan_id").notNull().default("free"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  // PostgreSQL has no NOCASE collation on plain text: a unique index on lower(email) plays its part,
  // and lookups must compare lower(email) to use it.
  (t) => [uniqueIndex("users_email_lower").on(sql`lower(${t.email})`)],
);

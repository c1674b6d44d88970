// notebooks: named groups of sources and notes.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const notebooks = sqliteTable("notebooks", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  description: text("description"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
export type NotebookRow = typeof notebooks.$inferSelect;

// notes: Markdown written by the user, optionally in a notebook.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { notebooks } from "./notebooks.ts";
import { users } from "./users.ts";

export const notes = sqliteTable("notes", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  notebookId: text("notebook_id").references(() => notebooks.id, { onDelete: "set null" }),
  title: text("title"),
  content: text("content").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
export type NoteRow = typeof notes.$inferSelect;

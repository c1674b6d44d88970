// notes (PostgreSQL twin): Markdown written by the user, optionally in a notebook.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { notebooks } from "./notebooks.ts";
import { users } from "./users.ts";

export const notes = pgTable(
  "notes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notebookId: text("notebook_id").references(() => notebooks.id, { onDelete: "set null" }),
    title: text("title"),
    content: text("content").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("notes_user_id").on(t.userId, t.id), index("notes_notebook").on(t.notebookId)],
);

// notebooks (PostgreSQL twin): named groups of sources and notes.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const notebooks = pgTable(
  "notebooks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("notebooks_user_id").on(t.userId, t.id)],
);

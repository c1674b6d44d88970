// notebook_sources (PostgreSQL twin): which sources a notebook holds.
import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { notebooks } from "./notebooks.ts";
import { sources } from "./sources.ts";

export const notebookSources = pgTable(
  "notebook_sources",
  {
    notebookId: text("notebook_id")
      .notNull()
      .references(() => notebooks.id, { onDelete: "cascade" }),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    addedAt: text("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.notebookId, t.sourceId] }), index("notebook_sources_source").on(t.sourceId)],
);

// notebook_sources: which sources a notebook holds (a source may sit in many notebooks).
import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { notebooks } from "./notebooks.ts";
import { sources } from "./sources.ts";

export const notebookSources = sqliteTable(
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
  (t) => [primaryKey({ columns: [t.notebookId, t.sourceId] })],
);

// note_sources (PostgreSQL twin): the sources a note cites or is about.
import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { notes } from "./notes.ts";
import { sources } from "./sources.ts";

export const noteSources = pgTable(
  "note_sources",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.sourceId] }), index("note_sources_source").on(t.sourceId)],
);

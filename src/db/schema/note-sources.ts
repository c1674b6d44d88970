// note_sources: the sources a note cites or is about.
import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { notes } from "./notes.ts";
import { sources } from "./sources.ts";

export const noteSources = sqliteTable(
  "note_sources",
  {
    noteId: text("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.noteId, t.sourceId] })],
);

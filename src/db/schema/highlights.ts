// highlights: quoted passages of a source's article text, with a colour and an optional note.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sources } from "./sources.ts";
import { users } from "./users.ts";

export const HIGHLIGHT_COLORS = ["yellow", "green", "blue", "pink", "purple"] as const;
export type HighlightColor = (typeof HIGHLIGHT_COLORS)[number];

export const highlights = sqliteTable("highlights", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  sourceId: text("source_id")
    .notNull()
    .references(() => sources.id, { onDelete: "cascade" }),
  /** The quote as it stands in the article text (whitespace collapsed). */
  exact: text("exact").notNull(),
  prefix: text("prefix").notNull().default(""),
  suffix: text("suffix").notNull().default(""),
  /** Character offsets of the quote in the article text (articleText of the source's content). */
  startPos: integer("start_pos").notNull(),
  endPos: integer("end_pos").notNull(),
  color: text("color", { enum: HIGHLIGHT_COLORS }).notNull().default("yellow"),
  note: text("note"),
  /** The quote was not found in the article after a refetch: kept, flagged. */
  orphaned: integer("orphaned", { mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
export type HighlightRow = typeof highlights.$inferSelect;

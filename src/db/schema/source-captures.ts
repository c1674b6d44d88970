// source_captures: HTML a browser sent with a save, waiting for the ingestion job to extract it.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sources } from "./sources.ts";

export const sourceCaptures = sqliteTable("source_captures", {
  sourceId: text("source_id")
    .primaryKey()
    .references(() => sources.id, { onDelete: "cascade" }),
  html: text("html").notNull(),
  /** When it arrived: the job deletes only the capture it read, never a newer one. */
  createdAt: text("created_at").notNull(),
});
export type SourceCaptureRow = typeof sourceCaptures.$inferSelect;

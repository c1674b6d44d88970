// podcast_quick_sources: marks a source whose quick podcast was made, so a refetch makes no second one.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sources } from "./sources.ts";

export const podcastQuickSources = sqliteTable("podcast_quick_sources", {
  sourceId: text("source_id")
    .primaryKey()
    .references(() => sources.id, { onDelete: "cascade" }),
  podcastId: text("podcast_id").notNull(),
  createdAt: text("created_at").notNull(),
});

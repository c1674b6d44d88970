// podcast_quick_sources (PostgreSQL twin): one quick podcast per source, ever.
import { pgTable, text } from "drizzle-orm/pg-core";
import { sources } from "./sources.ts";

export const podcastQuickSources = pgTable("podcast_quick_sources", {
  sourceId: text("source_id")
    .primaryKey()
    .references(() => sources.id, { onDelete: "cascade" }),
  podcastId: text("podcast_id").notNull(),
  createdAt: text("created_at").notNull(),
});

// feed_entries (PostgreSQL twin): the identities of entries each watch has already seen.
import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { feedWatches } from "./feed-watches.ts";
import { sources } from "./sources.ts";

export const feedEntries = pgTable(
  "feed_entries",
  {
    watchId: text("watch_id")
      .notNull()
      .references(() => feedWatches.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    sourceId: text("source_id").references(() => sources.id, { onDelete: "set null" }),
    seenAt: text("seen_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.watchId, t.key] }),
    index("feed_entries_source").on(t.sourceId).where(sql`${t.sourceId} IS NOT NULL`),
  ],
);

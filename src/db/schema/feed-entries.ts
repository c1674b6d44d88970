// feed_entries: the identities (guid, link, hash, video id) of entries each watch has already seen.
import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { feedWatches } from "./feed-watches.ts";
import { sources } from "./sources.ts";

export const feedEntries = sqliteTable(
  "feed_entries",
  {
    watchId: text("watch_id")
      .notNull()
      .references(() => feedWatches.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    sourceId: text("source_id").references(() => sources.id, { onDelete: "set null" }),
    seenAt: text("seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.watchId, t.key] })],
);
export type FeedEntryRow = typeof feedEntries.$inferSelect;

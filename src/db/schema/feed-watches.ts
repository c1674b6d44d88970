// feed_watches: one per user and feed URL (made from the Feeds page, an OPML import or a watch_feed step),
// with its polling state (validators, failures, next poll).
import { integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";
import { workflows } from "./workflows.ts";

export const feedWatches = sqliteTable(
  "feed_watches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The workflow whose watch_feed made the watch and governs it; null: a subscription of its own. */
    workflowId: text("workflow_id").references(() => workflows.id, { onDelete: "cascade" }),
    feedUrl: text("feed_url").notNull(),
    fetchUrl: text("fetch_url"),
    title: text("title"),
    schedule: text("schedule").notNull(),
    notebookIds: text("notebook_ids").notNull().default("[]"),
    backfill: integer("backfill").notNull().default(0),
    depth: integer("depth").notNull().default(0),
    etag: text("etag"),
    lastModified: text("last_modified"),
    bodyHash: text("body_hash"),
    baselineAt: text("baseline_at"),
    lastPolledAt: text("last_polled_at"),
    lastSuccessAt: text("last_success_at"),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    nextPollAt: integer("next_poll_at").notNull(),
    entriesSeen: integer("entries_seen").notNull().default(0),
    sourcesCreated: integer("sources_created").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Paused from the Feeds page or the API: no scheduled polls, whoever owns the watch. */
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [unique("feed_watches_user_url").on(t.userId, t.feedUrl)],
);
export type FeedWatchRow = typeof feedWatches.$inferSelect;

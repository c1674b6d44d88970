// feed_watches (PostgreSQL twin): one per workflow and feed URL, with its polling state.
import { index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { epochMs } from "./types.ts";
import { users } from "./users.ts";
import { workflows } from "./workflows.ts";

export const feedWatches = pgTable(
  "feed_watches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
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
    nextPollAt: epochMs("next_poll_at").notNull(),
    entriesSeen: integer("entries_seen").notNull().default(0),
    sourcesCreated: integer("sources_created").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    unique("feed_watches_workflow_url").on(t.workflowId, t.feedUrl),
    index("feed_watches_user").on(t.userId, t.id),
    index("feed_watches_due").on(t.nextPollAt),
  ],
);

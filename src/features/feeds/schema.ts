// TypeBox shapes for feed watches: what watch_feed accepts and the public view of a watch and a poll.
import { t, type Static } from "elysia";
import { Cursor, Limit } from "../../http/pagination.ts";
import { Int, oneOf } from "../../http/schema.ts";

const NotebookId = t.String({ pattern: "^nb_[0-9A-Z]{26}$", description: "A notebook id (nb_…)" });

/** The input of a watch (after templates are rendered). */
export const FeedWatchInput = t.Object(
  {
    feed_url: t.String({
      minLength: 1,
      maxLength: 2048,
      description: "A feed, a page that advertises one, or a video channel URL",
    }),
    schedule: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 100,
        description: "Five-field cron; default every 30 minutes; polls are at least 5 minutes apart",
      }),
    ),
    notebook_ids: t.Optional(t.Array(NotebookId, { maxItems: 100, uniqueItems: true })),
    backfill: t.Optional(
      Int({
        minimum: 0,
        maximum: 1000,
        description: "How many of the newest entries the first poll imports (default 0)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type FeedWatchInput = Static<typeof FeedWatchInput>;

const Time = t.Union([t.String({ format: "date-time" }), t.Null()]);

export const FeedPublic = t.Object({
  id: t.String(),
  workflow_id: t.String(),
  feed_url: t.String(),
  fetch_url: t.Union([t.String(), t.Null()], {
    description: "The URL really polled (a channel's feed, a page's advertised feed)",
  }),
  title: t.Union([t.String(), t.Null()]),
  schedule: t.String(),
  notebook_ids: t.Array(t.String()),
  backfill: Int(),
  active: t.Boolean({ description: "False while its workflow is inactive: no scheduled polls" }),
  status: oneOf(["pending", "ok", "failing"], {
    description: "pending: never polled successfully; failing: the last poll failed",
  }),
  last_polled_at: Time,
  last_success_at: Time,
  last_status: t.Union([Int(), t.Null()], { description: "HTTP status of the last poll" }),
  last_error: t.Union([t.String(), t.Null()]),
  consecutive_failures: Int(),
  next_poll_at: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "null while inactive" }),
  entries_seen: Int(),
  sources_created: Int(),
  created_at: t.String(),
  updated_at: t.String(),
});
export type FeedPublic = Static<typeof FeedPublic>;

export const PollResultPublic = t.Object({
  status: oneOf(["updated", "not_modified", "failed"]),
  http_status: t.Union([Int(), t.Null()]),
  new_entries: Int(),
  sources: t.Array(t.String()),
  error: t.Union([t.String(), t.Null()]),
});

export const FeedPollResponse = t.Object({ feed: FeedPublic, poll: PollResultPublic });

export const FeedListQuery = t.Object(
  {
    limit: t.Optional(Limit()),
    cursor: t.Optional(Cursor),
    workflow_id: t.Optional(t.String({ maxLength: 100, description: "Only the watches of this workflow" })),
  },
  { additionalProperties: false },
);

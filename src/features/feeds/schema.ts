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

const Schedule = t.String({
  minLength: 1,
  maxLength: 100,
  description:
    "Five-field cron, e.g. `*/30 * * * *` (every 30 minutes, the default), `0 * * * *` (hourly), `0 */6 * * *`, `0 7 * * *` (daily); polls are at least 5 minutes apart",
});

/** POST /api/v1/feeds: subscribe to a feed, or to the feed a page advertises. */
export const FeedSubscribeInput = t.Object(
  {
    url: t.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'A feed, a web page that advertises one (`<link rel="alternate">`; Atom preferred when it offers several), a site whose feed is at a usual place (/feed, /rss.xml, …), or a video channel',
    }),
    schedule: t.Optional(Schedule),
    notebook_ids: t.Optional(
      t.Array(NotebookId, {
        maxItems: 100,
        uniqueItems: true,
        description: "Notebooks new entries' sources are added to",
      }),
    ),
    backfill: t.Optional(
      Int({
        minimum: 0,
        maximum: 1000,
        description: "How many of the newest entries the first poll saves (default 0)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type FeedSubscribeInput = Static<typeof FeedSubscribeInput>;

/** PATCH /api/v1/feeds/{id}. */
export const FeedUpdateInput = t.Object(
  {
    active: t.Optional(t.Boolean({ description: "false pauses the watch (no scheduled polls), true resumes it" })),
    schedule: t.Optional(Schedule),
    notebook_ids: t.Optional(t.Array(NotebookId, { maxItems: 100, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type FeedUpdateInput = Static<typeof FeedUpdateInput>;

export const FeedDiscoverInput = t.Object(
  { url: t.String({ minLength: 1, maxLength: 2048, description: "A feed, a web page or a site" }) },
  { additionalProperties: false },
);

export const FeedDiscovery = t.Object({
  url: t.String({ description: "The address asked, normalised" }),
  feeds: t.Array(
    t.Object({
      url: t.String(),
      title: t.Union([t.String(), t.Null()], { description: "The link's title, when the page gave one" }),
      kind: oneOf(["atom", "rss", "json", "rdf"]),
    }),
    { description: "Preferred first; empty when nothing was found" },
  ),
  tried: t.Array(t.Object({ url: t.String(), outcome: t.String() }), {
    description: "Each address asked and its answer",
  }),
});

export const FeedEntryPublic = t.Object({
  source_id: t.String(),
  title: t.Union([t.String(), t.Null()]),
  url: t.String(),
  source_status: t.String({ description: "The saved source's status (pending until fetched, then ready or failed)" }),
  seen_at: t.String({ format: "date-time", description: "When the poll that brought it in ran" }),
});
export type FeedEntryPublic = Static<typeof FeedEntryPublic>;

export const FeedEntriesQuery = t.Object(
  { limit: t.Optional(Limit()), cursor: t.Optional(Cursor) },
  { additionalProperties: false },
);

export const FeedPublic = t.Object({
  id: t.String(),
  workflow_id: t.Union([t.String(), t.Null()], {
    description: "The workflow whose watch_feed made and governs the watch; null for a subscription of its own",
  }),
  feed_url: t.String(),
  fetch_url: t.Union([t.String(), t.Null()], {
    description: "The URL really polled (a channel's feed, a page's advertised feed)",
  }),
  title: t.Union([t.String(), t.Null()]),
  schedule: t.String(),
  notebook_ids: t.Array(t.String()),
  backfill: Int(),
  active: t.Boolean({
    description: "Polled on schedule: not paused and, for a workflow's watch, its workflow active with its watch_feed",
  }),
  paused: t.Boolean({ description: "Paused from the Feeds page or PATCH (`active: false`)" }),
  status: oneOf(["pending", "ok", "failing"], {
    description: "pending: never polled successfully; failing: the last poll failed",
  }),
  last_polled_at: Time,
  last_success_at: Time,
  last_status: t.Union([Int(), t.Null()], { description: "HTTP status of the last poll" }),
  last_error: t.Union([t.String(), t.Null()]),
  consecutive_failures: Int(),
  next_poll_at: t.Union([t.String({ format: "date-time" }), t.Null()], {
    description: "null while not active; a poll is enqueued within a minute of this time",
  }),
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

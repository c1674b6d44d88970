// /api/v1/feeds: the caller's feed watches with their polling state: subscribe, pause and resume, the
// entries each brought in, "poll now" and unsubscribe.
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { listOf, withLink } from "../../http/pagination.ts";
import type { FeedsService } from "./service.ts";
import {
  FeedDiscoverInput,
  FeedDiscovery,
  FeedEntriesQuery,
  FeedEntryPublic,
  FeedListQuery,
  FeedPollResponse,
  FeedPublic,
  FeedSubscribeInput,
  FeedUpdateInput,
} from "./schema.ts";

const Params = t.Object({ id: t.String({ maxLength: 100 }) });

export function feedRoutes(s: { feeds: FeedsService }) {
  return (
    new Elysia({ prefix: "/feeds", tags: ["Feeds"] })
      // GET /api/v1/feeds
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor, workflow_id } = ctx.query;
          const page = await s.feeds.list(actorOf(ctx.request), { limit, cursor, workflowId: workflow_id });
          return withLink(page, limit, ctx);
        },
        {
          query: FeedListQuery,
          response: listOf(FeedPublic),
          detail: {
            operationId: "listFeeds",
            summary: "List feed subscriptions and watches",
            description:
              "Each watch with its schedule and polling state, whether subscribed to here or made by a workflow's `watch_feed`; `workflow_id` keeps one workflow's watches.",
          },
        },
      )
      // POST /api/v1/feeds
      .post(
        "/",
        async ({ request, body, set }) => {
          const { feed, created } = await s.feeds.subscribe(actorOf(request), body, request.signal);
          set.status = created ? 201 : 200;
          set.headers["location"] = `/api/v1/feeds/${feed.id}`;
          return feed;
        },
        {
          body: FeedSubscribeInput,
          response: { 200: FeedPublic, 201: FeedPublic },
          detail: {
            operationId: "subscribeFeed",
            summary: "Subscribe to a feed, or to the feed a web page advertises",
            description:
              '`url` may be a feed, a page advertising feeds with `<link rel="alternate" type="application/atom+xml|rss+xml|feed+json">` (Atom preferred when it offers several; `POST /api/v1/feeds/discover` lists them to choose from), a site whose feed is at a usual place (`/feed`, `/feed.xml`, `/rss.xml`, `/atom.xml`, `/index.xml`) or a video channel. A new subscription is 201 with status `pending`; its first poll runs at once in the background (a baseline: only the `backfill` newest entries are saved). A feed the caller already watches (by its address or the address it polls) is 200 with that watch, now a subscription of its own: resumed, given `schedule` if sent, and `notebook_ids` added. Nothing found is 422 on `url` listing every address tried.',
          },
        },
      )
      // POST /api/v1/feeds/discover
      .post("/discover", ({ request, body }) => s.feeds.discover(actorOf(request), body.url, request.signal), {
        body: FeedDiscoverInput,
        response: FeedDiscovery,
        detail: {
          operationId: "discoverFeeds",
          summary: "List the feeds an address leads to, to choose one",
          description:
            "Fetches the address (through the server's fetch rules, 2 MB and 15 s at most) and reports the feeds found, preferred first, and each address tried. Nothing is subscribed; an empty `feeds` means none was found.",
        },
      })
      // GET /api/v1/feeds/{id}
      .get("/:id", ({ request, params }) => s.feeds.get(actorOf(request), params.id), {
        params: Params,
        response: FeedPublic,
        detail: {
          operationId: "getFeed",
          summary: "Get a feed watch and its polling state",
          description:
            "One watch with its last status and error, consecutive failures, entries seen and next poll time.",
        },
      })
      // PATCH /api/v1/feeds/{id}
      .patch("/:id", ({ request, params, body }) => s.feeds.update(actorOf(request), params.id, body), {
        params: Params,
        body: FeedUpdateInput,
        response: FeedPublic,
        detail: {
          operationId: "updateFeed",
          summary: "Pause or resume a feed, change its schedule or notebooks",
          description:
            '`active: false` pauses scheduled polls ("poll now" still works), `active: true` resumes them (a watch due meanwhile is polled within a minute). A new `schedule` takes effect from its next slot. A workflow\'s `watch_feed` sets the schedule and notebooks of the watches it governs each time it runs; a pause stays.',
        },
      })
      // GET /api/v1/feeds/{id}/entries
      .get(
        "/:id/entries",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          const page = await s.feeds.entries(actorOf(ctx.request), ctx.params.id, { limit, cursor });
          return withLink(page, limit, ctx);
        },
        {
          params: Params,
          query: FeedEntriesQuery,
          response: listOf(FeedEntryPublic),
          detail: {
            operationId: "listFeedEntries",
            summary: "List the sources a feed brought in",
            description:
              "The saved sources of the watch's entries, newest source first, with when the poll that brought each in ran. Entries recorded as the first poll's baseline, entries without a link and sources deleted since are not listed.",
          },
        },
      )
      // POST /api/v1/feeds/{id}/poll
      .post("/:id/poll", ({ request, params }) => s.feeds.pollNow(actorOf(request), params.id), {
        params: Params,
        response: FeedPollResponse,
        detail: {
          operationId: "pollFeed",
          summary: "Poll a feed now; new entries become sources",
          description: "Polls at once, outside the schedule, and reports what the poll found.",
        },
      })
      // DELETE /api/v1/feeds/{id}
      .delete("/:id", ({ request, params }) => s.feeds.remove(actorOf(request), params.id), {
        params: Params,
        response: FeedPublic,
        detail: {
          operationId: "deleteFeed",
          summary: "Unsubscribe: stop watching a feed",
          description:
            "Forgets the watch and the entries it has seen and returns it as it was; the sources it saved stay in the library. A workflow's `watch_feed` naming the feed makes a new watch when it runs again.",
        },
      })
  );
}

// /api/v1/feeds: the caller's feed watches with their polling state, and "poll now".
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { listOf, withLink } from "../../http/pagination.ts";
import type { FeedsService } from "./service.ts";
import { FeedListQuery, FeedPollResponse, FeedPublic } from "./schema.ts";

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
            summary: "List feed watches (made by watch_feed actions)",
            description: "Each watch with its schedule and polling state; `workflow_id` keeps one workflow's watches.",
          },
        },
      )
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
          summary: "Stop watching a feed (the workflow's watch_feed recreates it when it runs again)",
          description: "Forgets the watch and the entries it has seen; returns it as it was.",
        },
      })
  );
}

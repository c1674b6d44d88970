// /api/v1/podcasts: create episodes (202, generated in the background), read, list, delete, stream audio.
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { listOf, withLink } from "../../http/pagination.ts";
import type { PodcastsService } from "./service.ts";
import { audioResponse } from "./audio-response.ts";
import { PodcastCreate, PodcastListQuery, PodcastPublic } from "./schema.ts";

const Params = t.Object({ id: t.String({ description: "A podcast id (pod_…)" }) });

export function podcastRoutes(s: { podcasts: PodcastsService }) {
  return (
    new Elysia({ prefix: "/podcasts", tags: ["Podcasts"] })
      // GET /api/v1/podcasts
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor, status } = ctx.query;
          return withLink(await s.podcasts.list(actorOf(ctx.request), { limit, cursor, status }), limit, ctx);
        },
        {
          query: PodcastListQuery,
          response: listOf(PodcastPublic),
          detail: {
            operationId: "listPodcasts",
            summary: "List podcast episodes, newest first",
            description: "`status` keeps the episodes in one state (queued, generating, ready, failed).",
          },
        },
      )
      // POST /api/v1/podcasts
      .post(
        "/",
        async ({ request, body, set }) => {
          const podcast = await s.podcasts.create(actorOf(request), body);
          set.status = 202;
          set.headers["location"] = `/api/v1/podcasts/${podcast.id}`;
          return podcast;
        },
        {
          body: PodcastCreate,
          response: { 202: PodcastPublic },
          detail: {
            operationId: "createPodcast",
            summary: "Make an episode from sources or a notebook (202 queued; 402 when credits cannot cover it)",
            description:
              "Give `source_ids` or `notebook_id`, not both. The episode is queued and generated in the background (outline, script, speech, MP3); follow its `status`.",
          },
        },
      )
      // GET /api/v1/podcasts/{id}
      .get("/:id", ({ request, params }) => s.podcasts.get(actorOf(request), params.id), {
        params: Params,
        response: PodcastPublic,
        detail: {
          operationId: "getPodcast",
          summary: "Get an episode with its status and transcript",
          description: "`audio_url` is set once the episode is `ready`.",
        },
      })
      // DELETE /api/v1/podcasts/{id}
      .delete("/:id", ({ request, params }) => s.podcasts.delete(actorOf(request), params.id), {
        params: Params,
        response: PodcastPublic,
        detail: {
          operationId: "deletePodcast",
          summary: "Delete an episode and its audio file",
          description: "Returns the episode as it was before deletion.",
        },
      })
      // GET /api/v1/podcasts/{id}/audio
      .get(
        "/:id/audio",
        async ({ request, params }) => audioResponse(request, await s.podcasts.audioFile(actorOf(request), params.id)),
        {
          params: Params,
          detail: {
            operationId: "getPodcastAudio",
            summary: "The episode's MP3 (supports Range: 206 partial content, 416 for a range outside the file)",
            description:
              "`audio/mpeg` with an ETag; one `bytes=` range per request (206), `If-None-Match` (304) and `If-Range` are honoured. " +
              "409 until the episode is ready.",
            responses: {
              200: {
                description: "The whole file",
                content: { "audio/mpeg": { schema: { type: "string", format: "binary" } } },
              },
              206: {
                description: "One byte range",
                content: { "audio/mpeg": { schema: { type: "string", format: "binary" } } },
              },
              304: { description: "Not modified (If-None-Match matched the ETag)" },
              // Error bodies are problem+json; openapi-spec.ts adds the content to every 4xx/5xx.
              409: { description: "The episode is not ready" },
              416: { description: "The range does not fit the file; Content-Range gives the size" },
            },
          },
        },
      )
  );
}

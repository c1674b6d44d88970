// /api/v1/podcasts: create episodes (202, generated in the background), read, list, delete, stream audio.
import { Elysia, t } from "elysia";
import { AppError } from "../../errors.ts";
import { actorOf } from "../../http/auth.ts";
import { decodeCursor, listOf, page } from "../../http/pagination.ts";
import type { Services } from "../../services.ts";
import { parseRange } from "./range.ts";
import { PodcastCreate, PodcastListQuery, PodcastPublic } from "./schema.ts";

const Params = t.Object({ id: t.String({ description: "A podcast id (pod_…)" }) });

function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The audio file, whole or one byte range, with the headers players rely on to seek. */
function audioResponse(request: Request, f: ReturnType<Services["podcasts"]["audioFile"]>): Response {
  const headers: Record<string, string> = {
    "content-type": "audio/mpeg",
    "accept-ranges": "bytes",
    etag: f.etag,
    "last-modified": f.lastModified.toUTCString(),
    "cache-control": "private, max-age=86400",
    "content-disposition": disposition(f.filename),
  };
  const ifRange = request.headers.get("if-range");
  // A Range under an If-Range that no longer matches means "the file changed: send all of it".
  const rangeHeader = ifRange !== null && ifRange !== f.etag ? null : request.headers.get("range");
  const range = parseRange(rangeHeader, f.size);
  if (range.kind === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", `The range "${rangeHeader}" does not fit a file of ${f.size} bytes`, {
      headers: { "content-range": `bytes */${f.size}`, "accept-ranges": "bytes" },
    });
  }
  if (range.kind === "full" && request.headers.get("if-none-match") === f.etag) return new Response(null, { status: 304, headers });
  const file = Bun.file(f.path);
  if (range.kind === "full") return new Response(file, { status: 200, headers: { ...headers, "content-length": String(f.size) } });
  const length = range.end - range.start + 1;
  return new Response(file.slice(range.start, range.end + 1), {
    status: 206,
    headers: { ...headers, "content-range": `bytes ${range.start}-${range.end}/${f.size}`, "content-length": String(length) },
  });
}

export function podcastRoutes(s: Services) {
  return new Elysia({ prefix: "/podcasts", tags: ["Podcasts"] })
    // GET /api/v1/podcasts
    .get(
      "/",
      (ctx) => {
        const limit = ctx.query.limit ?? 20;
        const rows = s.podcasts.list(actorOf(ctx.request), { limit: limit + 1, before: decodeCursor(ctx.query.cursor), status: ctx.query.status });
        return page(rows, limit, (r) => r, ctx);
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
      ({ request, body, set }) => {
        const podcast = s.podcasts.create(actorOf(request), body);
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
    .get("/:id/audio", ({ request, params }) => audioResponse(request, s.podcasts.audioFile(actorOf(request), params.id)), {
      params: Params,
      detail: {
        operationId: "getPodcastAudio",
        summary: "The episode's MP3 (supports Range: 206 partial content, 416 for a range outside the file)",
        description:
          "`audio/mpeg` with an ETag; one `bytes=` range per request (206), `If-None-Match` (304) and `If-Range` are honoured. " +
          "409 until the episode is ready.",
        responses: {
          200: { description: "The whole file", content: { "audio/mpeg": { schema: { type: "string", format: "binary" } } } },
          206: { description: "One byte range", content: { "audio/mpeg": { schema: { type: "string", format: "binary" } } } },
          304: { description: "Not modified (If-None-Match matched the ETag)" },
          // Error bodies are problem+json; openapi-spec.ts adds the content to every 4xx/5xx.
          409: { description: "The episode is not ready" },
          416: { description: "The range does not fit the file; Content-Range gives the size" },
        },
      },
    });
}

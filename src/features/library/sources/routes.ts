// /api/v1/sources: save links, read them back, check, update, delete, refetch.
import { Elysia, t } from "elysia";
import { actorOf } from "../../../http/auth.ts";
import { listOf, withLink } from "../../../http/pagination.ts";
import type { SourcesService } from "./service.ts";
import { mediaResponse } from "./media-response.ts";
import { sourceQuery } from "./list-query.ts";
import {
  SourceCheck,
  sourceCreateSchema,
  SourceGetQuery,
  SourceListQuery,
  SourcePublic,
  SourceUpdate,
} from "./schema.ts";

const Params = t.Object({ id: t.String({ description: "A source id (src_…)" }) });
const MediaParams = t.Object({
  id: t.String({ description: "A source id (src_…)" }),
  name: t.String({ description: "The image's name, as the source's Markdown refers to it", maxLength: 100 }),
});
const IMAGE_TYPES = ["image/webp", "image/jpeg", "image/png", "image/gif", "image/avif"];
const imageContent = Object.fromEntries(
  IMAGE_TYPES.map((type) => [type, { schema: { type: "string" as const, format: "binary" } }]),
);

export function sourceRoutes(s: { sources: SourcesService }, opts: { maxHtmlBytes: number }) {
  const SourceCreate = sourceCreateSchema(opts.maxHtmlBytes);
  return (
    new Elysia({ prefix: "/sources", tags: ["Sources"] })
      // GET /api/v1/sources
      .get(
        "/",
        async (ctx) => {
          const { query } = ctx;
          const limit = query.limit ?? 20;
          return withLink(await s.sources.list(actorOf(ctx.request), sourceQuery(query)), limit, ctx);
        },
        {
          query: SourceListQuery,
          response: listOf(SourcePublic),
          detail: {
            operationId: "listSources",
            summary: "List sources, newest first",
            description:
              "Filter by `notebook_id`, `status` (pending, ready, failed), `created_after` or `tag`; `sort=saved_at` orders by the original saved time (kept from imports) instead of creation; paged with `limit` and `cursor`.",
          },
        },
      )
      // POST /api/v1/sources
      .post(
        "/",
        async ({ request, body, set }) => {
          const { source, created } = await s.sources.create(actorOf(request), body);
          set.status = created ? 201 : 200;
          if (created) set.headers["location"] = `/api/v1/sources/${source.id}`;
          return source;
        },
        {
          body: SourceCreate,
          response: { 200: SourcePublic, 201: SourcePublic },
          detail: {
            operationId: "createSource",
            summary: "Save a link (201 new, pending until fetched; 200 when the URL is already saved)",
            description:
              "A new URL is answered at once with status `pending`; fetching, extraction and indexing happen in the background and end in `ready` or `failed`. A URL already saved (compared after normalisation) returns that source with 200, added to the given notebooks. With `html` (the page as the user's browser rendered it) the URL is not fetched: the article is extracted from that HTML and the source's `capture` is `browser`; sent for a URL already saved, it replaces the content (the source is `pending` again until extracted and re-indexed).",
          },
        },
      )
      // GET /api/v1/sources/check?url=
      .get("/check", ({ request, query }) => s.sources.check(actorOf(request), query.url), {
        query: t.Object({ url: t.String({ minLength: 1, maxLength: 2048 }) }),
        response: SourceCheck,
        detail: {
          operationId: "checkSource",
          summary: "Is this URL already saved?",
          description: "Normalises the URL the way saving does and says whether a source has it.",
        },
      })
      // GET /api/v1/sources/{id}
      .get(
        "/:id",
        async ({ request, params, query }) =>
          s.sources.publicOf(await s.sources.get(actorOf(request), params.id), query.include === "content"),
        {
          params: Params,
          query: SourceGetQuery,
          response: SourcePublic,
          detail: {
            operationId: "getSource",
            summary: "Get a source (?include=content for Markdown)",
            description: "The source's metadata and state; `?include=content` adds the extracted Markdown.",
          },
        },
      )
      // PATCH /api/v1/sources/{id}
      .patch("/:id", ({ request, params, body }) => s.sources.update(actorOf(request), params.id, body), {
        params: Params,
        body: SourceUpdate,
        response: SourcePublic,
        detail: {
          operationId: "updateSource",
          summary: "Update a source's title or quick-podcast settings",
          description: "Only the fields sent change; a `title` of null goes back to the extracted title.",
        },
      })
      // DELETE /api/v1/sources/{id}
      .delete("/:id", ({ request, params }) => s.sources.delete(actorOf(request), params.id), {
        params: Params,
        response: SourcePublic,
        detail: {
          operationId: "deleteSource",
          summary: "Delete a source (it leaves its notebooks and the search index)",
          description: "Returns the source as it was before deletion.",
        },
      })
      // GET /api/v1/sources/{id}/image
      .get(
        "/:id/image",
        async ({ request, params }) =>
          mediaResponse(request, await s.sources.thumbnail(actorOf(request), params.id), "revalidate"),
        {
          params: Params,
          detail: {
            operationId: "getSourceImage",
            summary: "The source's preview thumbnail (the card image)",
            description:
              "A WebP made at ingestion from the page's preview image (`og:image`, `twitter:image`) or its first large image; `image_url` links here when there is one, and it is 404 when there is none. " +
              "Cached privately for a day with an ETag (`If-None-Match` answers 304): fetching the source again may change it.",
            responses: {
              200: { description: "The thumbnail", content: imageContent },
              304: { description: "Not modified (If-None-Match matched the ETag)" },
              404: { description: "No such source, or it has no thumbnail" },
            },
          },
        },
      )
      // GET /api/v1/sources/{id}/media/{name}
      .get(
        "/:id/media/:name",
        async ({ request, params }) =>
          mediaResponse(request, await s.sources.mediaFile(actorOf(request), params.id, params.name), "immutable"),
        {
          params: MediaParams,
          detail: {
            operationId: "getSourceMedia",
            summary: "An image of the source's archived copy",
            description:
              "The source's Markdown refers to the images kept at ingestion by these addresses only (images that could not be kept were removed). " +
              "The name is a hash of the bytes, so the answer never changes: `cache-control: private, max-age=31536000, immutable`.",
            responses: {
              200: { description: "The image", content: imageContent },
              304: { description: "Not modified (If-None-Match matched the ETag)" },
              404: { description: "No such source or image" },
            },
          },
        },
      )
      // POST /api/v1/sources/{id}/refetch
      .post(
        "/:id/refetch",
        ({ request, params, set }) => {
          set.status = 202;
          return s.sources.refetch(actorOf(request), params.id);
        },
        {
          params: Params,
          response: { 202: SourcePublic },
          detail: {
            operationId: "refetchSource",
            summary: "Fetch and extract the source again",
            description:
              "The source goes back to `pending` and is fetched, extracted and indexed again in the background; 409 while it is already pending.",
          },
        },
      )
  );
}

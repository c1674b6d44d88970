// /api/v1/tags: the library's tags with their counts; rename (or merge into another) and delete.
import { Elysia, t } from "elysia";
import { actorOf } from "../../../http/auth.ts";
import { Int } from "../../../http/schema.ts";
import type { SourcesService } from "./service.ts";
import { Tag } from "./schema.ts";

const TagPublic = t.Object({
  name: t.String(),
  count: Int({ description: "How many sources carry it" }),
});
const Params = t.Object({ name: t.String({ minLength: 1, maxLength: 100, description: "The tag (URL-encoded)" }) });

export function tagRoutes(s: { sources: SourcesService }) {
  return (
    new Elysia({ prefix: "/tags", tags: ["Tags"] })
      // GET /api/v1/tags
      .get(
        "/",
        async ({ request, query }) => ({
          data: await s.sources.tagCounts(actorOf(request), query.q),
          next_cursor: null,
        }),
        {
          query: t.Object(
            {
              q: t.Optional(
                t.String({ minLength: 1, maxLength: 100, description: "Only tags containing this text (any case)" }),
              ),
            },
            { additionalProperties: false },
          ),
          response: t.Object({ data: t.Array(TagPublic), next_cursor: t.Null() }),
          detail: {
            operationId: "listTags",
            summary: "Tags with their counts",
            description:
              "Every tag on the caller's sources with how many carry it, most used first (then by name); `q` keeps the tags containing the text, for autocomplete. Not paged: the whole set comes at once.",
          },
        },
      )
      // PATCH /api/v1/tags/{name}
      .patch(
        "/:name",
        async ({ request, params, body }) => {
          const count = await s.sources.renameTag(actorOf(request), params.name, body.name);
          return { name: body.name.trim(), count };
        },
        {
          params: Params,
          body: t.Object({ name: Tag }, { additionalProperties: false }),
          response: TagPublic,
          detail: {
            operationId: "renameTag",
            summary: "Rename a tag, or merge it into another",
            description:
              "Renames the tag on every source carrying it. When the new name is already a tag, the two merge: each source carries it once. Answers with the new name and how many sources changed; each records `source.updated`.",
          },
        },
      )
      // DELETE /api/v1/tags/{name}
      .delete(
        "/:name",
        async ({ request, params }) => ({
          name: params.name,
          count: await s.sources.deleteTag(actorOf(request), params.name),
        }),
        {
          params: Params,
          response: TagPublic,
          detail: {
            operationId: "deleteTag",
            summary: "Take a tag off every source",
            description:
              "Removes the tag from every source carrying it; the sources stay. Answers with how many changed; 404 when no source carries it.",
          },
        },
      )
  );
}

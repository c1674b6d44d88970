// /api/v1/highlights: list, make (anchored in the source's article text), read, recolour or annotate,
// delete, and a CSV export in Readwise's layout.
import { Elysia, t } from "elysia";
import { actorOf } from "../../../http/auth.ts";
import { contentDisposition } from "../../../http/content-disposition.ts";
import { listOf, withLink } from "../../../http/pagination.ts";
import { csvStream } from "./csv.ts";
import {
  HighlightCreate,
  HighlightExportQuery,
  HighlightListQuery,
  HighlightPublic,
  HighlightUpdate,
} from "./schema.ts";
import { highlightQuery, type HighlightsService } from "./service.ts";

const Params = t.Object({ id: t.String() });

export function highlightRoutes(s: { highlights: HighlightsService }) {
  return (
    new Elysia({ prefix: "/highlights", tags: ["Highlights"] })
      // GET /api/v1/highlights
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor, ...filters } = ctx.query;
          const page = await s.highlights.list(actorOf(ctx.request), { limit, cursor, ...highlightQuery(filters) });
          return withLink(page, limit, ctx);
        },
        {
          query: HighlightListQuery,
          response: listOf(HighlightPublic),
          detail: {
            operationId: "listHighlights",
            summary: "List highlights",
            description:
              "The caller's highlights, newest first; filters by source, by notebook (its sources), by a source's tag and by creation time.",
          },
        },
      )
      // POST /api/v1/highlights
      .post(
        "/",
        async ({ request, body, set }) => {
          const h = await s.highlights.create(actorOf(request), body);
          set.status = 201;
          set.headers["location"] = `/api/v1/highlights/${h.id}`;
          return h;
        },
        {
          body: HighlightCreate,
          response: { 201: HighlightPublic },
          detail: {
            operationId: "createHighlight",
            summary: "Highlight a passage of a source",
            description:
              "Anchors the quote (`exact`, with `prefix`, `suffix` and `position` to tell several occurrences apart) in the source's current article text, compared with whitespace collapsed. A quote not in the text is 422 naming `exact`; a source not ready yet is 409. A missing prefix or suffix is filled from the text, and `position` is where the quote was found.",
          },
        },
      )
      // GET /api/v1/highlights/export.csv
      .get(
        "/export.csv",
        ({ request, query }) => {
          const rows = s.highlights.all(actorOf(request), highlightQuery(query));
          return new Response(csvStream(rows), {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": contentDisposition("highlights.csv"),
            },
          });
        },
        {
          query: HighlightExportQuery,
          detail: {
            operationId: "exportHighlightsCsv",
            summary: "Export highlights as CSV (Readwise layout)",
            description:
              "Columns `Highlight,Title,Author,URL,Note,Location,Date` (source title, byline and address; Location is the start offset, Date the creation time), RFC 4180 quoting; a cell starting with `=`, `+`, `-` or `@` is prefixed with an apostrophe so spreadsheets do not run it. Same filters as the list.",
            responses: {
              200: {
                description: "The CSV file, as an attachment",
                headers: {
                  "Content-Disposition": {
                    schema: { type: "string" },
                    description: 'attachment; filename="highlights.csv"',
                  },
                },
                content: { "text/csv": { schema: { type: "string" } } },
              },
            },
          },
        },
      )
      // GET /api/v1/highlights/{id}
      .get("/:id", ({ request, params }) => s.highlights.get(actorOf(request), params.id), {
        params: Params,
        response: HighlightPublic,
        detail: { operationId: "getHighlight", summary: "Get a highlight", description: "One highlight by id." },
      })
      // PATCH /api/v1/highlights/{id}
      .patch("/:id", ({ request, params, body }) => s.highlights.update(actorOf(request), params.id, body), {
        params: Params,
        body: HighlightUpdate,
        response: HighlightPublic,
        detail: {
          operationId: "updateHighlight",
          summary: "Recolour or annotate a highlight",
          description: "Only the fields sent change; `note: null` clears the note. The quote itself never changes.",
        },
      })
      // DELETE /api/v1/highlights/{id}
      .delete("/:id", ({ request, params }) => s.highlights.delete(actorOf(request), params.id), {
        params: Params,
        response: HighlightPublic,
        detail: {
          operationId: "deleteHighlight",
          summary: "Delete a highlight",
          description: "Returns the highlight as it was before deletion.",
        },
      })
  );
}

// /api/v1/notebooks: CRUD, adding/removing sources, Markdown export.
import { Elysia, t } from "elysia";
import { actorOf } from "../../../http/auth.ts";
import { listOf, ListQuery, withLink } from "../../../http/pagination.ts";
import type { SourcesService } from "../sources/service.ts";
import type { NotebooksService } from "./service.ts";
import { SourcePublic } from "../sources/schema.ts";
import { contentDisposition } from "../../../http/content-disposition.ts";
import { NotebookCreate, NotebookPublic, NotebookUpdate } from "./schema.ts";

const Params = t.Object({ id: t.String() });
const LinkParams = t.Object({ id: t.String(), source_id: t.String() });

export function notebookRoutes(s: { notebooks: NotebooksService; sources: SourcesService }) {
  return (
    new Elysia({ prefix: "/notebooks", tags: ["Notebooks"] })
      // GET /api/v1/notebooks
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          return withLink(await s.notebooks.list(actorOf(ctx.request), { limit, cursor }), limit, ctx);
        },
        {
          query: ListQuery,
          response: listOf(NotebookPublic),
          detail: {
            operationId: "listNotebooks",
            summary: "List notebooks",
            description: "The caller's notebooks, newest first.",
          },
        },
      )
      // POST /api/v1/notebooks
      .post(
        "/",
        async ({ request, body, set }) => {
          const nb = await s.notebooks.create(actorOf(request), body);
          set.status = 201;
          set.headers["location"] = `/api/v1/notebooks/${nb.id}`;
          return nb;
        },
        {
          body: NotebookCreate,
          response: { 201: NotebookPublic },
          detail: {
            operationId: "createNotebook",
            summary: "Create a notebook",
            description: "A notebook groups sources and notes; a source may be in several notebooks.",
          },
        },
      )
      // GET /api/v1/notebooks/{id}
      .get("/:id", ({ request, params }) => s.notebooks.get(actorOf(request), params.id), {
        params: Params,
        response: NotebookPublic,
        detail: {
          operationId: "getNotebook",
          summary: "Get a notebook",
          description: "One notebook by id.",
        },
      })
      // PATCH /api/v1/notebooks/{id}
      .patch("/:id", ({ request, params, body }) => s.notebooks.update(actorOf(request), params.id, body), {
        params: Params,
        body: NotebookUpdate,
        response: NotebookPublic,
        detail: {
          operationId: "updateNotebook",
          summary: "Rename or describe a notebook",
          description: "Only the fields sent change.",
        },
      })
      // DELETE /api/v1/notebooks/{id}
      .delete("/:id", ({ request, params }) => s.notebooks.delete(actorOf(request), params.id), {
        params: Params,
        response: NotebookPublic,
        detail: {
          operationId: "deleteNotebook",
          summary: "Delete a notebook (its sources and notes are kept)",
          description: "Returns the notebook as it was before deletion.",
        },
      })
      // PUT /api/v1/notebooks/{id}/sources/{source_id}
      .put(
        "/:id/sources/:source_id",
        ({ request, params }) => s.sources.addToNotebook(actorOf(request), params.id, params.source_id),
        {
          params: LinkParams,
          response: SourcePublic,
          detail: {
            operationId: "addSourceToNotebook",
            summary: "Add a source to a notebook (idempotent)",
            description:
              "Returns the source with its notebook_ids; adding a source that is already there changes nothing.",
          },
        },
      )
      // POST /api/v1/notebooks/{id}/sources
      .post(
        "/:id/sources",
        async ({ request, params, body }) => ({
          added: await s.sources.addManyToNotebook(actorOf(request), params.id, body.source_ids),
        }),
        {
          params: Params,
          body: t.Object(
            {
              source_ids: t.Array(t.String({ pattern: "^src_[0-9A-Z]{26}$", description: "A source id (src_…)" }), {
                minItems: 1,
                maxItems: 500,
                description: "The sources to add (at most 500 a call)",
              }),
            },
            { additionalProperties: false },
          ),
          response: t.Object({
            added: t.Array(t.String(), {
              description: "The ids newly added; those already in the notebook are left out",
            }),
          }),
          detail: {
            operationId: "addSourcesToNotebook",
            summary: "Add many sources to a notebook at once",
            description:
              "Adds every listed source in one transaction; sources already in the notebook change nothing. An unknown source fails the whole call with 422 naming its place in `source_ids`.",
          },
        },
      )
      // DELETE /api/v1/notebooks/{id}/sources/{source_id}
      .delete(
        "/:id/sources/:source_id",
        ({ request, params }) => s.sources.removeFromNotebook(actorOf(request), params.id, params.source_id),
        {
          params: LinkParams,
          response: SourcePublic,
          detail: {
            operationId: "removeSourceFromNotebook",
            summary: "Remove a source from a notebook",
            description: "Returns the source with its notebook_ids; 404 when the source is not in the notebook.",
          },
        },
      )
      // GET /api/v1/notebooks/{id}/export/markdown
      .get(
        "/:id/export/markdown",
        async ({ request, params }) => {
          const actor = actorOf(request);
          const { filename, zip } = await s.notebooks.exportMarkdown(actor, params.id);
          return new Response(zip, {
            headers: {
              "content-type": "application/zip",
              "content-disposition": contentDisposition(filename),
            },
          });
        },
        {
          params: Params,
          detail: {
            operationId: "exportNotebookMarkdown",
            summary: "Export as a zip of Markdown files (an Obsidian-ready vault)",
            description:
              "A zip with an index, one `.md` file per source and per note, each with YAML front matter; streamed as it is built.",
            responses: {
              200: {
                description: "The zip, as an attachment named after the notebook",
                headers: {
                  "Content-Disposition": { schema: { type: "string" }, description: 'attachment; filename="….zip"' },
                },
                content: { "application/zip": { schema: { type: "string", format: "binary" } } },
              },
            },
          },
        },
      )
  );
}

// /api/v1/notebooks: CRUD, adding/removing sources, Markdown export.
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { decodeCursor, listOf, ListQuery, page } from "../../http/pagination.ts";
import type { Services } from "../../services.ts";
import { SourcePublic } from "../sources/schema.ts";
import { contentDisposition, exportPages, notebookZip, slugify } from "./export.ts";
import { NotebookCreate, NotebookPublic, NotebookUpdate } from "./schema.ts";

const Params = t.Object({ id: t.String() });
const LinkParams = t.Object({ id: t.String(), source_id: t.String() });

export function notebookRoutes(s: Services) {
  return new Elysia({ prefix: "/notebooks", tags: ["Notebooks"] })
    // GET /api/v1/notebooks
    .get(
      "/",
      (ctx) => {
        const limit = ctx.query.limit ?? 20;
        const rows = s.notebooks.list(actorOf(ctx.request), { limit: limit + 1, before: decodeCursor(ctx.query.cursor) });
        return page(rows, limit, (r) => r, ctx);
      },
      { query: ListQuery, response: listOf(NotebookPublic), detail: { summary: "List notebooks" } },
    )
    // POST /api/v1/notebooks
    .post(
      "/",
      ({ request, body, set }) => {
        const nb = s.notebooks.create(actorOf(request), body);
        set.status = 201;
        set.headers["location"] = `/api/v1/notebooks/${nb.id}`;
        return nb;
      },
      { body: NotebookCreate, response: { 201: NotebookPublic }, detail: { summary: "Create a notebook" } },
    )
    // GET /api/v1/notebooks/{id}
    .get("/:id", ({ request, params }) => s.notebooks.get(actorOf(request), params.id), {
      params: Params,
      response: NotebookPublic,
      detail: { summary: "Get a notebook" },
    })
    // PATCH /api/v1/notebooks/{id}
    .patch("/:id", ({ request, params, body }) => s.notebooks.update(actorOf(request), params.id, body), {
      params: Params,
      body: NotebookUpdate,
      response: NotebookPublic,
      detail: { summary: "Rename or describe a notebook" },
    })
    // DELETE /api/v1/notebooks/{id}
    .delete("/:id", ({ request, params }) => s.notebooks.delete(actorOf(request), params.id), {
      params: Params,
      response: NotebookPublic,
      detail: { summary: "Delete a notebook (its sources and notes are kept)" },
    })
    // PUT /api/v1/notebooks/{id}/sources/{source_id}
    .put("/:id/sources/:source_id", ({ request, params }) => s.sources.addToNotebook(actorOf(request), params.id, params.source_id), {
      params: LinkParams,
      response: SourcePublic,
      detail: { summary: "Add a source to a notebook (idempotent)" },
    })
    // DELETE /api/v1/notebooks/{id}/sources/{source_id}
    .delete(
      "/:id/sources/:source_id",
      ({ request, params }) => s.sources.removeFromNotebook(actorOf(request), params.id, params.source_id),
      { params: LinkParams, response: SourcePublic, detail: { summary: "Remove a source from a notebook" } },
    )
    // GET /api/v1/notebooks/{id}/export/markdown
    .get(
      "/:id/export/markdown",
      ({ request, params }) => {
        const actor = actorOf(request);
        const nb = s.notebooks.getRow(actor, params.id);
        return new Response(notebookZip(nb, exportPages(s, actor, nb.id)), {
          headers: {
            "content-type": "application/zip",
            "content-disposition": contentDisposition(`${slugify(nb.name, "notebook")}.zip`),
          },
        });
      },
      { params: Params, detail: { summary: "Export as a zip of Markdown files (an Obsidian-ready vault)" } },
    );
}

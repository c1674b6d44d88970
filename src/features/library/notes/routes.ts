// /api/v1/notes: CRUD and Markdown download.
import { Elysia, t } from "elysia";
import { actorOf } from "../../../http/auth.ts";
import { listOf, withLink } from "../../../http/pagination.ts";
import type { NotesService } from "./service.ts";
import { contentDisposition } from "../../../http/content-disposition.ts";
import { slugify } from "../../../slug.ts";
import { NoteCreate, NoteListQuery, NotePublic, NoteUpdate } from "./schema.ts";

const Params = t.Object({ id: t.String() });

export function noteRoutes(s: { notes: NotesService }) {
  return (
    new Elysia({ prefix: "/notes", tags: ["Notes"] })
      // GET /api/v1/notes
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor, notebook_id, source_id } = ctx.query;
          const page = await s.notes.list(actorOf(ctx.request), {
            limit,
            cursor,
            notebookId: notebook_id,
            sourceId: source_id,
          });
          return withLink(page, limit, ctx);
        },
        {
          query: NoteListQuery,
          response: listOf(NotePublic),
          detail: {
            operationId: "listNotes",
            summary: "List notes",
            description: "The caller's notes, newest first; `notebook_id` keeps one notebook's notes.",
          },
        },
      )
      // POST /api/v1/notes
      .post(
        "/",
        async ({ request, body, set }) => {
          const note = await s.notes.create(actorOf(request), body);
          set.status = 201;
          set.headers["location"] = `/api/v1/notes/${note.id}`;
          return note;
        },
        {
          body: NoteCreate,
          response: { 201: NotePublic },
          detail: {
            operationId: "createNote",
            summary: "Write a note (Markdown)",
            description: "Notes are searchable with the sources; `source_ids` records which sources the note cites.",
          },
        },
      )
      // GET /api/v1/notes/{id}
      .get("/:id", ({ request, params }) => s.notes.get(actorOf(request), params.id), {
        params: Params,
        response: NotePublic,
        detail: {
          operationId: "getNote",
          summary: "Get a note",
          description: "One note by id.",
        },
      })
      // PATCH /api/v1/notes/{id}
      .patch("/:id", ({ request, params, body }) => s.notes.update(actorOf(request), params.id, body), {
        params: Params,
        body: NoteUpdate,
        response: NotePublic,
        detail: {
          operationId: "updateNote",
          summary: "Update a note",
          description: "Only the fields sent change.",
        },
      })
      // DELETE /api/v1/notes/{id}
      .delete("/:id", ({ request, params }) => s.notes.delete(actorOf(request), params.id), {
        params: Params,
        response: NotePublic,
        detail: {
          operationId: "deleteNote",
          summary: "Delete a note",
          description: "Returns the note as it was before deletion.",
        },
      })
      // GET /api/v1/notes/{id}/download
      .get(
        "/:id/download",
        async ({ request, params }) => {
          const note = await s.notes.get(actorOf(request), params.id);
          const name = slugify(note.title ?? note.content.split("\n")[0]?.replace(/^#+\s*/, "") ?? "", "note");
          return new Response(note.content, {
            headers: {
              "content-type": "text/markdown; charset=utf-8",
              "content-disposition": contentDisposition(`${name}.md`),
            },
          });
        },
        {
          params: Params,
          detail: {
            operationId: "downloadNote",
            summary: "Download a note as a Markdown file",
            description:
              "The note's Markdown as `text/markdown; charset=utf-8` with `Content-Disposition: attachment` and a file name made from its title.",
            responses: {
              200: {
                description: "The note's Markdown, as an attachment",
                headers: {
                  "Content-Disposition": { schema: { type: "string" }, description: 'attachment; filename="….md"' },
                },
                content: { "text/markdown": { schema: { type: "string" } } },
              },
            },
          },
        },
      )
  );
}

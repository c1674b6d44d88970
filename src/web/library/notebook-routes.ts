// Web routes for notebooks: list and create, one notebook (rename, remove sources, delete) and its zip export.
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import { contentDisposition } from "../../http/content-disposition.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField, redirect } from "../http.ts";
import { choiceOf, choices } from "./source-picker.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { confirmDeletePage, cursorOf, flashOf, formFields, here, ID_RE, lf, signInFirst } from "./common.ts";
import { nextKey, paginate } from "../../paging.ts";
import { notebookPage, notebooksListPage, type NotebookForm, type NotebookPageInput } from "./notebook-pages.ts";

const LIST_SIZE = 50;
/** Sources one "Add" may carry (the API takes 500). */
const MAX_ADD = 200;
/** A notebook's page shows this many sources and notes; the rest are one link away. */
const SHOWN = 100;
const NOTICES: Record<string, Flash> = {
  created: { kind: "ok", text: "Notebook created." },
  saved: { kind: "ok", text: "Saved." },
  deleted: { kind: "ok", text: "The notebook was deleted. Its sources and notes are still in your library." },
  removed: { kind: "ok", text: "Removed from the notebook." },
  "added-one": { kind: "ok", text: "Added a source to the notebook." },
  added: { kind: "ok", text: "Added the chosen sources to the notebook (those already in it stay once)." },
};

function readForm(body: unknown): { name: string; description: string; errors: NonNullable<NotebookForm["errors"]> } {
  const name = formField(body, "name").trim();
  const description = lf(formField(body, "description")).trim();
  const errors: NonNullable<NotebookForm["errors"]> = {};
  if (!name) errors.name = "Enter a name.";
  else if (name.length > 200) errors.name = "The name is longer than 200 characters.";
  if (description.length > 5000) errors.description = "The description is longer than 5000 characters.";
  return { name, description, errors };
}

export function notebookWebRoutes(s: Pick<WebDeps, "notebooks" | "notes" | "sources">, h: WebHelpers) {
  async function listResponse(
    me: SignedIn,
    before: string | undefined,
    extra: { form?: NotebookForm; flash?: Flash; status?: number } = {},
  ) {
    const page = await s.notebooks.list(me.actor, { limit: LIST_SIZE, cursor: cursorOf(before, ID_RE.notebook) });
    return notebooksListPage({ user: h.layoutUser(me), notebooks: page.data, next: nextKey(page), ...extra });
  }

  async function detailResponse(
    me: SignedIn,
    id: string,
    extra: {
      form?: NotebookForm;
      flash?: Flash;
      status?: number;
      sort?: "saved_at";
      picker?: NotebookPageInput["picker"];
    } = {},
  ) {
    const notebook = await s.notebooks.get(me.actor, id);
    // The first page of each, as rows; a next page means "link to the full list".
    const sources = await paginate(SHOWN, undefined, (o) =>
      s.sources.listRows(me.actor, { ...o, notebookId: id, sort: extra.sort }),
    );
    const notes = await paginate(SHOWN, undefined, (o) => s.notes.listRows(me.actor, { ...o, notebookId: id }));
    return notebookPage({
      user: h.layoutUser(me),
      notebook,
      sources: sources.data,
      notes: notes.data,
      moreSources: sources.next_cursor !== null,
      moreNotes: notes.next_cursor !== null,
      ...extra,
      picker: extra.picker ?? { linked: [], results: await choices(s, me.actor, "") },
    });
  }

  /** The POST's signed-in user, or a redirect to sign in and come back to the notebook. */
  async function notebookPost(request: Request, body: unknown, id: string): Promise<SignedIn | Response> {
    return (await h.checkSessionPost(request, body)) ?? signInFirst(`/notebooks/${id}`);
  }

  return (
    new Elysia()
      // GET /notebooks
      .get(
        "/notebooks",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return listResponse(me, query.before, { flash: flashOf(NOTICES, query.notice) });
        }),
      )
      // POST /notebooks
      .post(
        "/notebooks",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/notebooks");
          const form = readForm(body);
          if (Object.keys(form.errors).length) return listResponse(me, undefined, { form, status: 422 });
          const nb = await s.notebooks.create(me.actor, { name: form.name, description: form.description || null });
          return redirect(`/notebooks/${nb.id}?notice=created`);
        }),
      )
      // GET /notebooks/:id
      .get(
        "/notebooks/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return detailResponse(me, params.id ?? "", {
            flash: flashOf(NOTICES, query.notice),
            sort: query.sort === "saved_at" ? "saved_at" : undefined,
          });
        }),
      )
      // POST /notebooks/:id — rename or describe
      .post(
        "/notebooks/:id",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await notebookPost(request, body, id);
          if (me instanceof Response) return me;
          const form = readForm(body);
          if (Object.keys(form.errors).length) return detailResponse(me, id, { form, status: 422 });
          await s.notebooks.update(me.actor, id, { name: form.name, description: form.description || null });
          return redirect(`/notebooks/${id}?notice=saved`);
        }),
      )
      // POST /notebooks/:id/sources/add — the picker's chosen sources, or (its "Find") its matches
      .post(
        "/notebooks/:id/sources/add",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await notebookPost(request, body, id);
          if (me instanceof Response) return me;
          const ids = [...new Set(formFields(body, "add_source_ids"))].filter((x) => ID_RE.source.test(x));
          const query = formField(body, "source_q").slice(0, 200).trim();
          const pickerOf = async (error?: string) => {
            const linked = (await s.sources.titlesOf(me.actor, ids.slice(0, MAX_ADD))).map(choiceOf);
            return { linked, results: await choices(s, me.actor, query, linked.length), query, error };
          };
          if (formField(body, "find_sources") !== "") return detailResponse(me, id, { picker: await pickerOf() });
          if (ids.length === 0)
            return detailResponse(me, id, { picker: await pickerOf("Choose at least one source."), status: 422 });
          if (ids.length > MAX_ADD)
            return detailResponse(me, id, { picker: await pickerOf(`Add at most ${MAX_ADD} at a time.`), status: 422 });
          const added = await s.sources.addManyToNotebook(me.actor, id, ids);
          return redirect(`/notebooks/${id}?notice=${added.length === 1 ? "added-one" : "added"}`);
        }),
      )
      // POST /notebooks/:id/sources/:sid/remove
      .post(
        "/notebooks/:id/sources/:sid/remove",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await notebookPost(request, body, id);
          if (me instanceof Response) return me;
          await s.sources.removeFromNotebook(me.actor, id, params.sid ?? "");
          return redirect(`/notebooks/${id}?notice=removed`);
        }),
      )
      // GET /notebooks/:id/export.zip — the API's Markdown export, for the signed-in browser
      .get(
        "/notebooks/:id/export.zip",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const { filename, zip } = await s.notebooks.exportMarkdown(me.actor, params.id ?? "");
          return new Response(zip, {
            headers: {
              "content-type": "application/zip",
              "content-disposition": contentDisposition(filename),
              "cache-control": "no-store",
              "x-content-type-options": "nosniff",
            },
          });
        }),
      )
      // GET /notebooks/:id/delete — asks first
      .get(
        "/notebooks/:id/delete",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const nb = await s.notebooks.get(me.actor, params.id ?? "");
          return confirmDeletePage({
            user: h.layoutUser(me),
            what: "notebook",
            name: nb.name,
            action: `/notebooks/${nb.id}/delete`,
            cancel: `/notebooks/${nb.id}`,
            note: "Its sources and notes stay in your library.",
          });
        }),
      )
      // POST /notebooks/:id/delete
      .post(
        "/notebooks/:id/delete",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await notebookPost(request, body, id);
          if (me instanceof Response) return me;
          await s.notebooks.delete(me.actor, id);
          return redirect("/notebooks?notice=deleted");
        }),
      )
  );
}

// Web routes for notes: list, write, view and edit, download as Markdown, delete.
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import { nextKey } from "../../paging.ts";
import type { Actor } from "../../actor.ts";
import { contentDisposition } from "../../http/content-disposition.ts";
import { slugify } from "../../slug.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField, redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import {
  confirmDeletePage,
  flashOf,
  formFields,
  here,
  ID_RE,
  lf,
  PAGE_SIZE,
  cursorOf,
  PICKER_LIMIT,
  signInFirst,
} from "./common.ts";
import { newNotePage, notePage, notesListPage, noteTitle, type NoteForm, type NoteSources } from "./note-pages.ts";
import { choiceOf, choices } from "./source-picker.ts";

const MAX_CONTENT = 1_000_000;
/** The editor offers this many sources to link, newest first, plus those already linked. */
const NOTICES: Record<string, Flash> = {
  created: { kind: "ok", text: "Note saved." },
  saved: { kind: "ok", text: "Changes saved." },
  deleted: { kind: "ok", text: "The note was deleted." },
};

type ValidNote = {
  title: string;
  content: string;
  notebookId: string;
  sourceIds: string[];
  errors: NonNullable<NoteForm["errors"]>;
};

export function noteWebRoutes(s: Pick<WebDeps, "notebooks" | "notes" | "sources">, h: WebHelpers) {
  const notebooksOf = async (actor: Actor) => (await s.notebooks.list(actor, { limit: PICKER_LIMIT })).data;

  /** The editor's sources: the checked ones by title, and the picker's matches (or the newest). */
  async function sourcesOf(actor: Actor, checked: string[], query = ""): Promise<NoteSources> {
    const ids = checked.filter((id) => ID_RE.source.test(id));
    const titles = new Map((await s.sources.titlesOf(actor, ids)).map((r) => [r.id, choiceOf(r)]));
    const linked = ids.flatMap((id) => titles.get(id) ?? []);
    return { linked, results: await choices(s, actor, query.trim(), linked.length) };
  }

  /** The editor's fields as posted, unchecked: a "Find" in the picker shows them again with its matches. */
  function draftOf(body: unknown): NoteForm {
    return {
      title: formField(body, "title"),
      content: lf(formField(body, "content")),
      notebookId: formField(body, "notebook_id"),
      sourceIds: [...new Set(formFields(body, "source_ids"))].slice(0, 100),
      sourceQuery: formField(body, "source_q").slice(0, 200),
    };
  }
  const finding = (body: unknown) => formField(body, "find_sources") !== "";

  async function ownsNotebook(actor: Actor, id: string): Promise<boolean> {
    try {
      await s.notebooks.getRow(actor, id);
      return true;
    } catch (e) {
      if (e instanceof AppError && e.code === "not_found") return false;
      throw e;
    }
  }

  /** Checks the editor's fields like the API's schema, including that the notebook is the user's. */
  async function readForm(actor: Actor, body: unknown): Promise<ValidNote> {
    const title = formField(body, "title").trim();
    const content = lf(formField(body, "content"));
    const notebookId = formField(body, "notebook_id");
    const sourceIds = [...new Set(formFields(body, "source_ids"))];
    const errors: ValidNote["errors"] = {};
    if (!content.trim()) errors.content = "Write something first.";
    else if (content.length > MAX_CONTENT) errors.content = "The note is longer than 1,000,000 characters.";
    if (title.length > 500) errors.title = "The title is longer than 500 characters.";
    if (notebookId && (!ID_RE.notebook.test(notebookId) || !(await ownsNotebook(actor, notebookId)))) {
      errors.notebook_id = "Choose a notebook from the list.";
    }
    if (sourceIds.length > 100) errors.source_ids = "Link at most 100 sources.";
    else if (sourceIds.some((id) => !ID_RE.source.test(id))) errors.source_ids = "Choose sources from the list.";
    return { title, content, notebookId, sourceIds, errors };
  }

  /** Saves through the service; a linked source that is gone (the API's source_ids check) comes back as a field error. */
  async function saved<T>(f: ValidNote, save: () => Promise<T>): Promise<T | undefined> {
    try {
      return await save();
    } catch (e) {
      if (
        !(e instanceof AppError) ||
        e.code !== "validation_failed" ||
        !e.extra.errors?.[0]?.path.startsWith("source_ids")
      )
        throw e;
      f.errors.source_ids = "One of the chosen sources no longer exists.";
      return undefined;
    }
  }

  async function notePost(request: Request, body: unknown, id: string): Promise<SignedIn | Response> {
    return (await h.checkSessionPost(request, body)) ?? signInFirst(`/notes/${id}`);
  }

  return (
    new Elysia()
      // GET /notes
      .get(
        "/notes",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const notebook = ID_RE.notebook.test(query.notebook ?? "") ? query.notebook : undefined;
          const cursor = cursorOf(query.before, ID_RE.note);
          const page = await s.notes.list(me.actor, { limit: PAGE_SIZE, cursor, notebookId: notebook });
          return notesListPage({
            user: h.layoutUser(me),
            notes: page.data,
            next: nextKey(page),
            notebooks: await notebooksOf(me.actor),
            notebook,
            flash: flashOf(NOTICES, query.notice),
          });
        }),
      )
      // GET /notes/new
      .get(
        "/notes/new",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const notebookId = ID_RE.notebook.test(query.notebook ?? "") ? query.notebook : undefined;
          const sourceIds = ID_RE.source.test(query.source ?? "") ? [query.source!] : [];
          return newNotePage({
            user: h.layoutUser(me),
            notebooks: await notebooksOf(me.actor),
            sources: await sourcesOf(me.actor, sourceIds),
            form: { notebookId, sourceIds },
          });
        }),
      )
      // POST /notes
      .post(
        "/notes",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/notes/new");
          if (finding(body)) {
            const draft = draftOf(body);
            return newNotePage({
              user: h.layoutUser(me),
              notebooks: await notebooksOf(me.actor),
              sources: await sourcesOf(me.actor, draft.sourceIds ?? [], draft.sourceQuery),
              form: draft,
            });
          }
          const f = await readForm(me.actor, body);
          const note = Object.keys(f.errors).length
            ? undefined
            : await saved(f, () =>
                s.notes.create(me.actor, {
                  content: f.content,
                  title: f.title || undefined,
                  notebook_id: f.notebookId || null,
                  source_ids: f.sourceIds,
                }),
              );
          if (!note)
            return newNotePage({
              user: h.layoutUser(me),
              notebooks: await notebooksOf(me.actor),
              sources: await sourcesOf(me.actor, f.sourceIds),
              form: f,
              status: 422,
            });
          return redirect(`/notes/${note.id}?notice=created`);
        }),
      )
      // GET /notes/:id — rendered, with the editor below
      .get(
        "/notes/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const note = await s.notes.get(me.actor, params.id ?? "");
          const sources = await sourcesOf(me.actor, note.source_ids);
          return notePage({
            user: h.layoutUser(me),
            note,
            notebooks: await notebooksOf(me.actor),
            sources,
            flash: flashOf(NOTICES, query.notice),
          });
        }),
      )
      // POST /notes/:id
      .post(
        "/notes/:id",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await notePost(request, body, id);
          if (me instanceof Response) return me;
          const note = await s.notes.get(me.actor, id);
          if (finding(body)) {
            const draft = draftOf(body);
            return notePage({
              user: h.layoutUser(me),
              note,
              notebooks: await notebooksOf(me.actor),
              sources: {
                ...(await sourcesOf(me.actor, draft.sourceIds ?? [], draft.sourceQuery)),
                about: (await sourcesOf(me.actor, note.source_ids)).linked,
              },
              form: draft,
            });
          }
          const f = await readForm(me.actor, body);
          const done = Object.keys(f.errors).length
            ? undefined
            : await saved(f, () =>
                s.notes.update(me.actor, id, {
                  content: f.content,
                  title: f.title || null,
                  notebook_id: f.notebookId || null,
                  source_ids: f.sourceIds,
                }),
              );
          if (!done) {
            const sources = {
              ...(await sourcesOf(me.actor, f.sourceIds)),
              about: (await sourcesOf(me.actor, note.source_ids)).linked,
            };
            return notePage({
              user: h.layoutUser(me),
              note,
              notebooks: await notebooksOf(me.actor),
              sources,
              form: f,
              status: 422,
            });
          }
          return redirect(`/notes/${id}?notice=saved`);
        }),
      )
      // GET /notes/:id/download
      .get(
        "/notes/:id/download",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const note = await s.notes.get(me.actor, params.id ?? "");
          return new Response(note.content, {
            headers: {
              "content-type": "text/markdown; charset=utf-8",
              "content-disposition": contentDisposition(`${slugify(noteTitle(note), "note")}.md`),
              "cache-control": "no-store",
              "x-content-type-options": "nosniff",
            },
          });
        }),
      )
      // GET /notes/:id/delete — asks first
      .get(
        "/notes/:id/delete",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const note = await s.notes.get(me.actor, params.id ?? "");
          return confirmDeletePage({
            user: h.layoutUser(me),
            what: "note",
            name: noteTitle(note),
            action: `/notes/${note.id}/delete`,
            cancel: `/notes/${note.id}`,
          });
        }),
      )
      // POST /notes/:id/delete
      .post(
        "/notes/:id/delete",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await notePost(request, body, id);
          if (me instanceof Response) return me;
          await s.notes.delete(me.actor, id);
          return redirect("/notes?notice=deleted");
        }),
      )
  );
}

// Web routes for sources: saving a link, the reader, notebooks, refetch and delete.
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import type { Actor } from "../../actor.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField, redirect } from "../http.ts";
import type { SignedIn } from "../service.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { confirmDeletePage, flashOf, formFields, here, ID_RE, PICKER_LIMIT, signInFirst } from "./common.ts";
import { isFormat } from "../podcasts/format-picker.ts";
import type { PodcastFormat } from "../../features/podcasts/formats.ts";
import { readerPage, type ReaderPageInput } from "./source-pages.ts";
import type { AddForm } from "./library-pages.ts";
import { askProblem } from "./search-routes.ts";

const NOTICES: Record<string, Flash> = {
  added: {
    kind: "ok",
    text: "Saved. It is being fetched; it shows as Ready when its text is in (this list updates by itself).",
  },
  exists: { kind: "ok", text: "This link is already saved in your library." },
  exists_added: { kind: "ok", text: "This link was already saved; it is now in the notebooks you chose." },
  deleted: { kind: "ok", text: "The source was deleted." },
  refetching: { kind: "ok", text: "Fetching it again. Reload in a moment." },
  already_fetching: { kind: "error", text: "This source is already being fetched." },
  added_to_notebook: { kind: "ok", text: "Added to the notebook." },
  removed_from_notebook: { kind: "ok", text: "Removed from the notebook." },
  renamed: { kind: "ok", text: "Title saved." },
  added_quick: {
    kind: "ok",
    text: "Saved. It is being fetched; a podcast episode is made once it is ready — find it under Podcasts.",
  },
};
/** The reader lists this many of the notes about the source. */
const LINKED_NOTES = 20;
const MAX_QUESTION = 2000;

/** The Library page with a form's state: the add-link form re-rendered with its errors. */
type ListResponse = (
  me: SignedIn,
  q: Record<string, string | undefined>,
  extra: { form?: AddForm; status?: number },
) => Promise<Response>;

export function sourceWebRoutes(
  s: Pick<WebDeps, "ask" | "live" | "notebooks" | "notes" | "sources">,
  h: WebHelpers,
  listResponse: ListResponse,
) {
  const notebooksOf = async (actor: Actor) => (await s.notebooks.list(actor, { limit: PICKER_LIMIT })).data;

  /** Validates the add-link form the way the API's schema would, with messages for people. */
  function readAddForm(body: unknown): AddForm & { errors: NonNullable<AddForm["errors"]> } {
    const url = formField(body, "url").trim();
    const title = formField(body, "title").trim();
    const notebookIds = [...new Set(formFields(body, "notebook_ids"))];
    const errors: NonNullable<AddForm["errors"]> = {};
    if (!url) errors.url = "Enter the link to save.";
    else if (url.length > 2048) errors.url = "The link is longer than 2048 characters.";
    if (title.length > 500) errors.title = "The title is longer than 500 characters.";
    if (notebookIds.some((id) => !ID_RE.notebook.test(id))) errors.notebook_ids = "Choose notebooks from the list.";
    const quick = formField(body, "generate_quick_podcast") === "1";
    const podcastFormat = formField(body, "podcast_format") || "deep_dive";
    if (quick && !isFormat(podcastFormat)) errors.podcast_format = "Choose one of the six formats.";
    return { url, title, notebookIds, quick, podcastFormat, errors };
  }

  /** The reader with its notebooks and the notes about it, plus whatever a form left to show. */
  async function readerResponse(
    me: SignedIn,
    id: string,
    extra: Pick<ReaderPageInput, "rename" | "ask" | "flash" | "status"> = {},
  ): Promise<Response> {
    const liveSince = await s.live.events.latestSeq();
    const source = await s.sources.publicOf(await s.sources.get(me.actor, id), true);
    const notes = await s.notes.list(me.actor, { limit: LINKED_NOTES, sourceId: source.id });
    return readerPage({
      user: h.layoutUser(me),
      source,
      notebooks: await notebooksOf(me.actor),
      notes: notes.data,
      moreNotes: notes.next_cursor !== null,
      liveSince,
      ...extra,
    });
  }

  /** The POST's source, or a redirect to sign in and come back to its reader. */
  async function sourcePost(request: Request, body: unknown, id: string): Promise<SignedIn | Response> {
    const me = await h.checkSessionPost(request, body);
    return me ?? signInFirst(`/library/sources/${id}`);
  }

  return (
    new Elysia()
      // POST /library/sources — save a link; an already saved URL only gains the chosen notebooks.
      .post(
        "/library/sources",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/library");
          const form = readAddForm(body);
          if (Object.keys(form.errors).length) return listResponse(me, {}, { form, status: 422 });
          try {
            const quick = form.quick
              ? { generate_quick_podcast: true, podcast_format: form.podcastFormat as PodcastFormat }
              : {};
            const { source, created } = await s.sources.create(me.actor, {
              url: form.url!,
              title: form.title || undefined,
              notebook_ids: form.notebookIds,
              ...quick,
            });
            const grew = form.notebookIds!.some((id) => source.notebook_ids.includes(id));
            return redirect(
              `/library?notice=${created ? (form.quick ? "added_quick" : "added") : grew ? "exists_added" : "exists"}`,
            );
          } catch (e) {
            if (!(e instanceof AppError) || e.code !== "validation_failed") throw e;
            const path = e.extra.errors?.[0]?.path ?? "";
            const message = e.extra.errors?.[0]?.message ?? e.message;
            const errors = path.startsWith("notebook_ids")
              ? { notebook_ids: "One of the chosen notebooks no longer exists." }
              : { url: `This link cannot be saved: ${message}.` };
            return listResponse(me, {}, { form: { ...form, errors }, status: 422 });
          }
        }),
      )
      // GET /library/sources/:id — the reader
      .get(
        "/library/sources/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return readerResponse(me, params.id ?? "", { flash: flashOf(NOTICES, query.notice) });
        }),
      )
      // POST /library/sources/:id/title — rename; empty goes back to the extracted title
      .post(
        "/library/sources/:id/title",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          const title = formField(body, "title").trim();
          if (title.length > 500)
            return readerResponse(me, id, {
              rename: { title, error: "The title is longer than 500 characters." },
              status: 422,
            });
          await s.sources.update(me.actor, id, { title: title || null });
          return redirect(`/library/sources/${id}?notice=renamed`);
        }),
      )
      // GET /library/sources/:id/ask — where a reload lands after the answer replaced its history entry
      .get("/library/sources/:id/ask", ({ params }) =>
        redirect(`/library/sources/${ID_RE.source.test(params.id ?? "") ? params.id : ""}`),
      )
      // POST /library/sources/:id/ask — a question answered from this source only
      .post(
        "/library/sources/:id/ask",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          const question = formField(body, "question").trim();
          await s.sources.get(me.actor, id);
          if (!question || question.length > MAX_QUESTION) {
            const fieldError = question ? "The question is longer than 2000 characters." : "Write a question first.";
            return readerResponse(me, id, { ask: { question, fieldError }, status: 422 });
          }
          try {
            const result = await s.ask.ask(me.actor, { question, source_ids: [id] });
            return await readerResponse(me, id, { ask: { question, result } });
          } catch (e) {
            const f = askProblem(e);
            if (!f) throw e;
            return readerResponse(me, id, { ask: { question, error: f.text }, status: f.status });
          }
        }),
      )
      // POST /library/sources/:id/notebooks
      .post(
        "/library/sources/:id/notebooks",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          await s.sources.addToNotebook(me.actor, formField(body, "notebook_id"), id);
          return redirect(`/library/sources/${id}?notice=added_to_notebook`);
        }),
      )
      // POST /library/sources/:id/notebooks/:nb/remove
      .post(
        "/library/sources/:id/notebooks/:nb/remove",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          await s.sources.removeFromNotebook(me.actor, params.nb ?? "", id);
          return redirect(`/library/sources/${id}?notice=removed_from_notebook`);
        }),
      )
      // POST /library/sources/:id/refetch
      .post(
        "/library/sources/:id/refetch",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          try {
            await s.sources.refetch(me.actor, id);
          } catch (e) {
            if (!(e instanceof AppError) || e.code !== "conflict") throw e;
            return redirect(`/library/sources/${id}?notice=already_fetching`);
          }
          return redirect(`/library/sources/${id}?notice=refetching`);
        }),
      )
      // GET /library/sources/:id/delete — asks first
      .get(
        "/library/sources/:id/delete",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const row = await s.sources.get(me.actor, params.id ?? "");
          return confirmDeletePage({
            user: h.layoutUser(me),
            what: "source",
            name: row.title || row.url,
            action: `/library/sources/${row.id}/delete`,
            cancel: `/library/sources/${row.id}`,
            note: "It leaves its notebooks and the search index. Notes that mention it are kept.",
          });
        }),
      )
      // POST /library/sources/:id/delete
      .post(
        "/library/sources/:id/delete",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await sourcePost(request, body, id);
          if (me instanceof Response) return me;
          await s.sources.delete(me.actor, id);
          return redirect("/library?notice=deleted");
        }),
      )
  );
}

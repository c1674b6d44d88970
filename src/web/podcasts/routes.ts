// Web routes for podcasts: the list, the "Make a podcast" form (costs shown first), an episode's
// page, its audio for the player (the session cookie stands in for the API key) and deletion.
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import { nextKey } from "../../paging.ts";
import type { Actor } from "../../actor.ts";
import { audioResponse } from "../../features/podcasts/audio-response.ts";
import { DEFAULT_PODCAST_FORMAT } from "../../features/podcasts/formats.ts";
import { PODCAST_STATUSES, type PodcastPublic } from "../../features/podcasts/schema.ts";
import type { Flash } from "../../http/html/html.ts";
import { redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import {
  confirmDeletePage,
  flashOf,
  here,
  ID_RE,
  PAGE_SIZE,
  cursorOf,
  PICKER_LIMIT,
  signInFirst,
} from "../library/common.ts";
import { createPodcastPage, type CreateForm, type CreatePageInput, type PickableSource } from "./form-page.ts";
import { readCreateForm, selectionOf, serviceFieldError } from "./form.ts";
import { isFormat } from "./format-picker.ts";
import { fragmentResponse, fragmentSignedOut } from "../live.ts";
import { podcastListPage, podcastLive, podcastPage, podcastRow, type Origin } from "./pages.ts";

const POD_RE = /^pod_[0-9A-Z]{26}$/;
/** The form lists this many ready sources, newest first, plus any chosen ones. */
const SOURCE_CHOICES = 100;
const NOTICES: Record<string, Flash> = {
  created: { kind: "ok", text: "The episode is queued. It takes a little while; this page shows where it is." },
  deleted: { kind: "ok", text: "The episode was deleted." },
};

export function podcastWebRoutes(s: Pick<WebDeps, "live" | "notebooks" | "podcasts" | "sources">, h: WebHelpers) {
  async function choices(actor: Actor, chosen: string[]): Promise<PickableSource[]> {
    const rows = (await s.sources.list(actor, { limit: SOURCE_CHOICES, status: "ready" })).data;
    const listed = new Set(rows.map((r) => r.id));
    for (const id of chosen) {
      if (listed.has(id) || !ID_RE.source.test(id)) continue;
      const row = await tryGet(() => s.sources.get(actor, id));
      if (row) rows.push(await s.sources.publicOf(row));
    }
    return rows.map((r) => ({ id: r.id, title: r.title || r.url, words: r.word_count }));
  }

  async function formResponse(
    me: SignedIn,
    form: CreateForm,
    extra: Pick<CreatePageInput, "problem" | "status"> = {},
  ): Promise<Response> {
    let quote = await s.podcasts.quote(me.actor, null);
    const valid = !form.errors.sources && !form.errors.notebook;
    if (valid && (form.sourceIds.length || form.notebookId)) {
      try {
        quote = await s.podcasts.quote(me.actor, selectionOf(form));
      } catch (e) {
        form.errors = { ...form.errors, ...serviceFieldError(e) };
      }
    }
    const notebooks = (await s.notebooks.list(me.actor, { limit: PICKER_LIMIT })).data.map((nb) => ({
      id: nb.id,
      name: nb.name,
    }));
    const status = extra.status ?? (Object.keys(form.errors).length ? 422 : 200);
    return createPodcastPage({
      user: h.layoutUser(me),
      form,
      sources: await choices(me.actor, form.sourceIds),
      notebooks,
      quote,
      ...extra,
      status,
    });
  }

  async function originOf(actor: Actor, p: PodcastPublic): Promise<Origin> {
    const sources: Origin["sources"] = [];
    for (const id of p.source_ids) {
      const row = await tryGet(() => s.sources.get(actor, id));
      if (row) sources.push({ id: row.id, title: row.title || row.url });
    }
    const nb = p.notebook_id ? await tryGet(() => s.notebooks.getRow(actor, p.notebook_id!)) : undefined;
    return { sources, notebook: nb ? { id: nb.id, name: nb.name } : undefined };
  }

  const podcastPost = async (request: Request, body: unknown, id: string) =>
    (await h.checkSessionPost(request, body)) ?? signInFirst(`/podcasts/${id}`);

  return (
    new Elysia()
      // GET /podcasts
      .get(
        "/podcasts",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const status = PODCAST_STATUSES.find((x) => x === query.status);
          const since = await s.live.events.latestSeq(); // before reading: a change after it reaches the page live
          const page = await s.podcasts.list(me.actor, {
            limit: PAGE_SIZE,
            cursor: cursorOf(query.before, POD_RE),
            status,
          });
          return podcastListPage({
            user: h.layoutUser(me),
            podcasts: page.data,
            next: nextKey(page),
            status,
            flash: flashOf(NOTICES, query.notice),
            since,
          });
        }),
      )
      // GET /podcasts/new?source=…&source=…|notebook=…&format=… — the form, prefilled
      .get(
        "/podcasts/new",
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const q = new URL(request.url).searchParams;
          const sourceIds = [...new Set(q.getAll("source").filter((id) => ID_RE.source.test(id)))];
          const notebook = q.get("notebook") ?? "";
          const format = q.get("format") ?? "";
          const form: CreateForm = {
            sourceIds,
            notebookId: ID_RE.notebook.test(notebook) && !sourceIds.length ? notebook : "",
            format: isFormat(format) ? format : DEFAULT_PODCAST_FORMAT,
            title: "",
            language: "",
            errors: {},
          };
          // A prefilled choice that cannot be used (not ready yet) says why, but the page itself is fine.
          return formResponse(me, form, { status: 200 });
        }),
      )
      // POST /podcasts — intent=estimate re-renders with the costs; intent=create makes the episode.
      .post(
        "/podcasts",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/podcasts/new");
          const form = readCreateForm(body);
          const estimate = (body as Record<string, unknown> | null)?.intent === "estimate";
          if (estimate || Object.keys(form.errors).length) return formResponse(me, form);
          try {
            const podcast = await s.podcasts.create(me.actor, {
              ...selectionOf(form),
              format: form.format as PodcastPublic["format"],
              title: form.title || undefined,
              language: form.language || undefined,
            });
            return redirect(`/podcasts/${podcast.id}?notice=created`);
          } catch (e) {
            if (e instanceof AppError && e.code === "insufficient_credit") {
              const problem = `Not enough AI credits: ${e.detail ?? e.message}. Choose a shorter format (Brief costs the least) or wait until your allowance renews.`;
              return formResponse(me, form, { problem, status: 402 });
            }
            form.errors = serviceFieldError(e);
            return formResponse(me, form);
          }
        }),
      )
      // GET /podcasts/:id — status, player, transcript
      .get(
        "/podcasts/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const since = await s.live.events.latestSeq();
          const podcast = await s.podcasts.get(me.actor, params.id ?? "");
          return podcastPage({
            user: h.layoutUser(me),
            podcast,
            origin: await originOf(me.actor, podcast),
            flash: flashOf(NOTICES, query.notice),
            since,
          });
        }),
      )
      // GET /podcasts/:id/live[?part=row] — what changes on the episode's page (or its list line), for the live script
      .get(
        "/podcasts/:id/live",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return fragmentSignedOut();
          const podcast = await s.podcasts.get(me.actor, params.id ?? "");
          if (query.part === "row") return fragmentResponse(podcastRow(podcast));
          return fragmentResponse(podcastLive(podcast, await originOf(me.actor, podcast)));
        }),
      )
      // GET /podcasts/:id/audio[?download=1] — the MP3 with Range, for the player and downloads
      .get(
        "/podcasts/:id/audio",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(`/podcasts/${POD_RE.test(params.id ?? "") ? params.id : ""}`);
          return audioResponse(request, await s.podcasts.audioFile(me.actor, params.id ?? ""), {
            attachment: query.download === "1",
          });
        }),
      )
      // GET /podcasts/:id/delete — asks first
      .get(
        "/podcasts/:id/delete",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const p = await s.podcasts.get(me.actor, params.id ?? "");
          return confirmDeletePage({
            user: h.layoutUser(me),
            what: "episode",
            name: p.title,
            action: `/podcasts/${p.id}/delete`,
            cancel: `/podcasts/${p.id}`,
            note: "Its audio file and transcript are removed. The sources it was made from are kept.",
          });
        }),
      )
      // POST /podcasts/:id/delete
      .post(
        "/podcasts/:id/delete",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await podcastPost(request, body, id);
          if (me instanceof Response) return me;
          await s.podcasts.delete(me.actor, id);
          return redirect("/podcasts?notice=deleted");
        }),
      )
  );
}

async function tryGet<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") return undefined;
    throw e;
  }
}

// Saving from elsewhere: the Web Share Target (/share) and the bookmarklet's window (/save). Both read
// the link, sign the person in first when needed (and come back), save through the sources service
// with a CSRF-protected POST, then show the source pending → ready through the live updates.
import { Elysia } from "elysia";
import type { Actor } from "../../actor.ts";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import { pageHeaders } from "../../http/html/html.ts";
import { formField, MAX_NEXT, redirect, signInFirst } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { here, ID_RE, PICKER_LIMIT } from "../library/common.ts";
import {
  problemPage,
  savedCard,
  savedPage,
  saveWindowPage,
  sharePage,
  type CaptureKind,
  type SaveForm,
} from "./pages.ts";
import { readShared } from "./shared-url.ts";

const MAX_TITLE = 500;

/** Where to come back to after signing in: the link and, while it fits, the title. */
function returnPath(path: string, url: string, title: string): string {
  const withTitle = `${path}?${new URLSearchParams({ url, title })}`;
  return title && withTitle.length <= MAX_NEXT ? withTitle : `${path}?${new URLSearchParams({ url })}`;
}

/** The service's word on a link it refuses, for people. */
const linkProblem = (e: AppError) =>
  `This link cannot be saved: the address ${e.extra.errors?.[0]?.message ?? e.message}.`;
const refused = (e: unknown): e is AppError => e instanceof AppError && e.code === "validation_failed";

/**
 * Whether the GET came from the share sheet or this site (Sec-Fetch-Site none / same-origin): only then
 * may the page save without a click. Another site linking here gets the Save button (decisions.md).
 */
const mayAutoSave = (request: Request) => ["none", "same-origin"].includes(request.headers.get("sec-fetch-site") ?? "");

export function captureWebRoutes(s: Pick<WebDeps, "live" | "notebooks" | "sources">, h: WebHelpers) {
  const notebooksOf = async (actor: Actor) => (await s.notebooks.list(actor, { limit: PICKER_LIMIT })).data;

  /** The link's state: a problem page, the saved source's page, or null when it is new and valid. */
  async function known(kind: CaptureKind, me: SignedIn, url: string): Promise<Response | null> {
    try {
      const check = await s.sources.check(me.actor, url);
      return check.source_id ? redirect(`/${kind}/sources/${check.source_id}?already=1`) : null;
    } catch (e) {
      if (!refused(e)) throw e;
      return problemPage({ kind, user: h.layoutUser(me), message: linkProblem(e), url });
    }
  }

  function saveForm(me: SignedIn, form: SaveForm) {
    return notebooksOf(me.actor).then((notebooks) => saveWindowPage({ user: h.layoutUser(me), form, notebooks }));
  }

  /** The saved source's page and its live fragment, for one of the two flows. */
  function statusRoutes(kind: CaptureKind) {
    return (
      new Elysia()
        // GET /share/sources/:id, GET /save/sources/:id
        .get(
          `/${kind}/sources/:id`,
          h.page(async ({ request, params, query }) => {
            const me = await h.signedIn(request);
            if (!me) return signInFirst(here(request));
            const since = await s.live.events.latestSeq(); // before the read: a change after it arrives live
            const source = await s.sources.publicOf(await s.sources.get(me.actor, params.id ?? ""));
            return savedPage({ kind, user: h.layoutUser(me), source, already: query.already === "1", since });
          }),
        )
        // GET /share/sources/:id/card, GET /save/sources/:id/card — the card the live updates swap in
        .get(
          `/${kind}/sources/:id/card`,
          h.page(async ({ request, params }) => {
            const me = await h.signedIn(request);
            if (!me) return signInFirst(`/${kind}/sources/${params.id ?? ""}`);
            const source = await s.sources.publicOf(await s.sources.get(me.actor, params.id ?? ""));
            return new Response(savedCard(source, kind).value, { headers: pageHeaders() });
          }),
        )
    );
  }

  return (
    new Elysia()
      // GET /share?title=&text=&url= — the manifest's share_target; saving is the POST below
      .get(
        "/share",
        h.page(async ({ request, query }) => {
          const shared = readShared(query);
          const me = await h.signedIn(request);
          if (!shared.url) {
            const message = "Nothing that was shared looks like a link. Share a web page (an http or https address).";
            return problemPage({ kind: "share", user: me ? h.layoutUser(me) : null, message });
          }
          if (!me) return signInFirst(returnPath("/share", shared.url, shared.title.slice(0, MAX_TITLE)));
          const title = shared.title.slice(0, MAX_TITLE);
          return (
            (await known("share", me, shared.url)) ??
            sharePage({ user: h.layoutUser(me), url: shared.url, title, auto: mayAutoSave(request) })
          );
        }),
      )
      // POST /share
      .post(
        "/share",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          const url = formField(body, "url").trim();
          const title = formField(body, "title").trim().slice(0, MAX_TITLE);
          if (!me) return signInFirst(returnPath("/share", url, title));
          try {
            const { source, created } = await s.sources.create(me.actor, { url, title: title || undefined });
            return redirect(`/share/sources/${source.id}${created ? "" : "?already=1"}`);
          } catch (e) {
            if (!refused(e)) throw e;
            return sharePage({ user: h.layoutUser(me), url, title, auto: false, error: linkProblem(e) });
          }
        }),
      )
      // GET /save?url=&title= — the bookmarklet's window
      .get(
        "/save",
        h.page(async ({ request, query }) => {
          const url = query.url?.trim() ?? "";
          const title = query.title?.trim().slice(0, MAX_TITLE) ?? "";
          const me = await h.signedIn(request);
          if (!me) return signInFirst(returnPath("/save", url, title));
          if (!url) {
            const message = "No link was given. Use the bookmarklet on the page you want to save.";
            return problemPage({ kind: "save", user: h.layoutUser(me), message });
          }
          return (await known("save", me, url)) ?? saveForm(me, { url, title, notebookId: "" });
        }),
      )
      // POST /save
      .post(
        "/save",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          const form: SaveForm = {
            url: formField(body, "url").trim(),
            title: formField(body, "title").trim(),
            notebookId: formField(body, "notebook_id"),
          };
          if (!me) return signInFirst(returnPath("/save", form.url, form.title.slice(0, MAX_TITLE)));
          if (form.title.length > MAX_TITLE)
            return saveForm(me, { ...form, errors: { title: "The title is longer than 500 characters." } });
          if (form.notebookId && !ID_RE.notebook.test(form.notebookId))
            return saveForm(me, { ...form, errors: { notebook_id: "Choose a notebook from the list." } });
          try {
            const { source, created } = await s.sources.create(me.actor, {
              url: form.url,
              title: form.title || undefined,
              notebook_ids: form.notebookId ? [form.notebookId] : [],
            });
            return redirect(`/save/sources/${source.id}${created ? "" : "?already=1"}`);
          } catch (e) {
            if (!refused(e)) throw e;
            const path = e.extra.errors?.[0]?.path ?? "";
            const errors = path.startsWith("notebook_ids")
              ? { notebook_id: "That notebook no longer exists." }
              : { url: linkProblem(e) };
            return saveForm(me, { ...form, errors });
          }
        }),
      )
      .use(statusRoutes("share"))
      .use(statusRoutes("save"))
  );
}

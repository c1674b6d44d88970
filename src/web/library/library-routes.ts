// Web routes of the Library page: the list (GET /library), the cards/list choice, triage of one
// source or of a selection (archive, favorite, tag, notebook, delete), the fragments live updates
// swap in, and the page's script. Forms answer 303 back to the page they came from; the page's
// script sends the same forms with `fragment=card|row` and gets JSON with the re-rendered cards.
import { Elysia } from "elysia";
import { AppError, invalid } from "../../errors.ts";
import type { Actor } from "../../actor.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { nextKey } from "../../paging.ts";
import { pageHeaders, type Flash } from "../../http/html/html.ts";
import type { WebDeps } from "../deps.ts";
import { formField, redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { flashOf, here, PICKER_LIMIT, signInFirst, TAG_SUGGESTIONS } from "./common.ts";
import { sourceItem, type CardContext, type Layout } from "./library-cards.ts";
import { CARD_PICKER, confirmBulkDeletePage, libraryListPage, type AddForm } from "./library-pages.ts";
import { backOf, filtered, hrefOf, inView, listQuery, paramsOfBack, readParams } from "./library-query.ts";
import { LIBRARY_SCRIPT } from "./library-script.ts";
import { applyChange, count, DONE, doneFlash, readChange, readIds, type Change } from "./library-triage.ts";

type Deps = Pick<WebDeps, "accounts" | "live" | "notebooks" | "sources">;

const NOTICES: Record<string, Flash> = {
  added: {
    kind: "ok",
    text: "Saved. It is being fetched; it shows as Ready when its text is in (this list updates by itself).",
  },
  exists: { kind: "ok", text: "This link is already saved in your library." },
  exists_added: { kind: "ok", text: "This link was already saved; it is now in the notebooks you chose." },
  deleted: { kind: "ok", text: "The source was deleted." },
  added_quick: {
    kind: "ok",
    text: "Saved. It is being fetched; a podcast episode is made once it is ready — find it under Podcasts.",
  },
  none_selected: { kind: "error", text: "Select some sources first." },
  bad_tag: { kind: "error", text: "Enter a tag of at most 100 characters." },
};

export function libraryRoutes(s: Deps, h: WebHelpers) {
  const notebooksOf = async (actor: Actor) => (await s.notebooks.list(actor, { limit: PICKER_LIMIT })).data;

  /** The Library page for this query, with whatever a form left to show. */
  async function listResponse(
    me: SignedIn,
    q: Record<string, string | undefined>,
    extra: { form?: AddForm; flash?: Flash; status?: number } = {},
  ): Promise<Response> {
    const params = readParams(q);
    const liveSince = await s.live.events.latestSeq(); // read before the rows: a change after it reaches the page live
    const [page, notebooks, counts, prefs, tags] = await Promise.all([
      s.sources.list(me.actor, listQuery(params)),
      notebooksOf(me.actor),
      s.sources.viewCounts(me.actor),
      s.accounts.preferences(me.user.id),
      s.sources.tagCounts(me.actor),
    ]);
    return libraryListPage({
      user: h.layoutUser(me),
      sources: page.data,
      next: nextKey(page),
      params,
      layout: prefs.library_view,
      notebooks,
      counts: filtered(params) ? null : counts,
      anything: counts.all > 0,
      tagNames: tags.slice(0, TAG_SUGGESTIONS).map((t) => t.name),
      selectAll: q.select === "all",
      liveSince,
      ...extra,
    });
  }

  /**
   * Applies the change to each id (already validated); ids that are not the owner's (or are gone) are
   * skipped and counted. The answer: JSON with the re-rendered cards for the page's script, else 303 back.
   */
  async function answer(me: SignedIn, body: unknown, ids: string[], c: Change, bulk: boolean): Promise<Response> {
    const back = backOf(formField(body, "back"));
    const params = paramsOfBack(back);
    const done: SourcePublic[] = [];
    let missing = 0;
    for (const id of ids) {
      try {
        done.push(await applyChange(s.sources, me.actor, id, c));
      } catch (e) {
        // One card's source that is not the owner's is a 404, as everywhere; a selection counts them.
        if (!bulk || !(e instanceof AppError) || e.code !== "not_found" || c.op === "notebook") throw e;
        missing++;
      }
    }
    const fragment = formField(body, "fragment");
    if (fragment === "card" || fragment === "row") {
      const ctx = await cardContext(me, back);
      const layout: Layout = fragment === "card" ? "cards" : "list";
      const items = done.map((src) => ({
        id: src.id,
        in_view: inView(src, params),
        html: sourceItem(src, ctx, layout).value,
      }));
      const one = done.length === 1 && ids.length === 1 ? ` “${done[0]!.title || done[0]!.url}”` : "";
      const said = one ? DONE[c.op](1).replace("1 source", one.trim()) : DONE[c.op](done.length);
      const text = c.op === "tag" ? said.replace(/\.$/, ` #${c.tag}.`) : said;
      return Response.json({ items, message: missing ? `${text} ${count(missing)} could not be found.` : text });
    }
    const sep = back.includes("?") ? "&" : "?";
    const stays = done.length === 1 && inView(done[0]!, params) ? `#s-${done[0]!.id}` : "";
    return redirect(`${back}${sep}done=${c.op}&n=${done.length}${missing ? `&missing=${missing}` : ""}${stays}`);
  }

  async function cardContext(me: SignedIn, back: string): Promise<CardContext> {
    const notebooks = await notebooksOf(me.actor);
    return {
      csrf: h.layoutUser(me).csrfToken,
      back,
      params: paramsOfBack(back),
      names: new Map(notebooks.map((nb) => [nb.id, nb.name])),
      picker: notebooks.slice(0, CARD_PICKER),
    };
  }

  /** A fetch from the page's script gets problems as JSON (it shows their words); a form, the error page. */
  const jsonProblems =
    (fn: (ctx: Parameters<Parameters<WebHelpers["page"]>[0]>[0]) => Promise<Response>) =>
    async (ctx: Parameters<Parameters<WebHelpers["page"]>[0]>[0]): Promise<Response> => {
      try {
        return await fn(ctx);
      } catch (e) {
        const f = formField(ctx.body, "fragment");
        if (!(e instanceof AppError) || (f !== "card" && f !== "row")) throw e;
        return Response.json(
          { title: e.message, detail: e.extra.errors?.[0]?.message ?? e.message },
          { status: e.status },
        );
      }
    };

  async function fragment(request: Request, id: string, layout: Layout): Promise<Response> {
    const me = await h.signedIn(request);
    if (!me) return signInFirst(`/library/sources/${id}`);
    const source = await s.sources.publicOf(await s.sources.get(me.actor, id), false);
    const ctx = await cardContext(me, backOf(new URL(request.url).searchParams.get("back") ?? ""));
    return new Response(sourceItem(source, ctx, layout).value, { headers: pageHeaders() });
  }

  const routes = new Elysia()
    // GET /library — a triage view (inbox by default) with filters, as cards or a list
    .get(
      "/library",
      h.page(async ({ request, query }) => {
        const me = await h.signedIn(request);
        if (!me) return signInFirst(here(request));
        return listResponse(me, query, { flash: doneFlash(query) ?? flashOf(NOTICES, query.notice) });
      }),
    )
    // POST /library/layout — cards or list, kept in the account's preferences
    .post(
      "/library/layout",
      h.page(async ({ request, body }) => {
        const me = await h.checkSessionPost(request, body);
        if (!me) return signInFirst("/library");
        const layout = formField(body, "layout");
        if (layout !== "cards" && layout !== "list") throw invalid("layout", "must be cards or list");
        await s.accounts.updatePreferences(me.user.id, { library_view: layout });
        return redirect(backOf(formField(body, "back")));
      }),
    )
    // POST /library/sources/:id/triage — archive, favorite, tag or add to a notebook, one source
    .post(
      "/library/sources/:id/triage",
      h.page(
        jsonProblems(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(`/library/sources/${id}`);
          const change = readChange(body);
          if (change === "bad_tag") {
            if (formField(body, "fragment")) throw invalid("tag", "Enter a tag of at most 100 characters.");
            const back = backOf(formField(body, "back"));
            return redirect(`${back}${back.includes("?") ? "&" : "?"}notice=bad_tag`);
          }
          return answer(me, body, [id], change, false);
        }),
      ),
    )
    // POST /library/bulk — the same changes for the selected sources; Delete asks on a page first
    .post(
      "/library/bulk",
      h.page(
        jsonProblems(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/library");
          const back = backOf(formField(body, "back"));
          const ids = readIds(body);
          const sep = back.includes("?") ? "&" : "?";
          if (!ids.length) {
            if (formField(body, "fragment")) throw invalid("ids", "Select some sources first.");
            return redirect(`${back}${sep}notice=none_selected`);
          }
          if (formField(body, "op") === "delete") {
            const found: SourcePublic[] = [];
            for (const id of ids) {
              const row = await s.sources.get(me.actor, id).catch((e: unknown) => {
                if (e instanceof AppError && e.code === "not_found") return undefined;
                throw e;
              });
              if (row) found.push(await s.sources.publicOf(row));
            }
            if (!found.length) return redirect(`${back}${sep}notice=none_selected`);
            return confirmBulkDeletePage({ user: h.layoutUser(me), sources: found, back });
          }
          const change = readChange(body);
          if (change === "bad_tag") {
            if (formField(body, "fragment")) throw invalid("tag", "Enter a tag of at most 100 characters.");
            return redirect(`${back}${sep}notice=bad_tag`);
          }
          return answer(me, body, ids, change, true);
        }),
      ),
    )
    // POST /library/bulk/delete — the confirmation's answer
    .post(
      "/library/bulk/delete",
      h.page(async ({ request, body }) => {
        const me = await h.checkSessionPost(request, body);
        if (!me) return signInFirst("/library");
        const back = backOf(formField(body, "back"));
        let n = 0;
        let missing = 0;
        for (const id of readIds(body)) {
          try {
            await s.sources.delete(me.actor, id);
            n++;
          } catch (e) {
            if (!(e instanceof AppError) || e.code !== "not_found") throw e;
            missing++;
          }
        }
        // The page the person came from may have been past a deleted row: the first page is sure to exist.
        const first = hrefOf({ ...paramsOfBack(back), before: undefined });
        return redirect(
          `${first}${first.includes("?") ? "&" : "?"}done=deleted&n=${n}${missing ? `&missing=${missing}` : ""}`,
        );
      }),
    )
    // GET /library/sources/:id/card, GET /library/sources/:id/row — one source as the list shows it
    .get(
      "/library/sources/:id/card",
      h.page(({ request, params }) => fragment(request, params.id ?? "", "cards")),
    )
    .get(
      "/library/sources/:id/row",
      h.page(({ request, params }) => fragment(request, params.id ?? "", "list")),
    )
    // GET /assets/library.js — versioned by its path's ?v=, so it may be cached for good
    .get(
      "/assets/library.js",
      () =>
        new Response(LIBRARY_SCRIPT, {
          headers: {
            "content-type": "text/javascript; charset=utf-8",
            "cache-control": "public, max-age=31536000, immutable",
            "x-content-type-options": "nosniff",
          },
        }),
      { detail: { hide: true } },
    );
  return { routes, listResponse };
}

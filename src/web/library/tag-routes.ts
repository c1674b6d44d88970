// The tag pages: /tags (every tag, and pairs worth merging) and /tags/:name (its sources and highlights),
// with rename (merging onto an existing name), delete and merge as plain forms.
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { Flash } from "../../http/html/html.ts";
import type { WebDeps } from "../deps.ts";
import { formField, redirect } from "../http.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { confirmDeletePage, flashOf, here, signInFirst } from "./common.ts";
import { tagHref, tagPage, tagsPage } from "./tag-pages.ts";

const SHOWN = 50;
const NOTICES: Record<string, Flash> = {
  renamed: { kind: "ok", text: "Renamed on every source that carried it." },
  merged: { kind: "ok", text: "Merged: every source now carries this tag once." },
  deleted: { kind: "ok", text: "The tag was taken off every source. The sources are still in your library." },
};

export function tagWebRoutes(s: Pick<WebDeps, "sources" | "highlights" | "tagging">, h: WebHelpers) {
  async function tagResponse(
    me: SignedIn,
    name: string,
    extra: { rename?: { value: string; error?: string }; flash?: Flash; status?: number } = {},
  ) {
    const counts = await s.sources.tagCounts(me.actor);
    const count = counts.find((t) => t.name === name)?.count ?? 0;
    if (count === 0) throw new AppError("not_found", "No source carries this tag");
    const sources = await s.sources.list(me.actor, { limit: SHOWN, tag: name });
    const highlights = await s.highlights.list(me.actor, { limit: SHOWN, tag: name });
    return tagPage({
      user: h.layoutUser(me),
      name,
      count,
      sources: sources.data,
      moreSources: sources.next_cursor !== null,
      highlights: highlights.data,
      moreHighlights: highlights.next_cursor !== null,
      ...extra,
    });
  }

  return (
    new Elysia()
      // GET /tags
      .get(
        "/tags",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const q = typeof query.q === "string" ? query.q.trim().slice(0, 100) : "";
          return tagsPage({
            user: h.layoutUser(me),
            tags: await s.sources.tagCounts(me.actor, q || undefined),
            similar: q ? [] : await s.tagging.similar(me.actor, 20),
            q: q || undefined,
            flash: flashOf(NOTICES, query.notice),
          });
        }),
      )
      // GET /tags/:name
      .get(
        "/tags/:name",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return tagResponse(me, params.name ?? "", { flash: flashOf(NOTICES, query.notice) });
        }),
      )
      // POST /tags/merge — one of the pairs that look alike
      .post(
        "/tags/merge",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/tags");
          const keep = formField(body, "keep");
          await s.sources.renameTag(me.actor, formField(body, "merge"), keep);
          return redirect(`${tagHref(keep)}?notice=merged`);
        }),
      )
      // POST /tags/:name/rename
      .post(
        "/tags/:name/rename",
        h.page(async ({ request, body, params }) => {
          const name = params.name ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(tagHref(name));
          const next = formField(body, "name").trim();
          const error = !next
            ? "Give the tag a name."
            : next.length > 100
              ? "A tag is at most 100 characters."
              : undefined;
          if (error) return tagResponse(me, name, { rename: { value: next, error }, status: 422 });
          const merging = next !== name && (await s.sources.tagCounts(me.actor)).some((t) => t.name === next);
          await s.sources.renameTag(me.actor, name, next);
          return redirect(`${tagHref(next)}?notice=${merging ? "merged" : "renamed"}`);
        }),
      )
      // GET /tags/:name/delete — asks first
      .get(
        "/tags/:name/delete",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const name = params.name ?? "";
          const count = (await s.sources.tagCounts(me.actor)).find((t) => t.name === name)?.count ?? 0;
          if (count === 0) throw new AppError("not_found", "No source carries this tag");
          return confirmDeletePage({
            user: h.layoutUser(me),
            what: "tag",
            name,
            action: `${tagHref(name)}/delete`,
            cancel: tagHref(name),
            note: `It is taken off ${count === 1 ? "the source" : `all ${count} sources`} that carry it; the sources stay.`,
          });
        }),
      )
      // POST /tags/:name/delete
      .post(
        "/tags/:name/delete",
        h.page(async ({ request, body, params }) => {
          const name = params.name ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(tagHref(name));
          await s.sources.deleteTag(me.actor, name);
          return redirect("/tags?notice=deleted");
        }),
      )
  );
}

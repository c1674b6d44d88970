// The Highlights page and its CSV for the signed-in browser (the API's export needs a key).
import { Elysia } from "elysia";
import { csvStream } from "../../features/library/highlights/csv.ts";
import { contentDisposition } from "../../http/content-disposition.ts";
import { nextKey } from "../../paging.ts";
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { cursorOf, here, ID_RE, PAGE_SIZE, PICKER_LIMIT, signInFirst, TAG_SUGGESTIONS } from "./common.ts";
import { highlightsPage, type HighlightsFilter } from "./highlight-pages.ts";

const HIGHLIGHT_ID = /^hl_[0-9A-Z]{26}$/;

function filterOf(q: Record<string, string | undefined>): HighlightsFilter {
  const tag = q.tag?.trim();
  return {
    notebook: ID_RE.notebook.test(q.notebook ?? "") ? q.notebook : undefined,
    tag: tag && tag.length <= 100 ? tag : undefined,
  };
}

export function highlightWebRoutes(s: Pick<WebDeps, "highlights" | "notebooks" | "sources">, h: WebHelpers) {
  return (
    new Elysia()
      // GET /highlights
      .get(
        "/highlights",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const filter = filterOf(query);
          const page = await s.highlights.list(me.actor, {
            limit: PAGE_SIZE,
            cursor: cursorOf(query.before, HIGHLIGHT_ID),
            notebookId: filter.notebook,
            tag: filter.tag,
          });
          return highlightsPage({
            user: h.layoutUser(me),
            highlights: page.data,
            next: nextKey(page),
            filter,
            notebooks: (await s.notebooks.list(me.actor, { limit: PICKER_LIMIT })).data,
            tagNames: (await s.sources.tagCounts(me.actor)).slice(0, TAG_SUGGESTIONS).map((t) => t.name),
          });
        }),
      )
      // GET /highlights/export.csv — the same file as GET /api/v1/highlights/export.csv
      .get(
        "/highlights/export.csv",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const filter = filterOf(query);
          const rows = s.highlights.all(me.actor, { notebookId: filter.notebook, tag: filter.tag });
          return new Response(csvStream(rows), {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": contentDisposition("highlights.csv"),
              "cache-control": "no-store",
              "x-content-type-options": "nosniff",
            },
          });
        }),
      )
  );
}

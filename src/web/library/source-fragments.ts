// HTML fragments the live-updates script swaps into the library list: one source's row as it is now.
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import { pageHeaders } from "../../http/html/html.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { signInFirst, PICKER_LIMIT } from "./common.ts";
import { sourceRow } from "./source-pages.ts";

export function sourceFragmentRoutes(s: Pick<WebDeps, "notebooks" | "sources">, h: WebHelpers) {
  return (
    new Elysia()
      // GET /library/sources/:id/row — the <li> of the library list (404 once the source is gone)
      .get(
        "/library/sources/:id/row",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(`/library/sources/${params.id ?? ""}`);
          const source = await s.sources.publicOf(await s.sources.get(me.actor, params.id ?? ""), false);
          const names = new Map(
            (await s.notebooks.list(me.actor, { limit: PICKER_LIMIT })).data.map((nb) => [nb.id, nb.name]),
          );
          return new Response(sourceRow(source, names).value, { headers: pageHeaders() });
        }),
      )
  );
}

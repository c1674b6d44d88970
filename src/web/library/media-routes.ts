// The archived copy's images for the web app: the card thumbnail and the reader's images, behind the
// session like every other page (the API serves the same files to API keys).
import { Elysia } from "elysia";
import { mediaResponse } from "../../features/library/sources/media-response.ts";
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { ID_RE, signInFirst } from "./common.ts";

export function sourceMediaWebRoutes(s: Pick<WebDeps, "sources">, h: WebHelpers) {
  const readerOf = (id: string | undefined) => `/library/sources/${ID_RE.source.test(id ?? "") ? id : ""}`;
  return (
    new Elysia()
      // GET /sources/:id/image — the library card's thumbnail
      .get(
        "/sources/:id/image",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(readerOf(params.id));
          return mediaResponse(request, await s.sources.thumbnail(me.actor, params.id ?? ""), "revalidate");
        }),
      )
      // GET /sources/:id/media/:name — an image of the reader's archived copy
      .get(
        "/sources/:id/media/:name",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(readerOf(params.id));
          const file = await s.sources.mediaFile(me.actor, params.id ?? "", params.name ?? "");
          return mediaResponse(request, file, "immutable");
        }),
      )
  );
}

// The library part of the web app: sources and the reader, notebooks, notes, search and ask.
// It reuses the web app's session, CSRF and error-page helpers handed over by webRoutes.
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { notebookWebRoutes } from "./notebook-routes.ts";
import { noteWebRoutes } from "./note-routes.ts";
import { searchWebRoutes } from "./search-routes.ts";
import { sourceWebRoutes } from "./source-routes.ts";
import { sourceFragmentRoutes } from "./source-fragments.ts";
import { sourceMediaWebRoutes } from "./media-routes.ts";

export function libraryWebRoutes(
  s: Pick<WebDeps, "ask" | "live" | "notebooks" | "notes" | "search" | "sources">,
  h: WebHelpers,
) {
  return new Elysia()
    .use(sourceWebRoutes(s, h))
    .use(notebookWebRoutes(s, h))
    .use(noteWebRoutes(s, h))
    .use(searchWebRoutes(s, h))
    .use(sourceFragmentRoutes(s, h))
    .use(sourceMediaWebRoutes(s, h));
}

// The library part of the web app: sources and the reader, notebooks, notes, search and ask.
// It reuses the web app's session, CSRF and error-page helpers handed over by webRoutes.
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { notebookWebRoutes } from "./notebook-routes.ts";
import { noteWebRoutes } from "./note-routes.ts";
import { searchWebRoutes } from "./search-routes.ts";
import { sourceWebRoutes } from "./source-routes.ts";
import { libraryRoutes } from "./library-routes.ts";
import { pickerWebRoutes } from "./source-picker.ts";
import { tagWebRoutes } from "./tag-routes.ts";
import { highlightWebRoutes } from "./highlight-routes.ts";
import { readerWebRoutes } from "./reader-routes.ts";
import { readerHighlightRoutes } from "./reader-highlight-routes.ts";
import { sourceMediaWebRoutes } from "./media-routes.ts";

export function libraryWebRoutes(
  s: Pick<
    WebDeps,
    "accounts" | "ask" | "highlights" | "live" | "notebooks" | "notes" | "search" | "sources" | "tagging"
  >,
  h: WebHelpers,
) {
  const library = libraryRoutes(s, h);
  return new Elysia()
    .use(library.routes)
    .use(sourceWebRoutes(s, h, library.listResponse))
    .use(readerWebRoutes(s, h))
    .use(readerHighlightRoutes(s, h))
    .use(notebookWebRoutes(s, h))
    .use(noteWebRoutes(s, h))
    .use(searchWebRoutes(s, h))
    .use(pickerWebRoutes(s, h))
    .use(tagWebRoutes(s, h))
    .use(highlightWebRoutes(s, h))
    .use(sourceMediaWebRoutes(s, h));
}

// The HTTP side of paging (src/paging.ts): limit/cursor query schemas, the list response shape, RFC 8288 Link.
import { t } from "elysia";
import type { Page } from "../paging.ts";
import { QueryInt } from "./schema.ts";

export const Limit = (maximum = 100, fallback = 20) =>
  QueryInt({ minimum: 1, maximum, default: fallback, description: `Page size, 1–${maximum} (default ${fallback})` });
export const Cursor = t.String({ maxLength: 200, description: "The next_cursor of the previous page" });

// Query schemas are closed too: Elysia drops unknown parameters from a query string before it
// checks, but MCP tools reuse these schemas as their input and there an unknown field is refused.
export const ListQuery = t.Object(
  { limit: t.Optional(Limit()), cursor: t.Optional(Cursor) },
  { additionalProperties: false },
);

/** Sets the RFC 8288 Link header to the next page (same path and filters, the page's cursor) and returns the page. */
export function withLink<T>(
  page: Page<T>,
  limit: number,
  ctx: { request: Request; set: { headers: Record<string, unknown> } },
): Page<T> {
  if (page.next_cursor) {
    const url = new URL(ctx.request.url);
    url.searchParams.set("cursor", page.next_cursor);
    url.searchParams.set("limit", String(limit));
    ctx.set.headers["link"] = `<${url.pathname}${url.search}>; rel="next"`;
  }
  return page;
}

export const listOf = <T extends import("@sinclair/typebox").TSchema>(item: T) =>
  t.Object({ data: t.Array(item), next_cursor: t.Union([t.String(), t.Null()]) });

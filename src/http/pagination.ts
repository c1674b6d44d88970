// Cursor pagination shared by every list: opaque cursors over time-sortable ids, RFC 8288 Link.
import { t } from "elysia";
import { AppError } from "../errors.ts";
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

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ b: lastId })).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { b?: unknown };
    if (typeof v.b === "string" && v.b.length < 100) return v.b;
  } catch {
    // fall through
  }
  throw new AppError("validation_failed", "query.cursor: is not a cursor this API issued", {
    errors: [{ path: "query.cursor", message: "is not a cursor this API issued" }],
  });
}

/** Takes limit+1 rows, returns the page and next cursor, and sets the Link header. */
export function page<T extends { id: string }, P>(
  rows: T[],
  limit: number,
  toPublic: (row: T) => P,
  ctx: { request: Request; set: { headers: Record<string, unknown> } },
): { data: P[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const next = more ? encodeCursor(pageRows[pageRows.length - 1]!.id) : null;
  if (next) {
    const url = new URL(ctx.request.url);
    url.searchParams.set("cursor", next);
    url.searchParams.set("limit", String(limit));
    ctx.set.headers["link"] = `<${url.pathname}${url.search}>; rel="next"`;
  }
  return { data: pageRows.map(toPublic), next_cursor: next };
}

export const listOf = <T extends import("@sinclair/typebox").TSchema>(item: T) =>
  t.Object({ data: t.Array(item), next_cursor: t.Union([t.String(), t.Null()]) });

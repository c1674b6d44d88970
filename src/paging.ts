// Cursor paging of every list, shared by the API, MCP tools and web pages: one page = limit rows + an opaque cursor.
import { AppError } from "./errors.ts";

// A type, not an interface: MCP tools return it where a Record<string, unknown> is expected.
export type Page<T> = {
  data: T[];
  next_cursor: string | null;
};

/** What a paged service method takes besides its filters; `cursor` is a next_cursor this code issued. */
export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** The opaque cursor of a page ending at `lastKey` (an id, or a compound key such as "saved_at|id"). */
export function encodeCursor(lastKey: string): string {
  return Buffer.from(JSON.stringify({ b: lastKey })).toString("base64url");
}

/** The key to continue before; a cursor this code did not issue is a validation error (422), not a crash. */
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

/**
 * Reads one page: asks `fetch` for one row more than the page (so "is there more?" costs no count query),
 * keeps `limit` rows and, when the extra row came, makes the cursor from the last kept row's key.
 */
export async function paginate<R extends { id: string }>(
  limit: number,
  cursor: string | undefined,
  fetch: (opts: { limit: number; before?: string }) => Promise<R[]>,
  key: (row: R) => string = (row) => row.id,
): Promise<Page<R>> {
  const before = decodeCursor(cursor);
  const rows = await fetch(before === undefined ? { limit: limit + 1 } : { limit: limit + 1, before });
  if (rows.length <= limit) return { data: rows, next_cursor: null };
  const data = rows.slice(0, limit);
  return { data, next_cursor: encodeCursor(key(data[data.length - 1]!)) };
}

/** The same page with each row turned into its public shape (after trimming, so the extra row is never mapped). */
export async function mapPage<R, P>(page: Page<R>, toPublic: (rows: R[]) => P[] | Promise<P[]>): Promise<Page<P>> {
  return { data: await toPublic(page.data), next_cursor: page.next_cursor };
}

/** Walks a paged list to its end (exports); other requests get the thread between pages. */
export async function* walk<T>(list: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const page = await list(cursor);
    yield* page.data;
    if (page.next_cursor === null) return;
    cursor = page.next_cursor;
    await Bun.sleep(0);
  }
}

/** The raw key a page continues before: web pages keep readable `before=<id>` links and turn them back with encodeCursor. */
export function nextKey(page: Page<unknown>): string | null {
  return page.next_cursor === null ? null : (decodeCursor(page.next_cursor) ?? null);
}

// How the sources list pages: the API/MCP query as the service takes it, the cursor key of each sort.
import { invalid } from "../../../errors.ts";
import type { SourceRow } from "../../../db/schema/index.ts";
import type { PageQuery } from "../../../paging.ts";
import type { SourceListQuery } from "./schema.ts";

/** What a list of sources is filtered and ordered by. */
export interface SourceListFilter {
  limit: number;
  before?: string;
  notebookId?: string;
  status?: string;
  createdAfter?: string;
  tag?: string;
  archived?: boolean;
  favorite?: boolean;
  read?: boolean;
  original?: "ok" | "gone" | "moved";
  /** Default: newest created first (by id). */
  sort?: "created_at" | "saved_at";
  /** Rows come with an empty `content`: a list that shows no text need not read it (PostgreSQL keeps it out of line). */
  withoutText?: boolean;
}

/** The paging key of a listed source: its id, or "saved_at|id" when the list is sorted by saved time. */
export function cursorKey(row: SourceRow, sort: SourceListFilter["sort"]): string {
  return sort === "saved_at" ? `${row.savedAt ?? row.createdAt}|${row.id}` : row.id;
}

/** Splits a "saved_at|id" cursor (a cursor without "|" is an id with no saved time). */
export function splitSavedCursor(c: string): [string, string] {
  const i = c.lastIndexOf("|");
  return i === -1 ? ["", c] : [c.slice(0, i), c.slice(i + 1)];
}

/** A paged listing's filters: the repository's, with the opaque cursor in place of the raw `before` key. */
export type SourcePageQuery = PageQuery & Omit<SourceListFilter, "limit" | "before">;

/** The list query of the API route and the MCP tool (snake_case, any RFC 3339 offset) as the service takes it. */
export function sourceQuery(q: SourceListQuery): SourcePageQuery {
  return {
    limit: q.limit ?? 20,
    cursor: q.cursor,
    notebookId: q.notebook_id,
    status: q.status,
    createdAfter: q.created_after ? new Date(q.created_after).toISOString() : undefined,
    tag: q.tag,
    sort: q.sort,
    ...viewFilter(q),
  };
}

const flag = (v: "true" | "false" | undefined) => (v === undefined ? undefined : v === "true");

/** The triage view and the state filters as one set of conditions (a view's own condition wins over a contradicting flag). */
function viewFilter(q: SourceListQuery): Pick<SourceListFilter, "archived" | "favorite" | "read" | "original"> {
  const f = { archived: flag(q.archived), favorite: flag(q.favorite), read: flag(q.read), original: q.original };
  if (q.view === "inbox") return { ...f, archived: false, read: false };
  if (q.view === "archive") return { ...f, archived: true };
  if (q.view === "favorites") return { ...f, favorite: true };
  return f;
}

/** A cursor of one sort given to the other would silently skip or repeat rows: refused instead. */
export function checkCursor(f: SourceListFilter): void {
  if (f.before === undefined || f.before.includes("|") === (f.sort === "saved_at")) return;
  throw invalid("query.cursor", "belongs to a list in another order");
}

// The Library page's address: the triage view, the filters and the order read from the query string,
// the list filter the service takes (the API's own mapping, so both show the same sources), links that
// keep the rest, and whether a source still belongs on the page after a change.
import { SOURCE_STATUSES, type SourcePublic } from "../../features/library/sources/schema.ts";
import { sourceQuery, type SourcePageQuery } from "../../features/library/sources/list-query.ts";
import { safeNext } from "../http.ts";
import { cursorOf, ID_RE, PAGE_SIZE } from "./common.ts";

export const VIEWS = ["inbox", "favorites", "archive", "all"] as const;
export type LibraryView = (typeof VIEWS)[number];
export const VIEW_LABELS: Record<LibraryView, string> = {
  inbox: "Inbox",
  favorites: "Favorites",
  archive: "Archive",
  all: "All",
};

export interface LibraryParams {
  view: LibraryView;
  status?: (typeof SOURCE_STATUSES)[number];
  notebook?: string;
  tag?: string;
  original?: "gone" | "moved";
  sort?: "saved_at";
  /** The raw key of the page's last row (`id`, or `saved_at|id` sorted by saved time). */
  before?: string;
}

const SAVED_CURSOR = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\|src_[0-9A-Z]{26}$/;

/** The page's parameters; anything malformed is dropped, as a mistyped link should give the plain list. */
export function readParams(q: Record<string, string | undefined>): LibraryParams {
  const view = VIEWS.find((v) => v === q.view) ?? "inbox";
  const sort = q.sort === "saved_at" ? "saved_at" : undefined;
  const tag = q.tag?.trim();
  const before = q.before !== undefined && (sort ? SAVED_CURSOR : ID_RE.source).test(q.before) ? q.before : undefined;
  return {
    view,
    status: SOURCE_STATUSES.find((x) => x === q.status),
    notebook: ID_RE.notebook.test(q.notebook ?? "") ? q.notebook : undefined,
    tag: tag && tag.length <= 100 ? tag : undefined,
    original: q.original === "gone" || q.original === "moved" ? q.original : undefined,
    sort,
    before,
  };
}

/** Filters beyond the view (a tab's count covers the whole library only without them). */
export const filtered = (p: LibraryParams): boolean => Boolean(p.status || p.notebook || p.tag || p.original);

/** The service's list query, built by the API's own mapping of the view and filters. */
export function listQuery(p: LibraryParams): SourcePageQuery {
  const q = sourceQuery({
    limit: PAGE_SIZE,
    view: p.view,
    status: p.status,
    notebook_id: p.notebook,
    tag: p.tag,
    original: p.original,
    sort: p.sort,
  });
  return { ...q, cursor: cursorOf(p.before, p.sort ? SAVED_CURSOR : ID_RE.source) };
}

/** The query string of these parameters (the inbox, the default, is left out), in a stable order. */
export function queryOf(p: Partial<LibraryParams>): string {
  const parts: string[] = [];
  if (p.view && p.view !== "inbox") parts.push(`view=${p.view}`);
  for (const k of ["status", "notebook", "tag", "original", "sort", "before"] as const) {
    const v = p[k];
    if (v) parts.push(`${k}=${encodeURIComponent(v)}`);
  }
  return parts.join("&");
}

export function hrefOf(p: Partial<LibraryParams>): string {
  const q = queryOf(p);
  return q ? `/library?${q}` : "/library";
}

/** Where a form on the page sends the person back to: a library address, else the inbox. */
export function backOf(raw: string): string {
  const path = safeNext(raw, "/library");
  return /^\/library(\?|$)/.test(path) ? path : "/library";
}

/** Whether the source still matches the page it is shown on (archived from the inbox: no longer). */
export function inView(s: SourcePublic, p: LibraryParams): boolean {
  if (p.view === "inbox" && (s.archived || s.read_at !== null)) return false;
  if (p.view === "archive" && !s.archived) return false;
  if (p.view === "favorites" && !s.favorite) return false;
  if (p.status && s.status !== p.status) return false;
  if (p.tag !== undefined && !s.tags.includes(p.tag)) return false;
  if (p.notebook && !s.notebook_ids.includes(p.notebook)) return false;
  if (p.original && s.original_status !== p.original) return false;
  return true;
}

/** The parameters of a `back` address (its page of the list). */
export function paramsOfBack(back: string): LibraryParams {
  const url = new URL(back, "http://x");
  return readParams(Object.fromEntries(url.searchParams));
}

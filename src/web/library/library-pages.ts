// The Library page (GET /library): add a link, search, triage tabs with counts, filters, cards or a
// compact list with per-source and bulk actions, paging, and the keyboard's help dialog.
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { ViewCounts } from "../../features/library/sources/repo.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { formatPicker } from "../podcasts/format-picker.ts";
import { csrfInput, fieldError, libraryPage, select } from "./common.ts";
import { sourceItem, type CardContext, type Layout } from "./library-cards.ts";
import { filtered, hrefOf, VIEW_LABELS, VIEWS, type LibraryParams } from "./library-query.ts";
import { LIBRARY_SCRIPT_PATH } from "./library-script.ts";

export interface AddForm {
  url?: string;
  title?: string;
  notebookIds?: string[];
  /** Make a quick podcast once the source is ready, in this format. */
  quick?: boolean;
  podcastFormat?: string;
  errors?: { url?: string; title?: string; notebook_ids?: string; podcast_format?: string };
}

function notebookChecks(notebooks: NotebookPublic[], checked: string[]): SafeHtml {
  if (!notebooks.length) return html``;
  return html`<fieldset class="picklist"><legend>Notebooks</legend>${notebooks.map(
    (nb) =>
      html`<label class="check"><input type="checkbox" name="notebook_ids" value="${nb.id}"${checked.includes(nb.id) ? html` checked` : ""}> ${nb.name}</label>`,
  )}</fieldset>`;
}

/** "Add a link": the link and Save on one line; title, notebooks and a quick podcast folded below. */
function addForm(user: LayoutUser, notebooks: NotebookPublic[], f: AddForm): SafeHtml {
  const e = f.errors ?? {};
  const more = Boolean(f.title || f.notebookIds?.length || e.title || e.notebook_ids);
  return html`<form method="post" action="/library/sources" class="card add" novalidate>
  ${csrfInput(user.csrfToken)}
  <div class="label-row"><label for="f-url">Link</label><span class="muted shortcut" data-shortcut-hint hidden>Press <kbd>a</kbd> to add a link, <kbd>?</kbd> for all keys</span></div>
  <div class="pair"><input id="f-url" name="url" type="url" value="${f.url ?? ""}" placeholder="https://…" required maxlength="2048" autocomplete="off" aria-keyshortcuts="a"${e.url ? html` aria-invalid="true" aria-describedby="f-url-error"` : ""}><button type="submit">Save link</button></div>
  ${fieldError("f-url", e.url)}
  <details${more ? html` open` : ""}>
    <summary>Title and notebooks</summary>
    <label for="f-title">Title <span class="muted">(optional)</span></label>
    <input id="f-title" name="title" type="text" value="${f.title ?? ""}" maxlength="500" autocomplete="off"${e.title ? html` aria-invalid="true"` : ""}>
    ${fieldError("f-title", e.title)}
    ${notebookChecks(notebooks, f.notebookIds ?? [])}
    ${fieldError("f-notebooks", e.notebook_ids)}
  </details>
  <details${f.quick || e.podcast_format ? html` open` : ""}>
    <summary>Quick podcast</summary>
    <label class="check"><input type="checkbox" name="generate_quick_podcast" value="1"${f.quick ? html` checked` : ""}> <span>Make a podcast episode when it is ready <span class="muted">(uses AI credits)</span></span></label>
    ${formatPicker({ name: "podcast_format", legend: "Format", selected: f.podcastFormat ?? "deep_dive", error: e.podcast_format })}
  </details>
</form>`;
}

/** Search (`/` focuses it) and the cards/list switch, a form that saves the choice for the account. */
function toolbar(user: LayoutUser, layout: Layout, back: string): SafeHtml {
  const choice = (value: Layout, label: string) =>
    html`<button type="submit" name="layout" value="${value}" class="seg" aria-pressed="${layout === value ? "true" : "false"}">${label}</button>`;
  return html`<div class="toolbar">
  <form method="get" action="/search" role="search" class="search">
    <label for="lib-q" class="vh">Search the library</label>
    <input type="hidden" name="type" value="source">
    <input id="lib-q" name="q" type="search" placeholder="Search the library" maxlength="1000" autocomplete="off" data-shortcut="/" aria-keyshortcuts="/">
  </form>
  <form method="post" action="/library/layout" class="segs" aria-label="Show as">
    ${csrfInput(user.csrfToken)}<input type="hidden" name="back" value="${back}">
    ${choice("cards", "Cards")}${choice("list", "List")}
  </form>
  <button type="button" class="secondary keys-open" data-keys-open hidden aria-keyshortcuts="?">Keys <kbd>?</kbd></button>
</div>`;
}

function tabs(p: LibraryParams, counts: ViewCounts | null): SafeHtml {
  return html`<nav class="tabs" aria-label="Views">${VIEWS.map((v) => {
    const current = v === p.view;
    return html`<a href="${hrefOf({ ...p, view: v, before: undefined })}"${current ? html` aria-current="page"` : ""}>${VIEW_LABELS[v]}${counts ? html` <span class="count">${counts[v].toLocaleString("en")}</span>` : ""}</a>`;
  })}<a href="/highlights" class="side">Highlights</a><a href="/tags">Tags</a></nav>`;
}

function filterForm(p: LibraryParams, notebooks: NotebookPublic[]): SafeHtml {
  const statuses = [
    { value: "", label: "Any status" },
    { value: "pending", label: "Pending" },
    { value: "ready", label: "Ready" },
    { value: "failed", label: "Failed" },
  ];
  const nbOptions = [
    { value: "", label: "All notebooks" },
    ...notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
  ];
  const originals = [
    { value: "", label: "Any" },
    { value: "gone", label: "Original gone" },
    { value: "moved", label: "Original moved" },
  ];
  const sorts = [
    { value: "", label: "Newest added" },
    { value: "saved_at", label: "Newest saved (original date)" },
  ];
  const open = filtered(p) || Boolean(p.sort);
  return html`<details class="filters-box"${open ? html` open` : ""}>
  <summary>Filter and sort${open ? html` <span class="muted">(on)</span>` : ""}</summary>
  <form method="get" action="/library" class="filters">
    ${p.view !== "inbox" ? html`<input type="hidden" name="view" value="${p.view}">` : ""}
    <div><label for="f-notebook">Notebook</label>${select("notebook", "f-notebook", nbOptions, p.notebook)}</div>
    <div><label for="f-tag">Tag</label><input id="f-tag" name="tag" type="text" value="${p.tag ?? ""}" maxlength="100" autocomplete="off" list="tag-names"></div>
    <div><label for="f-status">Status</label>${select("status", "f-status", statuses, p.status)}</div>
    <div><label for="f-original">Original</label>${select("original", "f-original", originals, p.original)}</div>
    <div><label for="f-sort">Order</label>${select("sort", "f-sort", sorts, p.sort)}</div>
    <button type="submit" class="secondary">Filter</button>
    ${open ? html`<a href="${hrefOf({ view: p.view })}">Clear</a>` : ""}
  </form>
</details>`;
}

/** One form for the selected sources: the cards' checkboxes belong to it (form="bulk"). */
function bulkBar(user: LayoutUser, back: string, notebooks: NotebookPublic[]): SafeHtml {
  // The tag's Add is the form's first button, so Enter in the tag field adds the tag.
  return html`<form id="bulk" method="post" action="/library/bulk" class="bulkbar" aria-label="Selected sources">
  ${csrfInput(user.csrfToken)}<input type="hidden" name="back" value="${back}">
  <span class="sel-count" data-sel-count>Selected:</span>
  <span class="pair"><label for="bulk-tag" class="vh">Tag for the selected sources</label><input id="bulk-tag" name="tag" type="text" maxlength="100" placeholder="Tag" autocomplete="off" list="tag-names"><button type="submit" name="op" value="tag" class="secondary">Add tag</button></span>
  ${
    notebooks.length
      ? html`<span class="pair"><label for="bulk-nb" class="vh">Notebook for the selected sources</label>${select(
          "notebook_id",
          "bulk-nb",
          notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
          undefined,
        )}<button type="submit" name="op" value="notebook" class="secondary">Add to notebook</button></span>`
      : ""
  }
  <span class="btns">
    <button type="submit" name="op" value="archive" class="secondary">Archive</button>
    <button type="submit" name="op" value="unarchive" class="secondary">Unarchive</button>
    <button type="submit" name="op" value="favorite" class="secondary">Favorite</button>
    <button type="submit" name="op" value="unfavorite" class="secondary">Unfavorite</button>
    <button type="submit" name="op" value="delete" class="danger">Delete…</button>
  </span>
</form>`;
}

const KEYS: [string, string][] = [
  ["j / k", "Next / previous source"],
  ["o or Enter", "Open the source"],
  ["e", "Archive (or move back to the inbox)"],
  ["f", "Favorite or unfavorite"],
  ["t", "Add a tag"],
  ["x", "Select for the bulk actions"],
  ["/", "Search the library"],
  ["a", "Add a link"],
  ["?", "This list"],
  ["Esc", "Close this list"],
];

function keysDialog(): SafeHtml {
  return html`<dialog id="keys" aria-labelledby="keys-h">
  <h2 id="keys-h">Keyboard shortcuts</h2>
  <dl class="keys">${KEYS.map(([k, what]) => html`<dt><kbd>${k}</kbd></dt><dd>${what}</dd>`)}</dl>
  <p class="muted">Keys do nothing while you type in a field.</p>
  <form method="dialog"><button type="submit">Close</button></form>
</dialog>`;
}

/** A new library's first screen: three ways to fill it. */
function firstRun(): SafeHtml {
  return html`<section class="first-run card" aria-labelledby="first-run-h">
  <h2 id="first-run-h">Welcome to your library</h2>
  <p class="muted">Everything you save here is kept as clean text with its images, searchable by words or meaning, ready to highlight, ask about or listen to.</p>
  <ol class="steps">
    <li><a href="#f-url">Save a first link</a><span class="muted">Paste any article's address in the field below.</span></li>
    <li><a href="/settings/extension">Get the browser extension</a><span class="muted">Save the page you are reading in one click, as you see it.</span></li>
    <li><a href="/settings/import-export">Import your bookmarks</a><span class="muted">From the browser, Pocket, Omnivore, Karakeep, Readwise exports or a list of links.</span></li>
  </ol>
</section>`;
}

function emptyState(p: LibraryParams, anything: boolean): SafeHtml {
  if (filtered(p)) return html`<p class="muted empty">No sources match these filters.</p>`;
  if (!anything) return html`<p class="muted empty">Nothing saved yet. Add a link above.</p>`;
  const words: Record<string, string> = {
    inbox: "Inbox zero: everything is read or archived.",
    favorites: "No favorites yet. Star a source to keep it here.",
    archive: "Nothing archived yet.",
    all: "Nothing saved yet. Add a link above.",
  };
  return html`<p class="muted empty">${words[p.view]} <a href="${hrefOf({ view: "all" })}">See everything</a></p>`;
}

export interface LibraryPageInput {
  user: LayoutUser;
  sources: SourcePublic[];
  next: string | null;
  params: LibraryParams;
  layout: Layout;
  notebooks: NotebookPublic[];
  /** Tab counts, when cheap to show (none while other filters apply). */
  counts: ViewCounts | null;
  /** Whether the owner has any source at all (for the empty state's words). */
  anything: boolean;
  /** The owner's tags, most used first: completions for every tag field of the page. */
  tagNames?: string[];
  /** Render this page's checkboxes checked (the no-script "Select all"). */
  selectAll?: boolean;
  form?: AddForm;
  flash?: Flash;
  status?: number;
  /** The event cursor the list was read at, so live updates miss nothing after it. */
  liveSince?: number;
}

/** The notebooks a card's picker offers (newest first): enough for most people; the reader lists every one. */
export const CARD_PICKER = 40;

export function libraryListPage(p: LibraryPageInput): Response {
  const names = new Map(p.notebooks.map((nb) => [nb.id, nb.name]));
  const back = hrefOf(p.params);
  const ctx: CardContext = {
    csrf: p.user.csrfToken,
    back,
    params: p.params,
    names,
    picker: p.notebooks.slice(0, CARD_PICKER),
    selected: p.selectAll ? new Set(p.sources.map((s) => s.id)) : undefined,
  };
  const label = VIEW_LABELS[p.params.view];
  const selectAllHref = `${back}${back.includes("?") ? "&" : "?"}select=all`;
  const list = p.sources.length
    ? html`<ul class="${p.layout === "cards" ? "cards" : "rows"}" aria-labelledby="list-h"${p.liveSince !== undefined ? html` data-live-since="${p.liveSince}"` : ""} data-list>${p.sources.map((s) => sourceItem(s, ctx, p.layout))}</ul>`
    : emptyState(p.params, p.anything);
  const body = html`<div class="library" data-library data-layout="${p.layout}">
<div class="lib-head"><h1>Library</h1>${toolbar(p.user, p.layout, back)}</div>
${p.anything ? "" : firstRun()}
${addForm(p.user, p.notebooks, p.form ?? {})}
${tabs(p.params, p.counts)}
${filterForm(p.params, p.notebooks)}
<div class="list-head"><h2 id="list-h" class="vh">${label}</h2>
${p.sources.length ? html`<a href="${selectAllHref}" class="pick-all" data-pick-all>Select all on this page</a>` : ""}</div>
${p.sources.length ? bulkBar(p.user, back, p.notebooks) : ""}
${list}
${p.next ? html`<p class="pager"><a href="${hrefOf({ ...p.params, before: p.next })}" rel="next">More →</a></p>` : ""}
<div class="toast" id="lib-announce" role="status" aria-live="polite"></div>
${keysDialog()}
<datalist id="tag-names">${(p.tagNames ?? []).map((t) => html`<option value="${t}"></option>`)}</datalist>
</div>
<script src="${LIBRARY_SCRIPT_PATH}" defer></script>`;
  return libraryPage({ title: `Library · ${label}`, user: p.user, body, flash: p.flash, status: p.status });
}

/** The bulk delete's confirmation: how many, which, and one POST with their ids. */
export function confirmBulkDeletePage(p: { user: LayoutUser; sources: SourcePublic[]; back: string }): Response {
  const n = p.sources.length;
  const body = html`<h1>Delete ${n} ${n === 1 ? "source" : "sources"}?</h1>
<section class="card">
  <p class="muted">They leave their notebooks and the search index. Notes that mention them are kept.</p>
  <ul class="confirm-list">${p.sources.map((s) => html`<li>${s.title || s.url}</li>`)}</ul>
  <form method="post" action="/library/bulk/delete">
    ${csrfInput(p.user.csrfToken)}<input type="hidden" name="back" value="${p.back}">
    ${p.sources.map((s) => html`<input type="hidden" name="ids" value="${s.id}">`)}
    <div class="actions"><button type="submit" class="danger">Delete ${n} ${n === 1 ? "source" : "sources"}</button> <a href="${p.back}">Cancel</a></div>
  </form>
</section>`;
  return libraryPage({ title: "Delete sources", user: p.user, body });
}

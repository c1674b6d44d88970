// Pages for sources: the library list with its "Add a link" form, and the reader.
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { NotePublic } from "../../features/library/notes/schema.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, day, fieldError, hostOf, libraryPage, pager, select, when } from "./common.ts";
import { liveAttrs } from "../live.ts";
import { renderMarkdown } from "./markdown.ts";
import { formatPicker } from "../podcasts/format-picker.ts";
import {
  askSection,
  linkedNotes,
  podcastLink,
  renameSection,
  type RenameState,
  type SourceAskState,
} from "./source-extras.ts";

const FAILURES: Record<string, string> = {
  timeout: "the site took too long to answer",
  connect_timeout: "the site's address could not be looked up in time",
  dns_failure: "the site's address could not be found",
  network_error: "the connection to the site failed",
  blocked_address: "the address is on a private or local network, which this server does not fetch",
  too_large: "the page is larger than this server accepts",
  too_many_redirects: "the site redirected too many times",
  unsupported_content_type: "this kind of file cannot be read",
  unsupported_protocol: "only http and https links can be fetched",
  invalid_url: "the link is not a valid address",
  empty_content: "no readable text was found on the page",
  malformed_pdf: "the PDF could not be read",
  malformed_document: "the document could not be read",
  extraction_failed: "the text could not be extracted",
  extraction_timeout: "reading the page took too long and was stopped",
  too_complex: "the page is built too intricately to read safely",
  too_many_pages: "the PDF has more pages than this server reads",
};
const HTTP_WORDS: Record<number, string> = {
  401: "the site asks for a login",
  403: "the site refused access",
  404: "the page was not found",
  410: "the page is gone",
  429: "the site is rate limiting requests",
};

/** Why a source failed, in plain words (the code stays visible for searching and bug reports). */
export function failureWords(code: string | null): string {
  if (!code) return "fetching failed";
  const http = /^http_(\d{3})$/.exec(code);
  if (http) {
    const status = Number(http[1]);
    const words = HTTP_WORDS[status] ?? (status >= 500 ? "the site had an error" : "the site answered with an error");
    return `${words} (HTTP ${status})`;
  }
  return FAILURES[code] ?? code.replace(/_/g, " ");
}

export function statusBadge(s: Pick<SourcePublic, "status" | "error">): SafeHtml {
  if (s.status === "ready") return html`<span class="status ready">Ready</span>`;
  if (s.status === "pending") return html`<span class="status pending">Pending</span>`;
  return html`<span class="status failed" title="${s.error ?? ""}">Failed: ${failureWords(s.error)}</span>`;
}

export interface AddForm {
  url?: string;
  title?: string;
  notebookIds?: string[];
  /** Make a quick podcast once the source is ready, in this format. */
  quick?: boolean;
  podcastFormat?: string;
  errors?: { url?: string; title?: string; notebook_ids?: string; podcast_format?: string };
}

function quickPodcast(f: AddForm): SafeHtml {
  const e = f.errors ?? {};
  return html`<details${f.quick || e.podcast_format ? html` open` : ""}>
  <summary>Quick podcast</summary>
  <label class="check"><input type="checkbox" name="generate_quick_podcast" value="1"${f.quick ? html` checked` : ""}> <span>Make a podcast episode when it is ready <span class="muted">(uses AI credits)</span></span></label>
  ${formatPicker({ name: "podcast_format", legend: "Format", selected: f.podcastFormat ?? "deep_dive", error: e.podcast_format })}
</details>`;
}

function notebookChecks(notebooks: NotebookPublic[], checked: string[]): SafeHtml {
  if (!notebooks.length) return html``;
  return html`<fieldset><legend>Notebooks</legend>${notebooks.map(
    (nb) =>
      html`<label class="check"><input type="checkbox" name="notebook_ids" value="${nb.id}"${checked.includes(nb.id) ? html` checked` : ""}> ${nb.name}</label>`,
  )}</fieldset>`;
}

function addForm(user: LayoutUser, notebooks: NotebookPublic[], f: AddForm): SafeHtml {
  const e = f.errors ?? {};
  return html`<form method="post" action="/library/sources" class="card" novalidate>
  ${csrfInput(user.csrfToken)}
  <div class="label-row"><label for="f-url">Link</label><span class="muted shortcut" data-shortcut-hint hidden>Press <kbd>/</kbd> to paste a link</span></div>
  <input id="f-url" name="url" type="url" value="${f.url ?? ""}" placeholder="https://…" required maxlength="2048" autocomplete="off" data-shortcut="/" aria-keyshortcuts="/"${e.url ? html` aria-invalid="true" aria-describedby="f-url-error"` : ""}>
  ${fieldError("f-url", e.url)}
  <label for="f-title">Title <span class="muted">(optional)</span></label>
  <input id="f-title" name="title" type="text" value="${f.title ?? ""}" maxlength="500" autocomplete="off"${e.title ? html` aria-invalid="true"` : ""}>
  ${fieldError("f-title", e.title)}
  ${notebookChecks(notebooks, f.notebookIds ?? [])}
  ${fieldError("f-notebooks", e.notebook_ids)}
  ${quickPodcast(f)}
  <div class="actions"><button type="submit">Save link</button></div>
</form>`;
}

/** Tags as links to the library filtered by each. */
export function tagLinks(tags: string[]): SafeHtml {
  if (!tags.length) return html``;
  return html`<span class="tags">${tags.map((t, i) => html`${i ? " " : ""}<a class="tag" href="/library?tag=${encodeURIComponent(t)}">#${t}</a>`)}</span>`;
}

/** One row of the library list; live: it re-renders from its fragment when the source changes. */
export function sourceRow(s: SourcePublic, names: Map<string, string>): SafeHtml {
  const nbs = s.notebook_ids.filter((id) => names.has(id));
  return html`<li${liveAttrs({ kind: "source", id: s.id, fragment: `/library/sources/${s.id}/row` })}>
  <a class="title" href="/library/sources/${s.id}">${s.title || s.url}</a>
  <div class="meta">
    <span>${s.site_name || hostOf(s.url)}</span>
    ${statusBadge(s)}
    <span>Saved ${when(s.saved_at)}</span>
    ${nbs.length ? html`<span>In ${nbs.map((id, i) => html`${i ? ", " : ""}<a href="/notebooks/${id}">${names.get(id)}</a>`)}</span>` : ""}
    ${tagLinks(s.tags)}
  </div>
</li>`;
}

export interface LibraryPageInput {
  user: LayoutUser;
  sources: SourcePublic[];
  next: string | null;
  filters: { status?: string; notebook?: string; tag?: string; sort?: string };
  notebooks: NotebookPublic[];
  form?: AddForm;
  flash?: Flash;
  status?: number;
  /** The event cursor the list was read at, so live updates miss nothing after it. */
  liveSince?: number;
}

export function libraryListPage(p: LibraryPageInput): Response {
  const names = new Map(p.notebooks.map((nb) => [nb.id, nb.name]));
  const statuses = [
    { value: "", label: "Any status" },
    { value: "pending", label: "Pending" },
    { value: "ready", label: "Ready" },
    { value: "failed", label: "Failed" },
  ];
  const nbOptions = [
    { value: "", label: "All notebooks" },
    ...p.notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
  ];
  const filtered = Boolean(p.filters.status || p.filters.notebook || p.filters.tag);
  const sorts = [
    { value: "", label: "Newest added" },
    { value: "saved_at", label: "Newest saved (original date)" },
  ];
  const body = html`<h1>Library</h1>
<h2>Add a link</h2>
${addForm(p.user, p.notebooks, p.form ?? {})}
<h2>Your sources</h2>
<form method="get" action="/library" class="filters">
  <div><label for="f-status">Status</label>${select("status", "f-status", statuses, p.filters.status)}</div>
  <div><label for="f-notebook">Notebook</label>${select("notebook", "f-notebook", nbOptions, p.filters.notebook)}</div>
  <div><label for="f-tag">Tag</label><input id="f-tag" name="tag" type="text" value="${p.filters.tag ?? ""}" maxlength="100" autocomplete="off"></div>
  <div><label for="f-sort">Order</label>${select("sort", "f-sort", sorts, p.filters.sort)}</div>
  <button type="submit" class="secondary">Filter</button>
  ${filtered || p.filters.sort ? html`<a href="/library">Clear</a>` : ""}
</form>
${p.sources.length ? html`<ul class="items"${p.liveSince !== undefined ? html` data-live-since="${p.liveSince}"` : ""}>${p.sources.map((s) => sourceRow(s, names))}</ul>` : html`<p class="muted">${filtered ? "No sources match these filters." : "Nothing saved yet. Add a link above."}</p>`}
${pager("/library", p.filters, p.next)}`;
  return libraryPage({ title: "Library", user: p.user, body, flash: p.flash, status: p.status });
}

function readerBody(s: SourcePublic, liveSince?: number): SafeHtml {
  if (s.status === "pending") {
    // Live: the page reloads itself when the source is ready or failed; without script, a reload shows it.
    return html`<p class="card"${liveAttrs({ kind: "source", id: s.id, reload: true, since: liveSince })}>This source is still being fetched. The page shows it as soon as it is ready (or reload it in a moment).</p>`;
  }
  if (s.status === "failed") {
    return html`<div class="card"><p><strong>It could not be fetched:</strong> ${failureWords(s.error)}.</p>
  ${s.error_detail ? html`<p class="muted">${s.error_detail}</p>` : ""}
  <p class="muted">Refetch to try again, or read it at the original link.</p></div>`;
  }
  if (!s.content?.trim()) return html`<p class="muted">No text was extracted from this source.</p>`;
  return html`<article class="prose">${renderMarkdown(s.content)}</article>`;
}

function membership(user: LayoutUser, s: SourcePublic, notebooks: NotebookPublic[]): SafeHtml {
  const names = new Map(notebooks.map((nb) => [nb.id, nb.name]));
  const inside = s.notebook_ids.filter((id) => names.has(id));
  const others = notebooks.filter((nb) => !s.notebook_ids.includes(nb.id));
  const list = inside.length
    ? html`<ul class="items">${inside.map(
        (id) => html`<li class="row-actions"><a href="/notebooks/${id}">${names.get(id)}</a>
  <form method="post" action="/library/sources/${s.id}/notebooks/${id}/remove">${csrfInput(user.csrfToken)}<button type="submit" class="danger" aria-label="Remove from ${names.get(id)}">Remove</button></form></li>`,
      )}</ul>`
    : html`<p class="muted">Not in any notebook.</p>`;
  const add = others.length
    ? html`<form method="post" action="/library/sources/${s.id}/notebooks" class="filters">
  ${csrfInput(user.csrfToken)}
  <div><label for="f-add-nb">Add to notebook</label>${select(
    "notebook_id",
    "f-add-nb",
    others.map((nb) => ({ value: nb.id, label: nb.name })),
    undefined,
  )}</div>
  <button type="submit" class="secondary">Add</button>
</form>`
    : notebooks.length
      ? html``
      : html`<p class="muted"><a href="/notebooks">Create a notebook</a> to group sources.</p>`;
  return html`${list}${add}`;
}

export interface ReaderPageInput {
  user: LayoutUser;
  source: SourcePublic;
  notebooks: NotebookPublic[];
  /** Notes whose source_ids contain this source, newest first. */
  notes: NotePublic[];
  moreNotes: boolean;
  rename?: RenameState;
  ask?: SourceAskState;
  flash?: Flash;
  status?: number;
  /** The events position when the page was rendered: a live update past it reloads the page. */
  liveSince?: number;
}

export function readerPage(p: ReaderPageInput): Response {
  const s = p.source;
  const original = s.final_url ?? s.url;
  const body = html`<p><a href="/library">← Library</a></p>
<h1>${s.title || s.url}</h1>
<p class="meta muted">
  ${s.byline ? html`<span>${s.byline}</span> · ` : ""}<span>${s.site_name || hostOf(original)}</span>
  ${s.published_at ? html` · Published ${day(s.published_at)}` : ""} · Saved ${when(s.saved_at)}${s.saved_at !== s.created_at ? html` (added ${when(s.created_at)})` : ""} · ${statusBadge(s)}
</p>
${s.tags.length ? html`<p class="meta">${tagLinks(s.tags)}</p>` : ""}
<p><a href="${original}" rel="noopener noreferrer nofollow">Open the original ↗</a></p>
<div class="row-actions">
  ${podcastLink(s)}
  <form method="post" action="/library/sources/${s.id}/refetch">${csrfInput(p.user.csrfToken)}<button type="submit" class="secondary">Refetch</button></form>
  <a href="/library/sources/${s.id}/delete">Delete…</a>
</div>
${renameSection(p.user, s, p.rename)}
${askSection(p.user, s, p.ask)}
${readerBody(s, p.liveSince)}
<h2>Notebooks</h2>
${membership(p.user, s, p.notebooks)}
<h2>Notes about this source</h2>
${linkedNotes(s, p.notes, p.moreNotes)}`;
  return libraryPage({
    title: s.title || hostOf(s.url),
    user: p.user,
    body,
    flash: p.flash,
    status: p.status,
  });
}

// Pages for notebooks: the list with counts and a create form, and one notebook with its sources and notes.
import type { NoteRow, SourceRow } from "../../db/schema/index.ts";
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { PICKER_SCRIPT_PATH, sourcePicker, type SourceChoice } from "./source-picker.ts";
import { csrfInput, fieldError, hostOf, libraryPage, pager, when } from "./common.ts";
import { noteTitle } from "./note-pages.ts";
import { statusBadge } from "./source-pages.ts";

export interface NotebookForm {
  name?: string;
  description?: string;
  errors?: { name?: string; description?: string };
}

function notebookFields(f: NotebookForm): SafeHtml {
  const e = f.errors ?? {};
  return html`<label for="f-name">Name</label>
  <input id="f-name" name="name" type="text" value="${f.name ?? ""}" required maxlength="200" autocomplete="off"${e.name ? html` aria-invalid="true" aria-describedby="f-name-error"` : ""}>
  ${fieldError("f-name", e.name)}
  <label for="f-description">Description <span class="muted">(optional)</span></label>
  <textarea id="f-description" name="description" class="short" maxlength="5000">
${f.description ?? ""}</textarea>
  ${fieldError("f-description", e.description)}`;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function notebooksListPage(p: {
  user: LayoutUser;
  notebooks: NotebookPublic[];
  next: string | null;
  form?: NotebookForm;
  flash?: Flash;
  status?: number;
}): Response {
  const list = p.notebooks.length
    ? html`<ul class="items">${p.notebooks.map(
        (nb) => html`<li><a class="title" href="/notebooks/${nb.id}">${nb.name}</a>
  <div class="meta"><span>${count(nb.source_count, "source", "sources")}</span><span>${count(nb.note_count, "note", "notes")}</span><span>Updated ${when(nb.updated_at)}</span></div>
  ${nb.description ? html`<p class="snippet muted">${nb.description.slice(0, 200)}</p>` : ""}</li>`,
      )}</ul>`
    : html`<p class="muted">No notebooks yet. Notebooks group sources and notes, and export as Markdown.</p>`;
  const body = html`<h1>Notebooks</h1>
${list}
${pager("/notebooks", {}, p.next)}
<h2>Create a notebook</h2>
<form method="post" action="/notebooks" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  ${notebookFields(p.form ?? {})}
  <div class="actions"><button type="submit">Create notebook</button></div>
</form>`;
  return libraryPage({ title: "Notebooks", user: p.user, body, flash: p.flash, status: p.status });
}

export interface NotebookPageInput {
  user: LayoutUser;
  notebook: NotebookPublic;
  sources: SourceRow[];
  notes: NoteRow[];
  /** More sources or notes than shown: link to the filtered lists. */
  moreSources: boolean;
  moreNotes: boolean;
  form?: NotebookForm;
  flash?: Flash;
  status?: number;
  /** Sources listed by their original saved time instead of when they were added. */
  sort?: "saved_at";
  /** The "Add sources" picker: the ones checked, and its matches (or the newest sources). */
  picker: { linked: SourceChoice[]; results: SourceChoice[]; query?: string; error?: string };
}

function addSources(p: NotebookPageInput): SafeHtml {
  const nb = p.notebook;
  return html`<form method="post" action="/notebooks/${nb.id}/sources/add" class="card add-sources" novalidate>
  ${csrfInput(p.user.csrfToken)}
  ${sourcePicker({ ...p.picker, name: "add_source_ids", legend: html`Add sources to this notebook` })}
  <div class="actions"><button type="submit">Add the chosen sources</button></div>
</form>
<script src="${PICKER_SCRIPT_PATH}" defer></script>`;
}

function sourcesSection(p: NotebookPageInput): SafeHtml {
  const nb = p.notebook;
  if (!p.sources.length)
    return html`<p class="muted">No sources yet. Find them below, or add them from the <a href="/library">library</a>.</p>`;
  const order = p.sort
    ? html`<p class="meta">Newest saved first (original date) · <a href="/notebooks/${nb.id}">Newest added first</a></p>`
    : html`<p class="meta">Newest added first · <a href="/notebooks/${nb.id}?sort=saved_at">Newest saved first (original date)</a></p>`;
  return html`${order}<ul class="items">${p.sources.map(
    (s) => html`<li class="row-actions"><div><a class="title" href="/library/sources/${s.id}">${s.title || s.url}</a>
  <div class="meta"><span>${s.siteName || hostOf(s.url)}</span>${statusBadge(s)}</div></div>
  <form method="post" action="/notebooks/${nb.id}/sources/${s.id}/remove">${csrfInput(p.user.csrfToken)}<button type="submit" class="danger" aria-label="Remove ${s.title || s.url} from this notebook">Remove</button></form></li>`,
  )}</ul>
${p.moreSources ? html`<p><a href="/library?notebook=${nb.id}${p.sort ? "&sort=saved_at" : ""}">All sources in this notebook →</a></p>` : ""}`;
}

function notesSection(p: NotebookPageInput): SafeHtml {
  const nb = p.notebook;
  const list = p.notes.length
    ? html`<ul class="items">${p.notes.map(
        (n) =>
          html`<li><a class="title" href="/notes/${n.id}">${noteTitle(n)}</a><div class="meta"><span>Updated ${when(n.updatedAt)}</span></div></li>`,
      )}</ul>`
    : html`<p class="muted">No notes yet.</p>`;
  return html`${list}
${p.moreNotes ? html`<p><a href="/notes?notebook=${nb.id}">All notes in this notebook →</a></p>` : ""}
<p><a href="/notes/new?notebook=${nb.id}">Write a note in this notebook</a></p>`;
}

export function notebookPage(p: NotebookPageInput): Response {
  const nb = p.notebook;
  const form = p.form ?? { name: nb.name, description: nb.description ?? "" };
  const body = html`<p><a href="/notebooks">← Notebooks</a></p>
<h1>${nb.name}</h1>
${nb.description ? html`<p class="answer">${nb.description}</p>` : ""}
<p class="meta muted">${count(nb.source_count, "source", "sources")} · ${count(nb.note_count, "note", "notes")} · Created ${when(nb.created_at)}</p>
<div class="row-actions">
  <a href="/notebooks/${nb.id}/export.zip" download>Export as Markdown (zip)</a>
  <a href="/search?notebook=${nb.id}">Search in this notebook</a>
  <a href="/podcasts/new?notebook=${nb.id}">Make a podcast</a>
</div>
<h2>Sources</h2>
${sourcesSection(p)}
${addSources(p)}
<h2>Notes</h2>
${notesSection(p)}
<h2>Rename or describe</h2>
<form method="post" action="/notebooks/${nb.id}" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  ${notebookFields(form)}
  <div class="actions"><button type="submit">Save</button></div>
</form>
<h2>Delete</h2>
<p><a href="/notebooks/${nb.id}/delete">Delete this notebook…</a> <span class="muted">Its sources and notes are kept.</span></p>`;
  return libraryPage({ title: nb.name, user: p.user, body, flash: p.flash, status: p.status });
}

// Pages for notes: the list, the editor (new and existing) and a note rendered from its Markdown.
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { NotePublic } from "../../features/library/notes/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, fieldError, libraryPage, pager, select, when } from "./common.ts";
import { renderMarkdown } from "./markdown.ts";
import { makeSnippet } from "../../features/search/query.ts";
import { PICKER_SCRIPT_PATH, sourcePicker, type SourceChoice } from "./source-picker.ts";

/** A note's display title: its own, else its first line without heading marks. */
export function noteTitle(n: { title: string | null; content: string }): string {
  if (n.title) return n.title;
  const first = n.content.split("\n").find((l) => l.trim());
  return (
    first
      ?.replace(/^#+\s*/, "")
      .trim()
      .slice(0, 80) || "Untitled note"
  );
}

/** A couple of lines of the note as text (no Markdown), after the line its title came from. */
export function preview(n: { title: string | null; content: string }, width = 180): string {
  let body = n.content;
  if (!n.title) body = body.replace(/^\s*[^\n]*\n?/, "");
  return makeSnippet(body, "", width).snippet;
}

export interface NoteForm {
  title?: string;
  content?: string;
  notebookId?: string;
  sourceIds?: string[];
  /** What the picker's search was asked for (the no-script "Find"). */
  sourceQuery?: string;
  errors?: { title?: string; content?: string; notebook_id?: string; source_ids?: string };
}

/** The sources a note editor shows: those linked (or checked), and the picker's matches. */
export interface NoteSources {
  linked: SourceChoice[];
  results: SourceChoice[];
  /** The titles of the sources the saved note is about (the page's byline); default: linked. */
  about?: SourceChoice[];
}

function editor(
  user: LayoutUser,
  action: string,
  notebooks: NotebookPublic[],
  sources: NoteSources,
  f: NoteForm,
  submit: string,
): SafeHtml {
  const e = f.errors ?? {};
  const options = [{ value: "", label: "No notebook" }, ...notebooks.map((nb) => ({ value: nb.id, label: nb.name }))];
  return html`<form method="post" action="${action}" class="card" novalidate>
  ${csrfInput(user.csrfToken)}
  <label for="f-title">Title <span class="muted">(optional)</span></label>
  <input id="f-title" name="title" type="text" value="${f.title ?? ""}" maxlength="500" autocomplete="off"${e.title ? html` aria-invalid="true"` : ""}>
  ${fieldError("f-title", e.title)}
  <label for="f-content">Note <span class="muted">(Markdown)</span></label>
  <textarea id="f-content" name="content" required${e.content ? html` aria-invalid="true" aria-describedby="f-content-error"` : ""}>
${f.content ?? ""}</textarea>
  ${fieldError("f-content", e.content)}
  <label for="f-notebook">Notebook</label>
  ${select("notebook_id", "f-notebook", options, f.notebookId)}
  ${fieldError("f-notebook", e.notebook_id)}
  ${sourcePicker({
    linked: sources.linked,
    results: sources.results,
    query: f.sourceQuery,
    error: e.source_ids,
    legend: html`About these sources <span class="muted">(optional)</span>`,
  })}
  <div class="actions"><button type="submit">${submit}</button></div>
</form>
<script src="${PICKER_SCRIPT_PATH}" defer></script>`;
}

export function notesListPage(p: {
  user: LayoutUser;
  notes: NotePublic[];
  next: string | null;
  notebooks: NotebookPublic[];
  notebook?: string;
  flash?: Flash;
}): Response {
  const names = new Map(p.notebooks.map((nb) => [nb.id, nb.name]));
  const options = [
    { value: "", label: "All notebooks" },
    ...p.notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
  ];
  const list = p.notes.length
    ? html`<ul class="items">${p.notes.map(
        (n) => html`<li><a class="title" href="/notes/${n.id}">${noteTitle(n)}</a>
  ${preview(n) ? html`<p class="preview">${preview(n)}</p>` : ""}
  <div class="meta"><span>Updated ${when(n.updated_at)}</span>${n.notebook_id && names.has(n.notebook_id) ? html`<span>In <a href="/notebooks/${n.notebook_id}">${names.get(n.notebook_id)}</a></span>` : ""}</div></li>`,
      )}</ul>`
    : html`<p class="muted">${p.notebook ? "No notes in this notebook." : "No notes yet."}</p>`;
  const body = html`<h1>Notes</h1>
<p><a href="/notes/new${p.notebook ? `?notebook=${p.notebook}` : ""}">Write a note</a></p>
<form method="get" action="/notes" class="filters">
  <div><label for="f-filter-nb">Notebook</label>${select("notebook", "f-filter-nb", options, p.notebook)}</div>
  <button type="submit" class="secondary">Filter</button>
</form>
${list}
${pager("/notes", { notebook: p.notebook }, p.next)}`;
  return libraryPage({ title: "Notes", user: p.user, body, flash: p.flash });
}

export function newNotePage(p: {
  user: LayoutUser;
  notebooks: NotebookPublic[];
  sources: NoteSources;
  form: NoteForm;
  status?: number;
}): Response {
  const body = html`<p><a href="/notes">← Notes</a></p>
<h1>New note</h1>
${editor(p.user, "/notes", p.notebooks, p.sources, p.form, "Save note")}`;
  return libraryPage({ title: "New note", user: p.user, body, status: p.status });
}

export function notePage(p: {
  user: LayoutUser;
  note: NotePublic;
  notebooks: NotebookPublic[];
  sources: NoteSources;
  form?: NoteForm;
  flash?: Flash;
  status?: number;
}): Response {
  const n = p.note;
  const nb = p.notebooks.find((x) => x.id === n.notebook_id);
  const form = p.form ?? {
    title: n.title ?? "",
    content: n.content,
    notebookId: n.notebook_id ?? "",
    sourceIds: n.source_ids,
  };
  const titles = new Map((p.sources.about ?? p.sources.linked).map((s) => [s.id, s.title]));
  const about = n.source_ids.filter((id) => titles.has(id));
  const body = html`<p><a href="/notes">← Notes</a></p>
<h1>${noteTitle(n)}</h1>
<p class="meta muted">Updated ${when(n.updated_at)}${nb ? html` · In <a href="/notebooks/${nb.id}">${nb.name}</a>` : ""}${
    about.length
      ? html` · About ${about.map((id, i) => html`${i ? ", " : ""}<a href="/library/sources/${id}">${titles.get(id)}</a>`)}`
      : ""
  }</p>
<div class="row-actions">
  <a href="/notes/${n.id}/download" download>Download Markdown</a>
  <a href="/notes/${n.id}/delete">Delete…</a>
</div>
<article class="prose card">${renderMarkdown(n.content)}</article>
<h2>Edit</h2>
${editor(p.user, `/notes/${n.id}`, p.notebooks, p.sources, form, "Save changes")}`;
  return libraryPage({ title: noteTitle(n), user: p.user, body, flash: p.flash, status: p.status });
}

// The "Make a podcast" form: from checked sources or a notebook, one of the six formats, title and
// language, with each format's estimated cost and the credits free shown before anything is spent.
import type { PodcastQuote } from "../../features/podcasts/service.ts";
import { html, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, day, fieldError, libraryPage, select } from "../library/common.ts";
import { formatPicker } from "./format-picker.ts";

export interface CreateForm {
  sourceIds: string[];
  notebookId: string;
  format: string;
  title: string;
  language: string;
  errors: { sources?: string; notebook?: string; format?: string; title?: string; language?: string };
}

export interface PickableSource {
  id: string;
  title: string;
  words: number | null;
}

export interface CreatePageInput {
  user: LayoutUser;
  form: CreateForm;
  sources: PickableSource[];
  notebooks: { id: string; name: string }[];
  quote: PodcastQuote;
  /** A problem with the whole request, said plainly (out of credit). */
  problem?: string;
  status?: number;
}

const invalid = (error: string | undefined, id: string) =>
  error ? html` aria-invalid="true" aria-describedby="${id}-error"` : "";

function sourcesField(p: CreatePageInput): SafeHtml {
  const f = p.form;
  if (!p.sources.length) {
    return html`<fieldset id="f-sources"><legend>Sources</legend><p class="muted">No ready sources yet. <a href="/library">Save a link</a> first; it can be used once it shows as Ready.</p>${fieldError("f-sources", f.errors.sources)}</fieldset>`;
  }
  return html`<fieldset id="f-sources"${f.errors.sources ? html` aria-describedby="f-sources-error"` : ""}>
  <legend>Sources <span class="muted">(up to 20 ready ones)</span></legend>
  <div class="picklist">${p.sources.map(
    (s) =>
      html`<label class="check"><input type="checkbox" name="source_ids" value="${s.id}"${f.sourceIds.includes(s.id) ? html` checked` : ""}> <span>${s.title}${s.words ? html` <span class="muted">· ${s.words.toLocaleString("en")} words</span>` : ""}</span></label>`,
  )}</div>
  ${fieldError("f-sources", f.errors.sources)}
</fieldset>`;
}

function costSummary(p: CreatePageInput): SafeHtml {
  const q = p.quote;
  const chosen =
    q.words === null
      ? "Choose sources or a notebook and press “Update costs” to price the unabridged format."
      : `The chosen sources have ${q.words.toLocaleString("en")} words.`;
  return html`<p class="muted" id="f-costs">You have <strong>${q.available}</strong> AI credits free until ${day(q.periodEnd)}. An episode costs ${q.perMinute} credits a minute of its planned length; you are charged for the minutes actually made, never more than the estimate. ${chosen}</p>`;
}

export function createPodcastPage(p: CreatePageInput): Response {
  const f = p.form;
  const nbOptions = [
    { value: "", label: "— none, use the sources above —" },
    ...p.notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
  ];
  const body = html`<p><a href="/podcasts">← Podcasts</a></p>
<h1>Make a podcast</h1>
${costSummary(p)}
<form method="post" action="/podcasts" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  ${p.problem ? html`<div class="flash error" role="alert" id="f-problem">${p.problem}</div>` : ""}
  ${sourcesField(p)}
  <label for="f-notebook">Or a whole notebook <span class="muted">(its first 20 ready sources)</span></label>
  ${select("notebook_id", "f-notebook", nbOptions, f.notebookId)}
  ${fieldError("f-notebook", f.errors.notebook)}
  ${formatPicker({ name: "format", legend: "Format", selected: f.format, error: f.errors.format, quote: p.quote })}
  <label for="f-title">Title <span class="muted">(optional; the source's title or the notebook's name otherwise)</span></label>
  <input id="f-title" name="title" type="text" value="${f.title}" maxlength="500" autocomplete="off"${invalid(f.errors.title, "f-title")}>
  ${fieldError("f-title", f.errors.title)}
  <label for="f-language">Language <span class="muted">(optional; a code such as en, fr or pt-BR; the source's language otherwise)</span></label>
  <input id="f-language" name="language" type="text" value="${f.language}" maxlength="35" autocomplete="off" spellcheck="false"${invalid(f.errors.language, "f-language")}>
  ${fieldError("f-language", f.errors.language)}
  <div class="actions">
    <button type="submit" name="intent" value="create">Make podcast</button>
    <button type="submit" name="intent" value="estimate" class="secondary">Update costs</button>
  </div>
</form>`;
  return libraryPage({ title: "Make a podcast", user: p.user, body, status: p.status });
}

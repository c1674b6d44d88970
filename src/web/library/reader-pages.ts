// The reader (GET /library/sources/:id): the article first, in the person's typography and theme, with
// one compact toolbar above it, an outline of its headings, and its notebooks, notes, rename and ask
// below. The reading script (reader-script.ts) adds instant settings and saved progress.
import type { Preferences } from "../../features/accounts/preferences.ts";
import type { HighlightPublic } from "../../features/library/highlights/schema.ts";
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { NotePublic } from "../../features/library/notes/schema.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, layout, pageResponse, raw, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { liveAttrs } from "../live.ts";
import { csrfInput, day, hostOf, select } from "./common.ts";
import { renderArticle, type OutlineEntry } from "./markdown.ts";
import { askSection, linkedNotes, renameSection, type RenameState, type SourceAskState } from "./source-extras.ts";
import { failureWords, statusBadge, tagLinks } from "./source-pages.ts";
import { READER_SCRIPT_PATH } from "./reader-script.ts";
import { READER_STYLE, READER_STYLE_HASH } from "./reader-style.ts";
import { lineHeightKey, toolbar, type SettingsState } from "./reader-toolbar.ts";
import { highlightsColumn, selectionPopover } from "./reader-highlights.ts";
import { LIBRARY_STYLE, libraryCsp } from "./style.ts";

/** Ids the page itself uses, which a heading of the article must not take. */
const PAGE_IDS = [
  "reader",
  "r-article",
  "r-progress",
  "r-notebooks",
  "r-notes",
  "r-ask",
  "r-rename",
  "r-highlights",
  "r-highlights-title",
  "r-hl-pop",
  "f-hl-new-note",
  "r-outline",
  "f-tags",
  "f-tags-hint",
  "r-tag-names",
  "f-r-size",
  "f-r-lh",
  "f-r-settings-error",
  "f-rename",
  "f-rename-hint",
  "f-rename-error",
  "f-question",
  "f-question-hint",
  "f-question-error",
  "f-add-nb",
];
/** An article gets an outline from this many headings on. */
const OUTLINE_FROM = 3;

export interface ReaderPageInput {
  user: LayoutUser;
  source: SourcePublic;
  preferences: Preferences;
  /** The source's highlights in text order (orphaned ones included). */
  highlights: HighlightPublic[];
  notebooks: NotebookPublic[];
  /** The library's tags, most used first: completions in the toolbar's tag field. */
  tagNames?: string[];
  /** Notes whose source_ids contain this source, newest first. */
  notes: NotePublic[];
  moreNotes: boolean;
  rename?: RenameState;
  ask?: SourceAskState;
  settings?: SettingsState;
  flash?: Flash;
  status?: number;
  /** The events position when the page was rendered: a live update past it reloads the page. */
  liveSince?: number;
}

function notReady(s: SourcePublic, liveSince?: number): SafeHtml {
  if (s.status === "pending") {
    // Live: the page reloads itself when the source is ready or failed; without script, a reload shows it.
    return html`<p class="card"${liveAttrs({ kind: "source", id: s.id, reload: true, since: liveSince })}>This source is still being fetched. The page shows it as soon as it is ready (or reload it in a moment).</p>
<p class="muted">A podcast can be made once it is Ready.</p>`;
  }
  if (s.status === "failed") {
    return html`<div class="card"><p><strong>It could not be fetched:</strong> ${failureWords(s.error)}.</p>
  ${s.error_detail ? html`<p class="muted">${s.error_detail}</p>` : ""}
  <p class="muted">Refetch to try again, or read it at the original link.</p></div>`;
  }
  return html`<p class="muted">No text was extracted from this source.</p>`;
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

function outlineList(outline: OutlineEntry[]): SafeHtml {
  const top = Math.min(...outline.map((h) => h.level));
  return html`<ol class="r-toc">${outline.map(
    (h) => html`<li class="l${Math.min(6, h.level - top + 1)}"><a href="#${h.id}">${h.text}</a></li>`,
  )}</ol>`;
}

/** Byline · site · published · reading time · saved, then tags and what the link check found. */
function articleHead(s: SourcePublic, outline: OutlineEntry[]): SafeHtml {
  const original = s.final_url ?? s.url;
  const parts: SafeHtml[] = [];
  if (s.byline) parts.push(html`<span>${s.byline}</span>`);
  parts.push(html`<a href="${original}" rel="noopener noreferrer nofollow">${s.site_name || hostOf(original)}</a>`);
  if (s.published_at) parts.push(html`<span>Published ${day(s.published_at)}</span>`);
  if (s.reading_minutes) parts.push(html`<span>${s.reading_minutes} min read</span>`);
  parts.push(html`<span>Saved ${day(s.saved_at)}</span>`);
  if (s.status !== "ready") parts.push(statusBadge(s));
  const gone =
    s.original_status === "gone"
      ? "The original page is gone"
      : s.original_status === "moved"
        ? "The original page has moved"
        : "";
  return html`<header class="r-head">
  ${outline.length >= OUTLINE_FROM ? html`<details class="r-outline-narrow"><summary>Contents</summary><nav aria-label="Outline">${outlineList(outline)}</nav></details>` : ""}
  <h1>${s.title || s.url}</h1>
  <p class="meta">${parts.map((p, i) => html`${i ? " · " : ""}${p}`)}</p>
  ${s.tags.length ? html`<p class="meta">${tagLinks(s.tags)}</p>` : ""}
  ${gone ? html`<p class="notice" role="note"><strong>${gone}</strong> (checked ${day(s.original_checked_at)}). This saved copy is complete: you are reading it in full.</p>` : ""}
</header>`;
}

export function readerPage(p: ReaderPageInput): Response {
  const s = p.source;
  const pref = p.preferences;
  const text = s.status === "ready" && s.content?.trim() ? s.content : null;
  const article = text ? renderArticle(text, PAGE_IDS) : null;
  const outline = article?.outline ?? [];
  const body = html`<div id="reader" data-source="${s.id}" data-progress="${s.progress}"${s.read_at ? html` data-read` : ""} data-font="${pref.reader_font}" data-size="${pref.reader_size}" data-line-height="${lineHeightKey(pref.reader_line_height)}" data-width="${pref.reader_width}" data-theme="${pref.reader_theme}">
${toolbar(p.user, s, pref, p.settings, p.tagNames)}
<div class="reader">
  ${outline.length >= OUTLINE_FROM ? html`<nav class="r-outline" id="r-outline" aria-label="Outline"><p class="r-col-title" aria-hidden="true">Contents</p>${outlineList(outline)}</nav>` : ""}
  <div class="r-main">
    ${articleHead(s, outline)}
    <hr class="r-rule">
    ${article ? html`<article class="r-article" id="r-article"${s.language ? html` lang="${s.language}"` : ""}>${article.html}</article>` : notReady(s, p.liveSince)}
    <div class="r-after">
      <section id="r-notebooks"><h2>Notebooks</h2>
      ${membership(p.user, s, p.notebooks)}</section>
      <section id="r-notes"><h2>Notes about this source</h2>
      ${linkedNotes(s, p.notes, p.moreNotes)}</section>
      <div id="r-ask">${askSection(p.user, s, p.ask)}</div>
      <div id="r-rename">${renameSection(p.user, s, p.rename)}</div>
    </div>
  </div>
  ${article ? highlightsColumn(p.user, s.id, p.highlights) : ""}
</div>
${article ? selectionPopover() : ""}
</div>
<script src="${READER_SCRIPT_PATH}" defer></script>`;
  const markup = layout({
    title: s.title || hostOf(s.url),
    user: p.user,
    body: html`<style>${raw(LIBRARY_STYLE)}</style><style>${raw(READER_STYLE)}</style>${body}`,
    flash: p.flash,
  });
  // The library's policy (images from this site only: the archived copy's) plus the reader's own stylesheet.
  const csp = libraryCsp().replace("style-src ", `style-src ${READER_STYLE_HASH} `);
  return pageResponse(markup, { status: p.status, headers: { "content-security-policy": csp } });
}

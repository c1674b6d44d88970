// The Highlights page: every highlight across the library, newest first, filtered by notebook or tag,
// each with its note and a link into the reader at its place, and the CSV (Readwise's columns).
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { HighlightPublic } from "../../features/library/highlights/schema.ts";
import { html, type LayoutUser } from "../../http/html/html.ts";
import { day, libraryPage, select } from "./common.ts";

export interface HighlightsFilter {
  notebook?: string;
  tag?: string;
}

const query = (f: HighlightsFilter, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams();
  if (f.notebook) q.set("notebook", f.notebook);
  if (f.tag) q.set("tag", f.tag);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
};

export function highlightsPage(p: {
  user: LayoutUser;
  highlights: HighlightPublic[];
  next: string | null;
  filter: HighlightsFilter;
  notebooks: NotebookPublic[];
  tagNames: string[];
}): Response {
  const filtered = Boolean(p.filter.notebook || p.filter.tag);
  const nbOptions = [
    { value: "", label: "All notebooks" },
    ...p.notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
  ];
  const list = p.highlights.length
    ? html`<ul class="items highlight-list">${p.highlights.map(
        (h) => html`<li id="hl-${h.id}"><blockquote class="quote hl-${h.color}">${h.exact}</blockquote>
  ${h.note ? html`<p class="note">${h.note}</p>` : ""}
  <div class="meta"><a href="/library/sources/${h.source_id}#hl-${h.id}">${h.source.title || h.source.url}</a><span>${day(h.created_at)}</span>${h.orphaned ? html`<span class="status failed">Text gone after a refetch</span>` : ""}</div></li>`,
      )}</ul>`
    : html`<p class="muted">${filtered ? "No highlights match these filters." : "No highlights yet. Select text in the reader to highlight it, with a colour and a note."}</p>`;
  const body = html`<h1>Highlights</h1>
<form method="get" action="/highlights" class="filters">
  <div><label for="f-hl-notebook">Notebook</label>${select("notebook", "f-hl-notebook", nbOptions, p.filter.notebook)}</div>
  <div><label for="f-hl-tag">Tag</label><input id="f-hl-tag" name="tag" type="text" value="${p.filter.tag ?? ""}" maxlength="100" autocomplete="off" list="hl-tag-names"></div>
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a href="/highlights">Clear</a>` : ""}
</form>
<datalist id="hl-tag-names">${p.tagNames.map((t) => html`<option value="${t}"></option>`)}</datalist>
<p class="row-actions"><a href="/highlights/export.csv${query(p.filter)}" download>Download as CSV</a> <span class="muted">(the columns Readwise imports)</span> <a href="/search?type=highlight">Search highlights</a></p>
${list}
${p.next ? html`<p class="pager"><a href="/highlights${query(p.filter, { before: p.next })}" rel="next">More →</a></p>` : ""}`;
  return libraryPage({ title: "Highlights", user: p.user, body });
}

// Pages for tags: every tag with its count and the pairs worth merging, and one tag's page with its
// sources and highlights, where it is renamed (onto another name: merged) or deleted.
import type { HighlightPublic } from "../../features/library/highlights/schema.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import type { SimilarPair } from "../../features/library/tagging/suggest.ts";
import { html, type Flash, type LayoutUser } from "../../http/html/html.ts";
import { csrfInput, fieldError, hostOf, libraryPage } from "./common.ts";

export const tagHref = (name: string) => `/tags/${encodeURIComponent(name)}`;
const count = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

const REASONS: Record<SimilarPair["reason"], string> = {
  spelling: "the same words spelled differently",
  together: "nearly always on the same sources",
  meaning: "close in meaning",
};

export function tagsPage(p: {
  user: LayoutUser;
  tags: { name: string; count: number }[];
  similar: SimilarPair[];
  q?: string;
  flash?: Flash;
}): Response {
  const list = p.tags.length
    ? html`<ul class="tag-cloud">${p.tags.map(
        (t) =>
          html`<li><a href="${tagHref(t.name)}">${t.name}</a> <span class="muted" aria-label="${count(t.count, "source", "sources")}">${t.count.toLocaleString("en")}</span></li>`,
      )}</ul>`
    : html`<p class="muted">${p.q ? html`No tag contains “${p.q}”.` : html`No tags yet. Add them from a source's page or the library, or accept the ones suggested for a new source.`}</p>`;
  const similar = p.similar.length
    ? html`<h2>Tags that look alike</h2>
<p class="muted">Merging moves every source of the second tag to the first; nothing is deleted.</p>
<ul class="items">${p.similar.map(
        (
          s,
        ) => html`<li class="row-actions"><div><a href="${tagHref(s.merge)}">${s.merge}</a> → <a href="${tagHref(s.keep)}">${s.keep}</a>
  <div class="meta"><span>${REASONS[s.reason]}</span></div></div>
  <form method="post" action="/tags/merge">${csrfInput(p.user.csrfToken)}<input type="hidden" name="merge" value="${s.merge}"><input type="hidden" name="keep" value="${s.keep}"><button type="submit" class="secondary" aria-label="Merge ${s.merge} into ${s.keep}">Merge</button></form></li>`,
      )}</ul>`
    : html``;
  const body = html`<h1>Tags</h1>
<form method="get" action="/tags" class="filters" role="search">
  <div><label for="f-tag-q">Find a tag</label><input id="f-tag-q" name="q" type="search" value="${p.q ?? ""}" maxlength="100" autocomplete="off"></div>
  <button type="submit" class="secondary">Find</button>
  ${p.q ? html`<a href="/tags">All tags</a>` : ""}
</form>
${list}
${similar}`;
  return libraryPage({ title: "Tags", user: p.user, body, flash: p.flash });
}

export function tagPage(p: {
  user: LayoutUser;
  name: string;
  count: number;
  sources: SourcePublic[];
  moreSources: boolean;
  highlights: HighlightPublic[];
  moreHighlights: boolean;
  rename?: { value: string; error?: string };
  flash?: Flash;
  status?: number;
}): Response {
  const sources = p.sources.length
    ? html`<ul class="items">${p.sources.map(
        (s) => html`<li><a class="title" href="/library/sources/${s.id}">${s.title || s.url}</a>
  <div class="meta"><span>${s.site_name || hostOf(s.final_url ?? s.url)}</span>${s.reading_minutes ? html`<span>${s.reading_minutes} min read</span>` : ""}</div></li>`,
      )}</ul>
${p.moreSources ? html`<p><a href="/library?view=all&amp;tag=${encodeURIComponent(p.name)}">All ${count(p.count, "source", "sources")} with this tag →</a></p>` : ""}`
    : html`<p class="muted">No source carries this tag any more.</p>`;
  const highlights = p.highlights.length
    ? html`<ul class="items highlight-list">${p.highlights.map(
        (h) => html`<li><blockquote class="quote hl-${h.color}">${h.exact}</blockquote>
  ${h.note ? html`<p class="note">${h.note}</p>` : ""}
  <div class="meta"><a href="/library/sources/${h.source_id}#hl-${h.id}">${h.source.title || h.source.url}</a></div></li>`,
      )}</ul>
${p.moreHighlights ? html`<p><a href="/highlights?tag=${encodeURIComponent(p.name)}">All highlights with this tag →</a></p>` : ""}`
    : html`<p class="muted">No highlights in these sources yet.</p>`;
  const r = p.rename ?? { value: p.name };
  const body = html`<p><a href="/tags">← Tags</a></p>
<h1><span class="muted">#</span>${p.name}</h1>
<p class="meta muted">${count(p.count, "source", "sources")}</p>
<h2>Sources</h2>
${sources}
<h2>Highlights</h2>
${highlights}
<h2>Rename or merge</h2>
<form method="post" action="${tagHref(p.name)}/rename" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  <label for="f-tag-name">New name</label>
  <input id="f-tag-name" name="name" type="text" value="${r.value}" required maxlength="100" autocomplete="off"${r.error ? html` aria-invalid="true" aria-describedby="f-tag-name-error"` : ""}>
  ${fieldError("f-tag-name", r.error)}
  <p class="field-hint muted">A name that is already a tag merges the two: each source keeps it once.</p>
  <div class="actions"><button type="submit">Rename</button></div>
</form>
<h2>Delete</h2>
<p><a href="${tagHref(p.name)}/delete">Take this tag off every source…</a> <span class="muted">The sources stay.</span></p>`;
  return libraryPage({ title: `#${p.name}`, user: p.user, body, flash: p.flash, status: p.status });
}

// The search page: a query form with results (highlighted snippets) and an Ask form with a cited answer.
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { AskResponse, SearchHit, SearchMode } from "../../features/search/schema.ts";
import { html, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, hostOf, libraryPage, select } from "./common.ts";

export interface SearchQuery {
  q: string;
  mode: SearchMode;
  type: "" | "source" | "note" | "highlight";
  notebook?: string;
}

export interface AskState {
  question: string;
  notebook?: string;
  result?: AskResponse;
  /** A problem said plainly (out of credit, model server down, empty question). */
  error?: string;
}

/** The snippet as text with its match offsets wrapped in <mark>; offsets are clamped, overlapping parts marked once. */
export function highlighted(snippet: string, highlights: { start: number; end: number }[]): SafeHtml {
  const parts: SafeHtml[] = [];
  let at = 0;
  for (const h of [...highlights].sort((a, b) => a.start - b.start)) {
    const start = Math.max(h.start, at);
    const end = Math.min(h.end, snippet.length);
    if (end <= start) continue;
    parts.push(html`${snippet.slice(at, start)}<mark>${snippet.slice(start, end)}</mark>`);
    at = end;
  }
  parts.push(html`${snippet.slice(at)}`);
  return html`${parts}`;
}

const hitHref = (type: "source" | "note", id: string) =>
  type === "source" ? `/library/sources/${id}` : `/notes/${id}`;

/** A highlight opens its source; the other hits open themselves. */
const hitLink = (hit: SearchHit) =>
  hit.type === "highlight" ? `${hitHref("source", hit.source_id ?? "")}#hl-${hit.id}` : hitHref(hit.type, hit.id);
const HIT_KIND = { source: "Source", note: "Note", highlight: "Highlight" } as const;

function hitRow(hit: SearchHit): SafeHtml {
  const title = hit.title || (hit.type === "note" ? "Untitled note" : (hit.url ?? hit.id));
  return html`<li>
  <a class="title" href="${hitLink(hit)}">${title}</a>
  <div class="meta"><span>${HIT_KIND[hit.type]}</span>${hit.url ? html`<span>${hostOf(hit.url)}</span>` : ""}</div>
  <p class="snippet">${highlighted(hit.snippet, hit.highlights)}</p>
</li>`;
}

/** The answer's text with each [n] that has a citation turned into a link to it. */
export function answerWithLinks(answer: string, numbers: Set<number>): SafeHtml {
  const parts: SafeHtml[] = [];
  let at = 0;
  for (const m of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (!numbers.has(n)) continue;
    parts.push(html`${answer.slice(at, m.index)}<a href="#cite-${n}" class="cite">[${n}]</a>`);
    at = m.index + m[0].length;
  }
  parts.push(html`${answer.slice(at)}`);
  return html`${parts}`;
}

export function askResult(a: AskState): SafeHtml {
  if (a.error) return html`<div class="flash error" role="alert">${a.error}</div>`;
  const r = a.result;
  if (!r) return html``;
  const numbers = new Set(r.citations.map((c) => c.n));
  return html`<section class="card" aria-label="Answer" data-replace-history>
  <p class="answer">${answerWithLinks(r.answer, numbers)}</p>
  ${r.extractive ? html`<p class="muted">This answer is put together from sentences in your library, not written by a language model.</p>` : ""}
  ${
    r.citations.length
      ? html`<ol class="citations">${r.citations.map(
          (c) => html`<li id="cite-${c.n}" value="${c.n}">
    <a href="${hitHref(c.type, c.id)}">${c.title || (c.type === "note" ? "Untitled note" : (c.url ?? c.id))}</a>${c.url ? html` · <a href="${c.url}" rel="noopener noreferrer nofollow">original ↗</a>` : ""}
    <blockquote>${c.quote}</blockquote></li>`,
        )}</ol>`
      : ""
  }
  <p class="muted">Credits used: ${r.credits_used} · remaining: ${r.credits_remaining}</p>
</section>`;
}

export interface SearchPageInput {
  user: LayoutUser;
  notebooks: NotebookPublic[];
  query: SearchQuery;
  hits?: SearchHit[];
  searchError?: string;
  ask?: AskState;
  status?: number;
}

export function searchPage(p: SearchPageInput): Response {
  const q = p.query;
  const modes = [
    { value: "text", label: "Words (text)" },
    { value: "vector", label: "Meaning (vector)" },
    { value: "hybrid", label: "Both (hybrid)" },
  ];
  const types = [
    { value: "", label: "Everything" },
    { value: "source", label: "Sources" },
    { value: "note", label: "Notes" },
    { value: "highlight", label: "Highlights" },
  ];
  const nbOptions = [
    { value: "", label: "All notebooks" },
    ...p.notebooks.map((nb) => ({ value: nb.id, label: nb.name })),
  ];
  const ask = p.ask ?? { question: "", notebook: q.notebook };
  let results: SafeHtml = html``;
  if (p.searchError) results = html`<div class="flash error" role="alert">${p.searchError}</div>`;
  else if (p.hits) {
    results = p.hits.length
      ? html`<ul class="items">${p.hits.map(hitRow)}</ul>`
      : html`<p class="muted">Nothing found for “${q.q}”. Sources are searchable once they show as Ready.</p>`;
  }
  const body = html`<h1>Search</h1>
<form method="get" action="/search" role="search">
  <label for="f-q">Search your library</label>
  <input id="f-q" name="q" type="search" value="${q.q}" maxlength="1000" autocomplete="off">
  <div class="filters">
    <div><label for="f-mode">Match by</label>${select("mode", "f-mode", modes, q.mode)}</div>
    <div><label for="f-type">Look in</label>${select("type", "f-type", types, q.type)}</div>
    <div><label for="f-snb">Notebook</label>${select("notebook", "f-snb", nbOptions, q.notebook)}</div>
    <button type="submit">Search</button>
  </div>
</form>
${results}
<h2>Ask your library</h2>
<p class="muted">A question answered from your sources and notes, with numbered citations. Each answer uses AI credits.</p>
<form method="post" action="/search/ask" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  <label for="f-question">Question</label>
  <textarea id="f-question" name="question" class="short" maxlength="2000" required>
${ask.question}</textarea>
  <label for="f-anb">Notebook</label>${select("notebook_id", "f-anb", nbOptions, ask.notebook)}
  <div class="actions"><button type="submit">Ask</button></div>
</form>
${askResult(ask)}`;
  return libraryPage({ title: q.q ? `Search: ${q.q}` : "Search", user: p.user, body, status: p.status });
}

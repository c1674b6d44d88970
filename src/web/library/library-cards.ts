// One source on the Library page: a preview card or a compact row, each with its triage controls
// (favorite, archive, tag, notebook, delete) as small POST forms that work without script.
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, raw, type SafeHtml } from "../../http/html/html.ts";
import { liveAttrs } from "../live.ts";
import { csrfInput, day, hostOf } from "./common.ts";
import { hrefOf, type LibraryParams } from "./library-query.ts";
import { statusBadge } from "./source-pages.ts";

export type Layout = "cards" | "list";

/** What every card of a page shares: the session's token, where forms come back to, notebook names. */
export interface CardContext {
  csrf: string;
  /** The page's own address, so a form without script comes back to the same view and page. */
  back: string;
  params: LibraryParams;
  /** Names of the owner's notebooks, by id (a card shows the ones it is in). */
  names: Map<string, string>;
  /** The notebooks a card's picker offers (the newest few; the reader lists them all). */
  picker: NotebookPublic[];
  /** Ids to render already selected (the no-script "Select all on this page"). */
  selected?: ReadonlySet<string>;
}

const svg = (path: string) =>
  raw(
    `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${path}</svg>`,
  );
const ICONS = {
  star: svg('<path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"/>'),
  archive: svg('<rect x="3" y="4" width="18" height="4" rx="1"/><path d="M5 8v11h14V8M10 12h4"/>'),
  unarchive: svg(
    '<rect x="3" y="4" width="18" height="4" rx="1"/><path d="M5 8v11h14V8M12 17v-6M9.5 13.5 12 11l2.5 2.5"/>',
  ),
  more: svg('<circle cx="5" cy="12" r="1.2"/><circle cx="12" cy="12" r="1.2"/><circle cx="19" cy="12" r="1.2"/>'),
};

/** A stable colour (one of eight) for a site's placeholder, from its host name. */
export function hueOf(host: string): number {
  let h = 0;
  for (const c of host) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 8;
}

const siteOf = (s: SourcePublic) => s.site_name || hostOf(s.final_url ?? s.url);
const titleOf = (s: SourcePublic) => s.title || s.url;

/** The preview image, or a block with the site's initial in the site's colour (nothing from other hosts). */
function thumb(s: SourcePublic): SafeHtml {
  if (s.image_url)
    return html`<div class="thumb"><img src="/sources/${s.id}/image" alt="" loading="lazy" decoding="async"></div>`;
  const host = hostOf(s.final_url ?? s.url).replace(/^www\./, "");
  const initial = (s.site_name || host).trim().charAt(0).toUpperCase() || "?";
  return html`<div class="thumb ph ph-${hueOf(host)}" aria-hidden="true"><span>${initial}</span></div>`;
}

/** Pending, failed, original gone or moved, read: the states worth a word. */
function badges(s: SourcePublic): SafeHtml {
  return html`${s.status === "ready" ? "" : statusBadge(s)}${
    s.original_status === "gone"
      ? html`<span class="badge warn" title="The original address no longer answers (404 or 410); this copy is kept">Original gone</span>`
      : s.original_status === "moved"
        ? html`<span class="badge warn" title="The original address now redirects elsewhere">Original moved</span>`
        : ""
  }`;
}

function minutes(s: SourcePublic): SafeHtml {
  return s.reading_minutes ? html`<span class="mins">${s.reading_minutes} min</span>` : html``;
}

function progressBar(s: SourcePublic): SafeHtml {
  const pct = Math.round(Math.max(0, Math.min(1, s.progress)) * 100);
  if (pct === 0 && !s.read_at) return html``;
  const label = s.read_at ? "Read" : `${pct}% read`;
  return html`<progress class="pbar" max="100" value="${s.read_at ? 100 : pct}" aria-label="${label}" title="${label}"></progress>`;
}

/** Tags (links to the same view filtered by each) and notebooks the source is in. */
function chips(s: SourcePublic, c: CardContext): SafeHtml {
  const nbs = s.notebook_ids.filter((id) => c.names.has(id));
  const suggested = s.suggested_tags ?? [];
  if (!s.tags.length && !nbs.length && !suggested.length) return html``;
  return html`<div class="chips">${s.tags.map(
    (t) => html`<a class="tag" href="${hrefOf({ view: c.params.view, tag: t })}">#${t}</a>`,
  )}${nbs.map((id) => html`<a class="nb" href="/notebooks/${id}">${c.names.get(id)}</a>`)}${suggested.map(
    (t) =>
      html`<form method="post" action="/library/sources/${s.id}/triage" class="act suggest">${hidden(c, "tag")}<input type="hidden" name="tag" value="${t}"><button type="submit" class="suggest" title="Suggested tag: add it">+ ${t}<span class="vh"> (suggested tag: add it)</span></button></form>`,
  )}</div>`;
}

const hidden = (c: CardContext, op: string) =>
  html`${csrfInput(c.csrf)}<input type="hidden" name="back" value="${c.back}"><input type="hidden" name="op" value="${op}">`;

/** Favorite and archive as one-button forms; their names say what pressing does. */
function quickActions(s: SourcePublic, c: CardContext): SafeHtml {
  const action = `/library/sources/${s.id}/triage`;
  return html`<form method="post" action="${action}" class="act">${hidden(c, s.favorite ? "unfavorite" : "favorite")}<button type="submit" class="icon secondary${s.favorite ? " on" : ""}" data-act="favorite" aria-pressed="${s.favorite ? "true" : "false"}" title="Favorite (f)">${ICONS.star}<span class="vh">Favorite</span></button></form>
<form method="post" action="${action}" class="act">${hidden(c, s.archived ? "unarchive" : "archive")}<button type="submit" class="icon secondary" data-act="archive" title="${s.archived ? "Move back to the inbox (e)" : "Archive (e)"}">${s.archived ? ICONS.unarchive : ICONS.archive}<span class="vh">${s.archived ? "Unarchive" : "Archive"}</span></button></form>`;
}

/** The rest behind a disclosure: add a tag, add to a notebook, open the original, delete. */
function moreMenu(s: SourcePublic, c: CardContext): SafeHtml {
  const action = `/library/sources/${s.id}/triage`;
  const others = c.picker.filter((nb) => !s.notebook_ids.includes(nb.id));
  return html`<details class="menu">
  <summary title="More actions">${ICONS.more}<span class="vh">More actions for ${titleOf(s)}</span></summary>
  <div class="menu-pop">
    <form method="post" action="${action}" class="mini">${hidden(c, "tag")}
      <label for="tag-${s.id}">Add a tag</label>
      <span class="pair"><input id="tag-${s.id}" name="tag" type="text" maxlength="100" autocomplete="off" list="tag-names" required data-tag-field><button type="submit" class="secondary">Add</button></span>
    </form>
    ${
      others.length
        ? html`<form method="post" action="${action}" class="mini">${hidden(c, "notebook")}
      <label for="nb-${s.id}">Add to notebook</label>
      <span class="pair"><select id="nb-${s.id}" name="notebook_id">${others.map((nb) => html`<option value="${nb.id}">${nb.name}</option>`)}</select><button type="submit" class="secondary">Add</button></span>
    </form>`
        : ""
    }
    <p class="links"><a href="${s.final_url ?? s.url}" rel="noopener noreferrer nofollow">Open the original ↗</a> <a href="/library/sources/${s.id}/delete" class="del">Delete…</a></p>
  </div>
</details>`;
}

function pick(s: SourcePublic, c: CardContext): SafeHtml {
  return html`<input type="checkbox" class="pick" name="ids" value="${s.id}" form="bulk" aria-label="Select ${titleOf(s)}"${c.selected?.has(s.id) ? html` checked` : ""}>`;
}

/** The element's opening: live (re-rendered from its fragment when the source changes), focusable for j/k. */
function opening(s: SourcePublic, layout: Layout, cls: string): SafeHtml {
  const fragment = `/library/sources/${s.id}/${layout === "cards" ? "card" : "row"}`;
  return html`<li${liveAttrs({ kind: "source", id: s.id, fragment })} class="${cls}${s.archived ? " is-archived" : ""}" id="s-${s.id}" data-card tabindex="-1">`;
}

/** A preview card: image or placeholder, title, site, excerpt, time to read, tags, notebooks, progress. */
export function sourceCard(s: SourcePublic, c: CardContext): SafeHtml {
  const host = hostOf(s.final_url ?? s.url);
  return html`${opening(s, "cards", "item")}
  ${thumb(s)}${pick(s, c)}
  <div class="body">
    <h3 class="t"><a class="title" href="/library/sources/${s.id}">${titleOf(s)}</a></h3>
    <p class="site"><span>${siteOf(s)}</span>${s.site_name && s.site_name !== host ? html` <span class="host">${host}</span>` : ""}</p>
    ${s.excerpt ? html`<p class="excerpt">${s.excerpt}</p>` : ""}
    <p class="meta">${minutes(s)}<span>Saved ${day(s.saved_at)}</span>${badges(s)}</p>
    ${chips(s, c)}
    <div class="foot">${progressBar(s)}<div class="acts">${quickActions(s, c)}${moreMenu(s, c)}</div></div>
  </div>
</li>`;
}

/** A compact row: title, site, time to read, tags, progress, with the same controls. */
export function sourceLine(s: SourcePublic, c: CardContext): SafeHtml {
  return html`${opening(s, "list", "line")}
  ${pick(s, c)}
  <div class="main">
    <a class="title" href="/library/sources/${s.id}">${titleOf(s)}</a>
    <span class="site">${siteOf(s)}</span>${minutes(s)}${badges(s)}${chips(s, c)}
  </div>
  ${progressBar(s)}<div class="acts">${quickActions(s, c)}${moreMenu(s, c)}</div>
</li>`;
}

export function sourceItem(s: SourcePublic, c: CardContext, layout: Layout): SafeHtml {
  return layout === "cards" ? sourceCard(s, c) : sourceLine(s, c);
}

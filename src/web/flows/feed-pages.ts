// Feeds: subscribe by pasting a site or feed address (choosing when a page offers several), the list of
// subscriptions and watches with their polling state, pause/resume, poll now and unsubscribe.
// Feed titles and errors come from outside servers and render as text.
import type { FeedPublic } from "../../features/feeds/schema.ts";
import type { Discovery } from "../../features/feeds/subscriptions.ts";
import { html, raw, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, pager, when } from "../library/common.ts";
import { flowsPage } from "./style.ts";
import { badge } from "./views.ts";

export const FEEDS_PATH = "/feeds";

/** The schedules offered; any other cron (a workflow's) is shown as it is. */
export const SCHEDULES: [cron: string, label: string][] = [
  ["*/30 * * * *", "Every 30 minutes"],
  ["0 * * * *", "Every hour"],
  ["0 */6 * * *", "Every 6 hours"],
  ["0 7 * * *", "Once a day"],
];
const BACKFILLS: [value: string, label: string][] = [
  ["0", "Nothing: only new entries"],
  ["3", "The newest 3 entries"],
  ["10", "The newest 10 entries"],
];

export const scheduleLabel = (cron: string) => SCHEDULES.find(([c]) => c === cron)?.[1] ?? cron;

export interface Notebook {
  id: string;
  name: string;
}

export interface SubscribeForm {
  url: string;
  schedule: string;
  backfill: string;
  notebookIds: string[];
}

export const EMPTY_FORM: SubscribeForm = { url: "", schedule: SCHEDULES[0]![0], backfill: "0", notebookIds: [] };

export interface FeedsPageInput {
  user: LayoutUser;
  now: number;
  feeds: FeedPublic[];
  /** Sources the latest poll of each watch created. */
  lastNew: Map<string, number>;
  workflows: Map<string, string>;
  notebooks: Notebook[];
  next: string | null;
  flash?: Flash;
  form?: SubscribeForm;
  /** Field → messages, from a refused subscription. */
  errors?: Map<string, string[]>;
  status?: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const nameOf = (f: FeedPublic) => f.title ?? f.feed_url;

/** Only http(s) URLs become links (subscriptions and watch_feed accept no others; this keeps it so). */
function feedLink(url: string): SafeHtml {
  return /^https?:\/\//i.test(url)
    ? html`<a href="${url}" rel="noreferrer noopener" class="mono">${url}</a>`
    : html`<span class="mono">${url}</span>`;
}

function lastPoll(f: FeedPublic, fresh: number): SafeHtml {
  if (!f.last_polled_at) return html`<span class="muted">Not polled yet</span>`;
  const outcome =
    f.consecutive_failures > 0
      ? html`failed${f.last_status ? html` (HTTP ${f.last_status})` : ""}`
      : html`${f.last_status === 304 ? "not modified (304)" : `ok${f.last_status ? ` (HTTP ${f.last_status})` : ""}`}, ${plural(fresh, "new entry", "new entries")}`;
  return html`${when(f.last_polled_at)} <span class="sub">${outcome}</span>`;
}

function nextPoll(f: FeedPublic, now: number): SafeHtml {
  if (f.paused) return html`<span class="muted">None while paused</span>`;
  if (!f.active)
    return html`<span class="muted">None while its workflow is inactive (or has no watch_feed action)</span>`;
  if (f.next_poll_at && Date.parse(f.next_poll_at) <= now)
    return html`Due now <span class="sub">within a minute</span>`;
  return when(f.next_poll_at);
}

export function scheduleSelect(id: string, current: string): SafeHtml {
  const known = SCHEDULES.some(([c]) => c === current);
  return html`<select id="${id}" name="schedule">${SCHEDULES.map(
    ([c, label]) => html`<option value="${c}"${raw(c === current ? " selected" : "")}>${label}</option>`,
  )}${known ? "" : html`<option value="${current}" selected>Custom: ${current}</option>`}</select>`;
}

export function notebookPicker(notebooks: Notebook[], checked: string[], legend: string): SafeHtml {
  if (notebooks.length === 0)
    return html`<p class="muted">New entries go to your library. <a href="/notebooks">Make a notebook</a> to file them in one.</p>`;
  return html`<fieldset><legend>${legend} <span class="muted">(optional)</span></legend>${notebooks.map(
    (nb) =>
      html`<label class="check"><input type="checkbox" name="notebook_ids" value="${nb.id}"${raw(checked.includes(nb.id) ? " checked" : "")}> ${nb.name}</label>`,
  )}</fieldset>`;
}

/** Pause / Resume, Poll now, Unsubscribe…: the same buttons on the list and on a feed's page. */
export function feedActions(f: FeedPublic, csrf: string, back: string): SafeHtml {
  const name = nameOf(f);
  const hidden = html`${csrfInput(csrf)}<input type="hidden" name="back" value="${back}">`;
  return html`<div class="row-actions">
  <form method="post" action="${FEEDS_PATH}/${f.id}/${f.paused ? "resume" : "pause"}">${hidden}<button type="submit" class="secondary small" aria-label="${f.paused ? "Resume" : "Pause"}: ${name}">${f.paused ? "Resume" : "Pause"}</button></form>
  <form method="post" action="${FEEDS_PATH}/${f.id}/poll">${hidden}<button type="submit" class="secondary small" aria-label="Poll now: ${name}">Poll now</button></form>
  <a href="${FEEDS_PATH}/${f.id}/unsubscribe" aria-label="Unsubscribe…: ${name}">Unsubscribe…</a>
</div>`;
}

export function feedFacts(f: FeedPublic, p: { now: number; lastNew: number; workflowName?: string }): SafeHtml {
  return html`<dl class="facts">
  <dt>Feed</dt><dd>${feedLink(f.feed_url)}${f.fetch_url && f.fetch_url !== f.feed_url ? html`<span class="sub">polls ${f.fetch_url}</span>` : ""}</dd>
  ${f.workflow_id ? html`<dt>Workflow</dt><dd><a href="/workflows/${f.workflow_id}">${p.workflowName ?? f.workflow_id}</a> <span class="sub">its watch_feed sets the schedule and notebooks</span></dd>` : ""}
  <dt>Checked</dt><dd>${scheduleLabel(f.schedule)}</dd>
  <dt>Last poll</dt><dd>${lastPoll(f, p.lastNew)}</dd>
  ${f.last_error ? html`<dt>Last error</dt><dd class="error-text">${f.last_error}</dd>` : ""}
  <dt>Next poll</dt><dd>${nextPoll(f, p.now)}</dd>
  <dt>So far</dt><dd>${plural(f.entries_seen, "entry seen", "entries seen")}, ${plural(f.sources_created, "source saved", "sources saved")}</dd>
</dl>`;
}

export function statusBadges(f: FeedPublic): SafeHtml {
  const status = f.status === "failing" ? badge(`failing × ${f.consecutive_failures}`, "failing") : badge(f.status);
  return html`${status}${f.paused ? html` ${badge("paused", "inactive")}` : !f.active ? html` ${badge("inactive")}` : ""}`;
}

function feedCard(f: FeedPublic, p: FeedsPageInput): SafeHtml {
  return html`<li class="step">
<h3><a href="${FEEDS_PATH}/${f.id}">${nameOf(f)}</a> ${statusBadges(f)}</h3>
${feedFacts(f, { now: p.now, lastNew: p.lastNew.get(f.id) ?? 0, workflowName: f.workflow_id ? p.workflows.get(f.workflow_id) : undefined })}
${feedActions(f, p.user.csrfToken, FEEDS_PATH)}
</li>`;
}

function urlErrors(messages: string[] | undefined): SafeHtml {
  if (!messages?.length) return html``;
  const [first, ...tried] = messages;
  // The service's first message repeats every address for API clients; the list below says them here.
  const lead = first!.startsWith("no feed found") ? "No feed found at this address. Tried:" : first;
  return html`<div class="field-error" id="f-url-error"><p>${lead}</p>${tried.length ? html`<ul>${tried.map((t) => html`<li class="mono">${t}</li>`)}</ul>` : ""}</div>`;
}

function subscribeForm(p: FeedsPageInput): SafeHtml {
  const f = p.form ?? EMPTY_FORM;
  const urlError = p.errors?.get("url");
  const other = [...(p.errors ?? new Map<string, string[]>())].filter(([k]) => k !== "url");
  return html`<section class="card" aria-labelledby="subscribe-h">
<h2 id="subscribe-h">Subscribe</h2>
<form method="post" action="${FEEDS_PATH}">${csrfInput(p.user.csrfToken)}
  <label for="f-url">Site or feed address</label>
  <input id="f-url" name="url" type="url" inputmode="url" required maxlength="2048" placeholder="https://example.com/blog/" value="${f.url}"${raw(urlError ? ' aria-invalid="true" aria-describedby="f-url-error"' : "")}>
  ${urlErrors(urlError)}
  <p class="muted">A blog or news page works: its feed is found from the page. So does a video channel.</p>
  <div class="grid2">
    <div><label for="f-schedule">Check for new entries</label>${scheduleSelect("f-schedule", f.schedule)}</div>
    <div><label for="f-backfill">Save right away</label><select id="f-backfill" name="backfill">${BACKFILLS.map(
      ([v, label]) => html`<option value="${v}"${raw(v === f.backfill ? " selected" : "")}>${label}</option>`,
    )}</select></div>
  </div>
  ${notebookPicker(p.notebooks, f.notebookIds, "Add new entries to")}
  ${other.map(([k, ms]) => html`<p class="field-error">${k}: ${ms.join("; ")}</p>`)}
  <div class="actions"><button type="submit">Subscribe</button></div>
</form>
</section>`;
}

export function feedsPage(p: FeedsPageInput): Response {
  const list = p.feeds.length
    ? html`<ul class="cards">${p.feeds.map((f) => feedCard(f, p))}</ul>${pager(FEEDS_PATH, {}, p.next)}`
    : html`<p class="muted">You follow no feeds yet. Paste a site's address above.</p>`;
  const body = html`<h1>Feeds</h1>
<p class="muted">Follow blogs, news sites and channels: each new entry is saved to your library as a source. Feeds that workflows watch (<code>watch_feed</code>) and feeds from an OPML import are listed here too, one per feed.</p>
${subscribeForm(p)}
<h2>Your feeds</h2>
${list}`;
  return flowsPage({ title: "Feeds", user: p.user, body, flash: p.flash, status: p.status });
}

/** A page advertising several feeds: the person picks one; the rest of the form rides along hidden. */
export function chooseFeedPage(p: { user: LayoutUser; discovery: Discovery; form: SubscribeForm }): Response {
  const kinds = { atom: "Atom", rss: "RSS", json: "JSON Feed", rdf: "RSS 1.0 (RDF)" } as const;
  const body = html`<p><a href="${FEEDS_PATH}">← Feeds</a></p>
<h1>Choose a feed</h1>
<form method="post" action="${FEEDS_PATH}" class="card">${csrfInput(p.user.csrfToken)}
  <input type="hidden" name="schedule" value="${p.form.schedule}">
  <input type="hidden" name="backfill" value="${p.form.backfill}">
  ${p.form.notebookIds.map((id) => html`<input type="hidden" name="notebook_ids" value="${id}">`)}
  <fieldset class="picklist"><legend>The page <span class="mono">${p.discovery.url}</span> offers ${p.discovery.feeds.length} feeds</legend>
  ${p.discovery.feeds.map(
    (f, i) =>
      html`<label class="check"><input type="radio" name="url" value="${f.url}"${raw(i === 0 ? " checked" : "")}> <span>${f.title ?? kinds[f.kind]} <span class="sub">${kinds[f.kind]} · ${f.url}</span></span></label>`,
  )}
  </fieldset>
  <div class="actions"><button type="submit">Subscribe</button> <a href="${FEEDS_PATH}">Cancel</a></div>
</form>`;
  return flowsPage({ title: "Choose a feed", user: p.user, body });
}

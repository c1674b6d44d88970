// Settings → Feeds: the watches made by watch_feed actions with their polling state, "Poll now" and delete.
// Feed titles and errors come from outside servers and render as text.
import type { FeedPublic } from "../../features/feeds/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, pager, when } from "../library/common.ts";
import { flowsPage } from "./style.ts";
import { badge } from "./views.ts";

export interface FeedsPageInput {
  user: LayoutUser;
  feeds: FeedPublic[];
  /** Sources the latest poll of each watch created. */
  lastNew: Map<string, number>;
  workflows: Map<string, string>;
  next: string | null;
  flash?: Flash;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Only http(s) URLs become links (watch_feed accepts no others; this keeps it so). */
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

function feedCard(f: FeedPublic, p: FeedsPageInput): SafeHtml {
  const status = f.status === "failing" ? badge(`failing × ${f.consecutive_failures}`, "failing") : badge(f.status);
  return html`<li class="step">
<h3>${f.title ?? "Untitled feed"} ${status}${f.active ? "" : html` ${badge("paused", "inactive")}`}</h3>
<dl class="facts">
  <dt>Feed</dt><dd>${feedLink(f.feed_url)}${f.fetch_url && f.fetch_url !== f.feed_url ? html`<span class="sub">polls ${f.fetch_url}</span>` : ""}</dd>
  <dt>Workflow</dt><dd><a href="/workflows/${f.workflow_id}">${p.workflows.get(f.workflow_id) ?? f.workflow_id}</a></dd>
  <dt>Schedule</dt><dd class="mono">${f.schedule}</dd>
  <dt>Last poll</dt><dd>${lastPoll(f, p.lastNew.get(f.id) ?? 0)}</dd>
  ${f.last_error ? html`<dt>Last error</dt><dd class="error-text">${f.last_error}</dd>` : ""}
  <dt>Next poll</dt><dd>${f.active ? when(f.next_poll_at) : html`<span class="muted">None while the workflow is inactive (or has no watch_feed action)</span>`}</dd>
  <dt>So far</dt><dd>${plural(f.entries_seen, "entry seen", "entries seen")}, ${plural(f.sources_created, "source saved", "sources saved")}</dd>
</dl>
<div class="row-actions">
  <form method="post" action="/settings/feeds/${f.id}/poll">${csrfInput(p.user.csrfToken)}<button type="submit" class="secondary small" aria-label="Poll ${f.title ?? f.feed_url} now">Poll now</button></form>
  <a href="/settings/feeds/${f.id}/delete" aria-label="Delete the watch of ${f.title ?? f.feed_url}">Delete…</a>
</div>
</li>`;
}

export function feedsPage(p: FeedsPageInput): Response {
  const list = p.feeds.length
    ? html`<ul class="cards">${p.feeds.map((f) => feedCard(f, p))}</ul>${pager("/settings/feeds", {}, p.next)}`
    : html`<p class="muted">No feeds are watched. Add a <code>watch_feed</code> action to a <a href="/workflows">workflow</a>; the watch appears here after it first runs.</p>`;
  const body = html`<p><a href="/workflows">← Workflows</a></p>
<h1>Feeds</h1>
<p class="muted">Each watch belongs to a workflow's <code>watch_feed</code> action. New entries become sources in your library.</p>
${list}`;
  return flowsPage({ title: "Feeds", user: p.user, body, flash: p.flash });
}

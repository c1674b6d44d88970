// One feed: its polling state, pause/resume, poll now, unsubscribe, its schedule and notebooks, and the
// entries it brought in (each a link to the saved source).
import type { FeedEntryPublic, FeedPublic } from "../../features/feeds/schema.ts";
import { html, type Flash, type LayoutUser } from "../../http/html/html.ts";
import { csrfInput, hostOf, pager, when } from "../library/common.ts";
import {
  feedActions,
  feedFacts,
  FEEDS_PATH,
  notebookPicker,
  scheduleSelect,
  statusBadges,
  type Notebook,
} from "./feed-pages.ts";
import { flowsPage } from "./style.ts";
import { badge } from "./views.ts";

export interface FeedDetailInput {
  user: LayoutUser;
  now: number;
  feed: FeedPublic;
  lastNew: number;
  workflowName?: string;
  notebooks: Notebook[];
  entries: FeedEntryPublic[];
  next: string | null;
  flash?: Flash;
}

function entryRow(e: FeedEntryPublic) {
  const status = e.source_status === "ready" ? "" : html` ${badge(e.source_status)}`;
  return html`<li><a href="/library/sources/${e.source_id}">${e.title || e.url}</a>${status}
<span class="sub">${hostOf(e.url)} · brought in ${when(e.seen_at)}</span></li>`;
}

export function feedDetailPage(p: FeedDetailInput): Response {
  const f = p.feed;
  const path = `${FEEDS_PATH}/${f.id}`;
  const entries = p.entries.length
    ? html`<ul class="entries">${p.entries.map(entryRow)}</ul>${pager(path, {}, p.next)}`
    : html`<p class="muted">No entries saved yet. The first poll notes what the feed holds (saving only the newest ones you asked for); entries published after it appear here.</p>`;
  const body = html`<p><a href="${FEEDS_PATH}">← Feeds</a></p>
<h1>${f.title ?? f.feed_url} ${statusBadges(f)}</h1>
${feedFacts(f, { now: p.now, lastNew: p.lastNew, workflowName: p.workflowName })}
${feedActions(f, p.user.csrfToken, path)}
<section class="card" aria-labelledby="settings-h">
<h2 id="settings-h">Settings</h2>
<form method="post" action="${path}/settings">${csrfInput(p.user.csrfToken)}
  <label for="f-schedule">Check for new entries</label>${scheduleSelect("f-schedule", f.schedule)}
  ${notebookPicker(p.notebooks, f.notebook_ids, "Add new entries to")}
  <input type="hidden" name="notebooks_shown" value="1">
  <div class="actions"><button type="submit">Save</button></div>
</form>
</section>
<h2>Entries</h2>
${entries}`;
  return flowsPage({ title: f.title ?? "Feed", user: p.user, body, flash: p.flash });
}

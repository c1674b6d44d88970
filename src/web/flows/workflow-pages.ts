// Pages for workflows: the list (trigger, active, last run) and one workflow with its actions and runs.
import type { TokenPublic } from "../../features/webhooks/schema.ts";
import type { RunPublic, WorkflowPublic } from "../../features/workflows/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, pager, when } from "../library/common.ts";
import { namedIds, type Catalog, type Choices } from "./action-fields.ts";
import type { Action } from "./draft.ts";
import { flowsPage } from "./style.ts";
import { badge, duration, oneTimeUrl, runStatus } from "./views.ts";

export function triggerText(wf: Pick<WorkflowPublic, "trigger">, tokens: Map<string, TokenPublic>): SafeHtml {
  const t = wf.trigger;
  if (t.type === "event") return html`Event <code>${t.event}</code>`;
  const token = t.token_id ? tokens.get(t.token_id) : undefined;
  return html`Webhook${token ? html` <span class="hint">${token.hint}</span>` : ""}`;
}

export function runTrigger(run: RunPublic): string {
  const t = run.trigger as Record<string, unknown>;
  if (typeof t.replay_of === "string") return `replay of ${t.replay_of}`;
  if (run.trigger.type === "event") {
    const data = t.data as { type?: unknown } | null;
    return `event ${typeof data?.type === "string" ? data.type : ""}`.trim();
  }
  if (run.trigger.type === "workflow") return "another workflow";
  return run.trigger.type;
}

function toggleForm(wf: WorkflowPublic, csrf: string, back: string): SafeHtml {
  return html`<form method="post" action="/workflows/${wf.id}/active">${csrfInput(csrf)}
<input type="hidden" name="active" value="${wf.active ? "false" : "true"}"><input type="hidden" name="back" value="${back}">
<button type="submit" class="secondary small" aria-label="${wf.active ? "Deactivate" : "Activate"} ${wf.name}">${wf.active ? "Deactivate" : "Activate"}</button></form>`;
}

export interface ListRow {
  workflow: WorkflowPublic;
  lastRun: RunPublic | undefined;
}

export function workflowsListPage(p: {
  user: LayoutUser;
  rows: ListRow[];
  tokens: Map<string, TokenPublic>;
  next: string | null;
  flash?: Flash;
}): Response {
  const table = p.rows.length
    ? html`<table>
<thead><tr><th>Name</th><th>Trigger</th><th>Active</th><th>Last run</th><th><span class="muted">Switch</span></th></tr></thead>
<tbody>${p.rows.map(
        ({ workflow: wf, lastRun }) => html`<tr>
  <td data-label="Name" class="wrap"><a class="title" href="/workflows/${wf.id}">${wf.name}</a></td>
  <td data-label="Trigger">${triggerText(wf, p.tokens)}</td>
  <td data-label="Active">${wf.active ? badge("active") : badge("inactive")}</td>
  <td data-label="Last run">${lastRun ? html`<a href="/runs/${lastRun.id}">${runStatus(lastRun)}</a> <span class="sub">${when(lastRun.created_at)}</span>` : html`<span class="muted">Never run</span>`}</td>
  <td>${toggleForm(wf, p.user.csrfToken, "/workflows")}</td>
</tr>`,
      )}</tbody></table>
${pager("/workflows", {}, p.next)}`
    : html`<p class="muted">No workflows yet. A workflow runs actions — save links, call other services, send emails — when a webhook is called or something changes in your library.</p>`;
  const body = html`<h1>Workflows</h1>
<div class="row-actions"><a href="/workflows/new"><strong>New workflow</strong></a> <a href="/settings/webhook-tokens">Webhook tokens</a> <a href="/feeds">Feeds</a></div>
${table}`;
  return flowsPage({ title: "Workflows", user: p.user, body, flash: p.flash });
}

/** The actions as a nested list: id, title and the module's one-line summary (a condition's rule). */
function actionSummary(actions: Action[], catalog: Catalog, names: Pick<Choices, "notebooks" | "workflows">): SafeHtml {
  return html`<ol class="action-summaries">${actions.map((a) => {
    const mod = catalog.get(a.type);
    const summary = namedIds(mod?.summary?.(a) ?? "", names);
    const branches = (["then", "else"] as const).filter((b) => Array.isArray(a[b]) && (a[b] as Action[]).length);
    return html`<li><strong>${a.id}</strong> <span class="muted">${mod?.title ?? a.type}</span>${summary ? html` <span class="mono">${summary}</span>` : ""}
${branches.map((b) => html`<div>${b === "then" ? "Then:" : "Else:"} ${actionSummary(a[b] as Action[], catalog, names)}</div>`)}</li>`;
  })}</ol>`;
}

export interface WorkflowPageInput {
  user: LayoutUser;
  workflow: WorkflowPublic;
  catalog: Catalog;
  /** Names of the user's notebooks and workflows, shown instead of their ids. */
  names: Pick<Choices, "notebooks" | "workflows">;
  tokens: Map<string, TokenPublic>;
  runs: RunPublic[];
  next: string | null;
  /** The new webhook URL, in the response that made the token only. */
  webhookUrl?: string;
  flash?: Flash;
}

function runsTable(runs: RunPublic[]): SafeHtml {
  if (!runs.length) return html`<p class="muted">No runs yet.</p>`;
  return html`<table>
<thead><tr><th>Status</th><th>Trigger</th><th>Started</th><th>Duration</th><th><span class="muted">Run</span></th></tr></thead>
<tbody>${runs.map(
    (r) => html`<tr>
  <td data-label="Status">${runStatus(r)}</td>
  <td data-label="Trigger">${runTrigger(r)}</td>
  <td data-label="Started">${when(r.started_at ?? r.created_at)}</td>
  <td data-label="Duration">${duration(r.started_at, r.finished_at)}</td>
  <td><a href="/runs/${r.id}" aria-label="Open run ${r.id}">Open</a></td>
</tr>`,
  )}</tbody></table>`;
}

export function workflowPage(p: WorkflowPageInput): Response {
  const wf = p.workflow;
  const t = wf.trigger;
  const token = t.type === "webhook" && t.token_id ? p.tokens.get(t.token_id) : undefined;
  const triggerHelp =
    t.type === "webhook"
      ? html`<p>Runs when its webhook URL receives a JSON object${token ? html` (token <span class="hint">${token.hint}</span>)` : ""}. ${t.fields?.length ? html`Its body's fields ${t.fields.map((f, i) => html`${i ? ", " : ""}<code>{{ ${f} }}</code>`)} are variables.` : "Each top-level field of the body is a variable."}</p>
${p.webhookUrl ? "" : html`<p class="muted">The URL is shown only when its token is made or regenerated. Lost it? <a href="/settings/webhook-tokens">Regenerate the token</a> — the old URL then stops working.</p>`}`
      : html`<p>Runs when <code>${t.event}</code> happens to one of your objects.</p>`;
  const body = html`<p><a href="/workflows">← Workflows</a></p>
<h1>${wf.name} ${wf.active ? badge("active") : badge("inactive")}</h1>
${p.webhookUrl ? oneTimeUrl({ heading: "The webhook URL", url: p.webhookUrl, note: "Copy it now: anyone with it can start this workflow.", replaceWith: `/workflows/${wf.id}` }) : ""}
<div class="row-actions">
  <a href="/workflows/${wf.id}/edit">Edit</a>
  <a href="/workflows/${wf.id}/edit?view=json">Advanced: JSON</a>
  ${toggleForm(wf, p.user.csrfToken, `/workflows/${wf.id}`)}
  <a href="/workflows/${wf.id}/delete">Delete…</a>
</div>
<h2>Trigger</h2>
${triggerHelp}
<h2>Actions</h2>
${actionSummary(wf.actions as Action[], p.catalog, p.names)}
<details><summary>Signing secret</summary>
<p class="muted">HTTP requests with “sign” carry Standard Webhooks signatures made with this secret.</p>
<div class="secret"><input type="text" id="signing-secret" value="${wf.signing_secret}" readonly aria-label="Signing secret" autocomplete="off" spellcheck="false">
<button type="button" data-copy="signing-secret" hidden>Copy</button></div></details>
<h2>Runs</h2>
${runsTable(p.runs)}
${pager(`/workflows/${wf.id}`, {}, p.next)}`;
  return flowsPage({ title: wf.name, user: p.user, body, flash: p.flash });
}

export function confirmPage(p: {
  user: LayoutUser;
  title: string;
  name: string;
  note: string;
  action: string;
  button: string;
  cancel: string;
}): Response {
  const body = html`<h1>${p.title}</h1>
<section class="card">
  <p><strong>${p.name}</strong></p>
  <p class="muted">${p.note}</p>
  <form method="post" action="${p.action}">${csrfInput(p.user.csrfToken)}
    <div class="actions"><button type="submit" class="danger">${p.button}</button> <a href="${p.cancel}">Cancel</a></div>
  </form>
</section>`;
  return flowsPage({ title: p.title, user: p.user, body });
}

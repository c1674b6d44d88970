// The run page: what started the run, each step's status, attempts, input, output, error and times, and
// the replay buttons. Everything a step recorded came from outside (bodies, messages) and renders as text.
import type { RunPublic, StepPublic, WorkflowPublic } from "../../features/workflows/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, when } from "../library/common.ts";
import { flowsPage } from "./style.ts";
import { runTrigger } from "./workflow-pages.ts";
import { liveAttrs } from "../live.ts";
import { badge, duration, jsonBlock } from "./views.ts";

function errorText(e: { code: string; message: string; step?: string } | null): SafeHtml {
  if (!e) return html``;
  return html`<p class="error-text"><strong>${e.code}</strong>: ${e.message}${e.step ? html` <span class="muted">(step ${e.step})</span>` : ""}</p>`;
}

function stepCard(step: StepPublic, i: number): SafeHtml {
  return html`<section class="step" id="step-${step.action_id}" aria-labelledby="step-${step.action_id}-h">
<h3 id="step-${step.action_id}-h">${i + 1}. ${step.action_id} <span class="muted mono">${step.type}</span> ${badge(step.status)}</h3>
<dl class="facts">
  <dt>Where</dt><dd class="mono">${step.path}</dd>
  <dt>Attempts</dt><dd>${step.attempts}</dd>
  <dt>Started</dt><dd>${when(step.started_at)}</dd>
  <dt>Finished</dt><dd>${when(step.finished_at)}</dd>
  <dt>Took</dt><dd>${duration(step.started_at, step.finished_at)}</dd>
  ${step.next_attempt_at ? html`<dt>Next attempt</dt><dd>${when(step.next_attempt_at)}</dd>` : ""}
  ${step.copied_from ? html`<dt>Reused from</dt><dd><a href="/runs/${step.copied_from}">${step.copied_from}</a></dd>` : ""}
</dl>
${errorText(step.error)}
${step.log.length ? html`<ul class="muted">${step.log.map((l) => html`<li>${l}</li>`)}</ul>` : ""}
<div class="io"><div><h4>Input</h4>
${jsonBlock(step.input, `the input of ${step.action_id}`)}</div>
<div><h4>Output</h4>
${jsonBlock(step.output ?? undefined, `the output of ${step.action_id}`)}</div></div>
</section>`;
}

function replayButtons(run: RunPublic, csrf: string): SafeHtml {
  const finished = run.status === "succeeded" || run.status === "failed";
  if (!finished) return html`<p class="muted">Replay is possible once the run has finished.</p>`;
  const form = (
    from: "failed" | "start",
    label: string,
    hint: string,
  ) => html`<form method="post" action="/runs/${run.id}/replay">${csrfInput(csrf)}
<input type="hidden" name="from" value="${from}"><button type="submit" class="${from === "start" ? "secondary" : ""}" title="${hint}">${label}</button></form>`;
  return html`<div class="row-actions">
${run.status === "failed" ? form("failed", "Replay from failed step", "Reuses the steps that succeeded and runs the workflow's current actions from the failed one") : ""}
${form("start", "Replay from start", "Runs every action again with the same trigger")}
</div>`;
}

function triggerLinks(run: RunPublic): SafeHtml {
  const t = run.trigger as Record<string, unknown>;
  const link = (id: unknown, label: string) =>
    typeof id === "string" && /^run_[0-9A-Z]{26}$/.test(id)
      ? html`<dt>${label}</dt><dd><a href="/runs/${id}">${id}</a></dd>`
      : "";
  return html`${link(t.replay_of, "Replay of")}${link(t.parent_run_id, "Started by run")}
${typeof t.delivery_id === "string" ? html`<dt>Delivery</dt><dd class="mono">${t.delivery_id}</dd>` : ""}
${typeof t.event_id === "string" ? html`<dt>Event</dt><dd class="mono">${t.event_id}</dd>` : ""}`;
}

const finishedSteps = (steps: StepPublic[]) =>
  steps.filter((s) => s.status === "succeeded" || s.status === "failed").length;

/**
 * Everything on a run's page that changes while it runs: status and times, the error, the replay
 * buttons and the steps. The live script swaps it for a fresh copy on each of the run's events.
 */
export function runLive(r: RunPublic, csrf: string, since?: number): SafeHtml {
  const steps = r.steps ?? [];
  const done = finishedSteps(steps);
  const announce = `Run ${r.status}. ${done} of ${steps.length} ${steps.length === 1 ? "step" : "steps"} finished.`;
  return html`<div class="run-live"${liveAttrs({ kind: "run", id: r.id, fragment: `/runs/${r.id}/live`, since, announce })}>
<dl class="facts">
  <dt>Status</dt><dd>${badge(r.status)}</dd>
  <dt>Trigger</dt><dd>${runTrigger(r)}</dd>
  ${triggerLinks(r)}
  <dt>Depth</dt><dd>${r.depth}</dd>
  <dt>Created</dt><dd>${when(r.created_at)}</dd>
  <dt>Started</dt><dd>${when(r.started_at)}</dd>
  <dt>Finished</dt><dd>${when(r.finished_at)}</dd>
  <dt>Took</dt><dd>${duration(r.started_at, r.finished_at)}</dd>
</dl>
${errorText(r.error)}
${replayButtons(r, csrf)}
<h2>Steps</h2>
${steps.length ? steps.map(stepCard) : html`<p class="muted">No step has run yet.</p>`}
${r.status === "queued" || r.status === "running" ? html`<noscript><p class="muted"><a href="/runs/${r.id}">Reload</a> to see the steps that finished since.</p></noscript>` : ""}
</div>`;
}

export function runPage(p: {
  user: LayoutUser;
  run: RunPublic;
  workflow: WorkflowPublic | null;
  flash?: Flash;
  status?: number;
  since?: number;
}): Response {
  const r = p.run;
  const body = html`<p>${p.workflow ? html`<a href="/workflows/${p.workflow.id}">← ${p.workflow.name}</a>` : html`<a href="/workflows">← Workflows</a>`}</p>
<h1>Run <span class="mono">${r.id}</span></h1>
${runLive(r, p.user.csrfToken, p.since)}
<details><summary>Trigger data</summary>${jsonBlock(r.trigger.data, "the trigger data")}</details>`;
  return flowsPage({ title: `Run ${r.id}`, user: p.user, body, flash: p.flash, status: p.status });
}

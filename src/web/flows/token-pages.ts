// Settings → Webhook tokens: the list with hints and the workflows using each, and a new URL shown once.
import type { TokenPublic } from "../../features/webhooks/schema.ts";
import { html, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, when } from "../library/common.ts";
import { flowsPage } from "./style.ts";
import { oneTimeUrl } from "./views.ts";

export interface TokensPageInput {
  user: LayoutUser;
  tokens: TokenPublic[];
  /** Workflow names by id, for "used by". */
  names: Map<string, string>;
  formId: string;
  /** A URL made by this request (create or regenerate), shown this once. */
  created?: { url: string; hint: string; regenerated: boolean };
  flash?: Flash;
  status?: number;
}

function usedBy(t: TokenPublic, names: Map<string, string>): SafeHtml {
  if (!t.workflow_ids.length) return html`<span class="muted">No workflow</span>`;
  return html`<span>${t.workflow_ids.map((id, i) => html`${i ? ", " : ""}<a href="/workflows/${id}">${names.get(id) ?? id}</a>`)}</span>`;
}

function row(t: TokenPublic, p: TokensPageInput): SafeHtml {
  return html`<tr>
  <td data-label="Token"><span class="hint">${t.hint}</span></td>
  <td data-label="Created">${when(t.created_at)}${t.regenerated_at ? html`<span class="sub">regenerated ${when(t.regenerated_at)}</span>` : ""}</td>
  <td data-label="Used by">${usedBy(t, p.names)}</td>
  <td><div class="row-actions">
    <a href="/settings/webhook-tokens/${t.id}/regenerate" aria-label="Regenerate ${t.hint}">Regenerate…</a>
    <form method="post" action="/settings/webhook-tokens/${t.id}/delete">${csrfInput(p.user.csrfToken)}<button type="submit" class="danger" aria-label="Delete ${t.hint}">Delete</button></form>
  </div></td>
</tr>`;
}

export function tokensPage(p: TokensPageInput): Response {
  const list = p.tokens.length
    ? html`<table><thead><tr><th>Token</th><th>Created</th><th>Used by</th><th><span class="muted">Manage</span></th></tr></thead>
<tbody>${p.tokens.map((t) => row(t, p))}</tbody></table>`
    : html`<p class="muted">No webhook tokens yet. A workflow with a webhook trigger makes one, or create one here.</p>`;
  const created = p.created
    ? oneTimeUrl({
        heading: p.created.regenerated ? `New URL for ${p.created.hint}` : `Your new webhook URL (${p.created.hint})`,
        url: p.created.url,
        note: p.created.regenerated
          ? "The old URL stopped working."
          : "Choose this token in a workflow's trigger to use it.",
        replaceWith: "/settings/webhook-tokens",
      })
    : "";
  const body = html`<p><a href="/workflows">← Workflows</a></p>
<h1>Webhook tokens</h1>
<p class="muted">A token is the secret part of a webhook URL: <code>POST /api/webhooks/workflows/cpw_…</code> runs every active workflow that uses it.
Only a hint is kept; the full URL is shown once, when the token is made or regenerated.</p>
${created}
<form method="post" action="/settings/webhook-tokens" class="row-actions">${csrfInput(p.user.csrfToken)}
<input type="hidden" name="form_id" value="${p.formId}"><button type="submit">Create a token</button></form>
${list}`;
  return flowsPage({ title: "Webhook tokens", user: p.user, body, flash: p.flash, status: p.status });
}

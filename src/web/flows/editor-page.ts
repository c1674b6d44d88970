// The workflow editor page in its two views of one definition: the form (trigger, actions, conditions)
// and "Advanced: JSON". Errors are listed at the top and shown beside their fields.
import type { FieldError } from "../../errors.ts";
import type { TokenPublic } from "../../features/webhooks/schema.ts";
import { html, pageResponse, raw, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput } from "../library/common.ts";
import { TRIGGER_EVENTS, type Catalog, type Choices } from "./action-fields.ts";
import type { Draft } from "./draft.ts";
import { actionAt, type ActionDef } from "../../features/workflows/paths.ts";
import { actionCard, actionList, control, errorsOf, type RenderCtx } from "./editor-fields.ts";
import { byField, fieldId, fieldNames, placeErrors, type PlacedError } from "./field-errors.ts";
import { flowsPage } from "./style.ts";
import { EDITOR_SCRIPT_PATH } from "./editor-script.ts";
import { earlierSteps, triggerVariables } from "./variables.ts";
import { checked, selected } from "./views.ts";

export interface EditorInput {
  user: LayoutUser;
  /** Where the form posts: /workflows/new or /workflows/:id/edit. */
  action: string;
  heading: string;
  cancel: string;
  view: "form" | "json";
  draft: Draft;
  /** The JSON view's text, as typed (it may not parse). */
  json?: string;
  errors?: FieldError[];
  focus?: string;
  tokens: TokenPublic[];
  /** The action types, each with its form (from its module). */
  catalog: Catalog;
  /** The user's notebooks and workflows (sorted by name) that id fields offer. */
  notebooks: { id: string; name: string }[];
  workflows: { id: string; name: string }[];
  flash?: Flash;
  status?: number;
}

function summary(placed: PlacedError[]): SafeHtml {
  if (!placed.length) return html``;
  return html`<div class="error-summary" role="alert" tabindex="-1" id="error-summary"><h2>The workflow was not saved</h2><ul>${placed.map(
    (e) =>
      html`<li>${e.field ? html`<a href="#${fieldId(e.field)}">${e.path}</a>` : html`<code>${e.path}</code>`}: ${e.message}</li>`,
  )}</ul></div>`;
}

function tokenLabel(t: TokenPublic): string {
  const used = t.workflow_ids.length;
  return `${t.hint} — ${used === 0 ? "not used yet" : `used by ${used} workflow${used === 1 ? "" : "s"}`}`;
}

function triggerFields(ctx: RenderCtx, p: EditorInput): SafeHtml {
  const t = p.draft.trigger;
  const tokenId = t.type === "webhook" ? (t.token_id ?? "") : "";
  const event = t.type === "event" ? t.event : "source.created";
  const tokens =
    p.tokens.some((x) => x.id === tokenId) || !tokenId
      ? p.tokens
      : [...p.tokens, { id: tokenId, hint: tokenId, workflow_ids: [], created_at: "", regenerated_at: null }];
  const events = (TRIGGER_EVENTS as readonly string[]).includes(event) ? TRIGGER_EVENTS : [...TRIGGER_EVENTS, event];
  return html`<fieldset class="card" id="${fieldId("trigger")}"><legend>Trigger</legend>
${errorsOf(fieldId("trigger"), [...(ctx.errors.get("trigger") ?? []), ...(ctx.errors.get("trigger.type") ?? [])])}
<label class="check"><input type="radio" name="trigger.type" value="webhook"${checked(t.type === "webhook")}> A webhook: runs when its URL receives a JSON object</label>
<div class="trigger-sub">${control(
    ctx,
    "trigger.fields",
    "Body fields (optional)",
    (a) =>
      html`<input type="text" ${a} value="${t.type === "webhook" ? (t.fields ?? []).join(", ") : ""}" autocomplete="off" spellcheck="false" placeholder="title, url">`,
    "The top-level fields of the JSON the webhook receives, separated by commas. Given, templates may use only these (a typo is caught when saving); left empty, any field is accepted.",
  )}
${control(
  ctx,
  "trigger.token_id",
  "Webhook token",
  (a) => html`<select ${a}>
  <option value="">A new token (its URL is shown once, after saving)</option>
  ${tokens.map((x) => html`<option value="${x.id}"${selected(x.id === tokenId)}>${tokenLabel(x)}</option>`)}
</select>`,
  "Several workflows may share a token; each runs for every delivery.",
)}</div>
<label class="check"><input type="radio" name="trigger.type" value="event"${checked(t.type === "event")}> An event: runs when one of your sources, notebooks, notes or podcasts changes</label>
<div class="trigger-sub">${control(ctx, "trigger.event", "Event", (a) => html`<select ${a}>${events.map((e) => html`<option value="${e}"${selected(e === event)}>${e}</option>`)}</select>`)}</div>
</fieldset>`;
}

export function choicesOf(p: Pick<EditorInput, "notebooks" | "workflows" | "tokens">): Choices {
  return {
    notebooks: p.notebooks,
    workflows: p.workflows,
    tokens: p.tokens.map((t) => ({ id: t.id, name: tokenLabel(t) })),
  };
}

function renderCtx(p: EditorInput, placed: PlacedError[]): RenderCtx {
  return {
    errors: byField(placed),
    focus: p.focus,
    triggerVars: triggerVariables(p.draft.trigger),
    earlier: earlierSteps(p.draft.actions),
    catalog: p.catalog,
    choices: choicesOf(p),
  };
}

/** The card of one action (the one "Add action" just added), for the editor's script to insert. */
export function actionFragment(p: EditorInput, path: string): Response {
  const action = actionAt(p.draft.actions as ActionDef[], path);
  const m = /^(.*)\[(\d+)\]$/.exec(path);
  if (!action || !m) return new Response(null, { status: 404 });
  const ctx = { ...renderCtx(p, []), focus: undefined };
  const siblings =
    m[1] === "actions"
      ? p.draft.actions
      : (actionAt(p.draft.actions as ActionDef[], m[1]!.replace(/\.(then|else)$/, ""))?.[
          m[1]!.endsWith("then") ? "then" : "else"
        ] as unknown[]);
  const card = actionCard(ctx, path, action as never, Number(m[2]), siblings?.length ?? Number(m[2]) + 1);
  return pageResponse(card, { headers: { "x-editor-fragment": "action" } });
}

function formView(p: EditorInput, placed: PlacedError[]): SafeHtml {
  const ctx = renderCtx(p, placed);
  return html`<form method="post" action="${p.action}" class="editor" novalidate>
${csrfInput(p.user.csrfToken)}
<input type="hidden" name="view" value="form">
<button type="submit" name="op" value="save" class="sr-default" tabindex="-1" aria-hidden="true">Save</button>
<div class="row-actions"><button type="submit" name="op" value="view_json" class="secondary">Advanced: JSON</button></div>
${control(ctx, "name", "Name", (a) => html`<input type="text" ${a} value="${p.draft.name}" maxlength="200" required autocomplete="off">`)}
<label class="check"><input type="checkbox" name="active" value="true"${checked(p.draft.active)}> Active (an inactive workflow is not triggered)</label>
${triggerFields(ctx, p)}
<h2 id="${fieldId("actions")}">Actions</h2>
<p class="muted">They run in order. Any text may use templates such as <code>{{ url }}</code> or <code>{{ steps.save.source.id }}</code>.</p>
${actionList(ctx, "actions", p.draft.actions)}
<div class="actions"><button type="submit" name="op" value="save">Save workflow</button>
<button type="submit" name="op" value="view_json" class="secondary">Advanced: JSON</button>
<a href="${p.cancel}">Cancel</a></div>
</form>`;
}

function jsonView(p: EditorInput, placed: PlacedError[]): SafeHtml {
  const text = p.json ?? "";
  const errs = placed.map((e) => `${e.path}: ${e.message}`);
  return html`<form method="post" action="${p.action}" class="editor" novalidate>
${csrfInput(p.user.csrfToken)}
<input type="hidden" name="view" value="json">
<p class="muted">The same definition as the API takes it: <code>name</code>, <code>active</code>, <code>trigger</code> and <code>actions</code>.
Saving checks it exactly as the form does; “Back to the form” shows it there.</p>
<label for="f-json">Definition (JSON)</label>
<textarea id="f-json" name="json" rows="${Math.min(40, Math.max(12, text.split("\n").length + 2))}" spellcheck="false"${errs.length ? raw(' aria-invalid="true" aria-describedby="f-json-error"') : ""}${raw(p.focus === "json" ? " autofocus" : "")}>
${text}</textarea>
${errs.length ? html`<ul class="field-error" id="f-json-error">${errs.map((e) => html`<li>${e}</li>`)}</ul>` : ""}
<div class="actions"><button type="submit" name="op" value="save">Save workflow</button>
<button type="submit" name="op" value="view_form" class="secondary">Back to the form</button>
<a href="${p.cancel}">Cancel</a></div>
</form>`;
}

export function editorPage(p: EditorInput): Response {
  const placed = placeErrors(p.errors ?? [], p.view === "form" ? fieldNames(p.draft, p.catalog) : new Set());
  const body = html`<p><a href="${p.cancel}">← Back</a></p>
<h1>${p.heading}</h1>
${p.view === "form" ? summary(placed) : ""}
${p.view === "form" ? formView(p, placed) : jsonView(p, placed)}
${p.view === "form" ? html`<script src="${EDITOR_SCRIPT_PATH}" defer></script>` : ""}`;
  return flowsPage({ title: p.heading, user: p.user, body, flash: p.flash, status: p.status });
}

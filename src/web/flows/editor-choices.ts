// Fields that name the user's objects (notebooks, workflows, webhook tokens): chosen by name from a list,
// never typed as ids. A select for one, checkboxes for several; a text box beside them takes a template
// instead. Long lists get a filter box, shown by the editor's script (without it the whole list is there).
import { ID_KINDS, type IdKind } from "../../features/workflows/actions/fields.ts";
import { html, raw, type SafeHtml } from "../../http/html/html.ts";
import type { Choices, FieldSpec } from "./action-fields.ts";
import { idParts, TEMPLATE_SUFFIX, type Action } from "./draft.ts";
import { fieldId } from "./field-errors.ts";
import { selected } from "./views.ts";

/** Lists longer than this get a filter box (with script). */
export const FILTER_FROM = 12;

export interface ChoiceCtx {
  errors: Map<string, string[]>;
  focus?: string;
  choices: Choices;
}

const NOUN: Record<IdKind, string> = {
  notebook: "notebook",
  notebooks: "notebook",
  workflow: "workflow",
  token: "webhook token",
};

function listOf(ctx: ChoiceCtx, kind: IdKind): { id: string; name: string }[] {
  if (kind === "workflow") return ctx.choices.workflows;
  if (kind === "token") return ctx.choices.tokens;
  return ctx.choices.notebooks;
}

const focusAttr = (ctx: ChoiceCtx, name: string) => raw(ctx.focus === name ? " autofocus" : "");

function errorLine(id: string, errs: string[] | undefined): SafeHtml {
  return errs?.length ? html`<p class="field-error" id="${id}-error">${errs.join(" · ")}</p>` : html``;
}

function filterBox(target: string, noun: string, count: number): SafeHtml {
  if (count < FILTER_FROM) return html``;
  return html`<input type="search" class="choice-filter" data-filter="${target}" aria-label="Filter the ${noun}s by name" placeholder="Filter ${count} ${noun}s" autocomplete="off" hidden>`;
}

/** A notebook, workflow or token field (or several notebooks), with its template box where templates fit. */
export function idField(ctx: ChoiceCtx, path: string, action: Action, spec: FieldSpec, varsList: string): SafeHtml {
  const kind = spec.kind as IdKind;
  const name = `${path}.${spec.key}`;
  const id = fieldId(name);
  const noun = NOUN[kind];
  const { ids, text } = idParts(action, spec);
  const known = listOf(ctx, kind);
  // Ids not in the list (deleted, or another user's pasted in the JSON view) stay chosen, so saving says why.
  const missing = ids.filter((x) => !known.some((k) => k.id === x)).map((x) => ({ id: x, name: `${x} (not found)` }));
  const items = [...known, ...missing];
  const errs = ctx.errors.get(name);
  const tName = `${name}${TEMPLATE_SUFFIX}`;
  const tId = fieldId(tName);
  const tErrs = ctx.errors.get(tName);
  const hintId = spec.hint ? `${id}-hint` : "";
  const invalid = errs?.length ? raw(' aria-invalid="true"') : "";
  const described = [hintId, errs?.length ? `${id}-error` : ""].filter(Boolean).join(" ");
  const templateBox =
    kind === "token"
      ? html``
      : html`<div class="template-alt"><label for="${tId}">${kind === "notebooks" ? "Or templates" : "Or a template"} <span class="muted">(instead of the list)</span></label>
<input type="text" id="${tId}" name="${tName}" value="${text}" list="${varsList}" autocomplete="off" spellcheck="false" placeholder="{{ steps.… }}"${tErrs?.length ? raw(` aria-invalid="true" aria-describedby="${tId}-error"`) : ""}${focusAttr(ctx, tName)}>
${errorLine(tId, tErrs)}</div>`;
  const empty =
    items.length === 0
      ? html`<p class="muted">You have no ${noun}s yet${kind === "notebooks" || kind === "notebook" ? html` — <a href="/notebooks">make one</a>, or use a template` : ""}.</p>`
      : html``;
  if (kind === "notebooks") {
    const listId = `${id}-list`;
    return html`<fieldset class="field choices" id="${id}"${described ? html` aria-describedby="${described}"` : ""}><legend>${spec.label}</legend>
${filterBox(listId, noun, items.length)}
${empty}${
  items.length
    ? html`<ul class="choice-list" id="${listId}">${items.map((nb, i) => {
        const cid = `${id}-${i}`;
        return html`<li><label class="check" for="${cid}"><input type="checkbox" id="${cid}" name="${name}" value="${nb.id}"${raw(ids.includes(nb.id) ? " checked" : "")}${i === 0 ? focusAttr(ctx, name) : ""}> ${nb.name}</label></li>`;
      })}</ul>`
    : ""
}
${spec.hint ? html`<p class="muted" id="${hintId}">${spec.hint}</p>` : ""}${errorLine(id, errs)}
${templateBox}</fieldset>`;
  }
  const current = ids[0] ?? "";
  const placeholder = spec.required ? `Choose a ${noun}…` : "None";
  return html`<div class="field"><label for="${id}">${spec.label}</label>
${filterBox(id, noun, items.length)}
<select id="${id}" name="${name}"${invalid}${described ? html` aria-describedby="${described}"` : ""}${focusAttr(ctx, name)}>
<option value="">${placeholder}</option>
${items.map((x) => html`<option value="${x.id}"${selected(x.id === current)}>${x.name}</option>`)}
</select>
${empty}${spec.hint ? html`<p class="muted" id="${hintId}">${spec.hint}</p>` : ""}${errorLine(id, errs)}
${templateBox}</div>`;
}

export const isIdField = (spec: FieldSpec): boolean => spec.kind in ID_KINDS;

// The editor's action cards: one fieldset per action with the fields its module declares (any action type,
// no per-type code here), the move/remove buttons and the variables the action may use.
import { html, raw, type SafeHtml } from "../../http/html/html.ts";
import { namedIds, type FieldSpec } from "./action-fields.ts";
import { fieldText, type Action } from "./draft.ts";
import { idField, isIdField } from "./editor-choices.ts";
import { conditionFields } from "./editor-condition.ts";
import { control, errorsOf, focusAttr, type RenderCtx } from "./editor-controls.ts";
import { fieldId } from "./field-errors.ts";
import { stepVariables, type Variable } from "./variables.ts";
import { selected } from "./views.ts";

export { control, errorsOf, type RenderCtx };

function specField(ctx: RenderCtx, path: string, action: Action, spec: FieldSpec, varsList: string): SafeHtml {
  if (isIdField(spec)) return idField(ctx, path, action, spec, varsList);
  const name = `${path}.${spec.key}`;
  const value = fieldText(action, spec);
  const label = spec.label;
  switch (spec.kind) {
    case "bool": {
      const id = fieldId(name);
      return html`<div class="field"><label class="check" for="${id}"><input type="checkbox" id="${id}" name="${name}" value="true"${action[spec.key] === true ? raw(" checked") : ""}${focusAttr(ctx, name)}> ${spec.label}</label>${errorsOf(id, ctx.errors.get(name))}</div>`;
    }
    case "select": {
      const opts = spec.options ?? [];
      const current = value || opts[0];
      const extra = current && !opts.includes(current) ? [current] : [];
      return control(
        ctx,
        name,
        label,
        (a) =>
          html`<select ${a}>${[...opts, ...extra].map((o) => html`<option value="${o}"${selected(o === current)}>${o}</option>`)}</select>`,
        spec.hint,
      );
    }
    case "textarea":
    case "json":
    case "headers": {
      const rows = spec.kind === "textarea" ? 4 : Math.min(12, Math.max(3, value.split("\n").length + 1));
      const mono = spec.kind === "textarea" ? "short" : "";
      return control(
        ctx,
        name,
        label,
        (a) => html`<textarea ${a} rows="${rows}" class="${mono}" spellcheck="false">
${value}</textarea>`,
        spec.hint,
      );
    }
    default: {
      const list = spec.suggestions ? `${fieldId(name)}-values` : varsList;
      return control(
        ctx,
        name,
        label,
        (a) =>
          html`<input type="text" ${a} value="${value}" list="${list}" autocomplete="off" spellcheck="false"${spec.placeholder ? html` placeholder="${spec.placeholder}"` : ""}${spec.kind === "int" ? raw(' inputmode="numeric"') : ""}>${spec.suggestions ? html`<datalist id="${list}">${spec.suggestions.map((v) => html`<option value="${v}"></option>`)}</datalist>` : ""}`,
        spec.hint,
      );
    }
  }
}

function variablesPanel(id: string, vars: Variable[]): SafeHtml {
  return html`<datalist id="${id}">${vars.map((v) => html`<option value="{{ ${v.name} }}"></option>`)}</datalist>
<details class="vars"><summary>Variables this step can use</summary><ul>${vars.map(
    (v) => html`<li><code>{{ ${v.name} }}</code>${v.note ? html` <span class="muted">— ${v.note}</span>` : ""}</li>`,
  )}</ul><p class="muted">Filters: <code>| json</code>, <code>| urlencode</code>, <code>| default: "x"</code>, <code>| lower</code>, <code>| upper</code>, <code>| trim</code>.</p></details>`;
}

/** Fields in their table order; neighbouring half-width fields share a row. */
function fieldRows(fields: FieldSpec[]): FieldSpec[][] {
  const rows: FieldSpec[][] = [];
  for (const f of fields) {
    const last = rows[rows.length - 1];
    if (f.half && last?.[0]?.half && last.length < 2) last.push(f);
    else rows.push([f]);
  }
  return rows;
}

/** One action's card: its fields as its module lists them, in a list item. */
export function actionCard(ctx: RenderCtx, path: string, action: Action, index: number, count: number): SafeHtml {
  const mod = ctx.catalog.get(action.type);
  const fields = (mod?.fields ?? []).filter((f) => f.kind !== "condition");
  const rule = mod?.fields.find((f) => f.kind === "condition");
  const vars = [...ctx.triggerVars, ...stepVariables(ctx.catalog, ctx.earlier.get(path) ?? [])];
  const varsList = `vars-${fieldId(path)}`;
  const idName = `${path}.id`;
  const label = action.id || `action ${index + 1}`;
  const levelErrors = [...(ctx.errors.get(path) ?? []), ...(ctx.errors.get(`${path}.type`) ?? [])];
  const summary = namedIds(mod?.summary?.(action) ?? "", ctx.choices);
  // Moved to the top or the bottom, its button is disabled: focus the action's first field instead.
  const atEnd = (ctx.focus === `up:${path}` && index === 0) || (ctx.focus === `down:${path}` && index === count - 1);
  return html`<li data-action="${path}"><fieldset class="action" id="${fieldId(path)}"><legend>${index + 1}. ${mod?.title ?? action.type} <span class="muted mono">${action.type}</span></legend>
${summary ? html`<p class="action-summary">${summary}</p>` : ""}
<input type="hidden" name="${path}.type" value="${action.type}">
<div class="tools">
  <button type="submit" name="op" value="up:${path}" class="secondary" aria-label="Move up ${label}"${raw(index === 0 ? " disabled" : "")}${focusAttr(ctx, `up:${path}`)}>Move up</button>
  <button type="submit" name="op" value="down:${path}" class="secondary" aria-label="Move down ${label}"${raw(index === count - 1 ? " disabled" : "")}${focusAttr(ctx, `down:${path}`)}>Move down</button>
  <button type="submit" name="op" value="remove:${path}" class="danger" aria-label="Remove ${label}">Remove</button>
</div>
${levelErrors.length ? html`<p class="action-error">${levelErrors.join(" · ")}</p>` : ""}
${control(atEnd ? { ...ctx, focus: idName } : ctx, idName, "Step id", (a) => html`<input type="text" ${a} value="${action.id}" autocomplete="off" spellcheck="false" pattern="[A-Za-z_][A-Za-z0-9_-]*">`, `Later steps read its output as {{ steps.${action.id || "id"}.… }}.`)}
${fieldRows(fields).map((row) => {
  const cells = row.map((f) => specField(ctx, path, action, f, varsList));
  return row[0]!.half ? html`<div class="grid2">${cells}</div>` : cells;
})}
${rule ? conditionFields(ctx, path, action, varsList, variablesPanel(varsList, vars), (p, list) => actionList(ctx, p, list)) : variablesPanel(varsList, vars)}
</fieldset></li>`;
}

/** A list of actions (the workflow's, or a branch's) with the row that adds one. */
export function actionList(ctx: RenderCtx, listPath: string, actions: Action[]): SafeHtml {
  const addName = `add_type:${listPath}`;
  const where = listPath === "actions" ? "" : listPath.endsWith("then") ? " to Then" : " to Else";
  return html`${errorsOf(fieldId(listPath), ctx.errors.get(listPath))}
<ol class="action-list" data-list="${listPath}">${actions.map((a, i) => actionCard(ctx, `${listPath}[${i}]`, a, i, actions.length))}</ol>
${actions.length === 0 && listPath !== "actions" ? html`<p class="muted empty-list">No actions${where ? " here" : ""}.</p>` : ""}
<div class="add-row"><label for="${fieldId(addName)}">New action${where}</label>
<select id="${fieldId(addName)}" name="${addName}"${focusAttr(ctx, addName)}>${ctx.catalog.modules.filter((m) => m.available).map((t) => html`<option value="${t.type}">${t.title} (${t.type})</option>`)}</select>
<button type="submit" name="op" value="add:${listPath}" class="secondary" data-add="${listPath}">Add action${where}</button></div>`;
}

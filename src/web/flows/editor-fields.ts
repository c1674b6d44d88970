// The editor's action cards: one fieldset per action with its type's fields, the condition's clauses and
// branches, the move/remove buttons and the variables the action may use.
import { html, raw, type SafeHtml } from "../../http/html/html.ts";
import { ACTION_TYPE, ACTION_TYPES, OPS, type FieldSpec } from "./action-fields.ts";
import { fieldText, showValue, type Action } from "./draft.ts";
import { fieldId } from "./field-errors.ts";
import { stepVariables, type Variable } from "./variables.ts";
import { selected } from "./views.ts";

export interface RenderCtx {
  errors: Map<string, string[]>;
  focus?: string;
  triggerVars: Variable[];
  earlier: Map<string, Action[]>;
}

const focusAttr = (ctx: RenderCtx, name: string) => raw(ctx.focus === name ? " autofocus" : "");

function describedBy(id: string, hint: boolean, errors: string[] | undefined): SafeHtml {
  const ids = [hint ? `${id}-hint` : "", errors?.length ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`${errors?.length ? raw(' aria-invalid="true"') : ""}${ids ? html` aria-describedby="${ids}"` : ""}`;
}

export function errorsOf(id: string, errors: string[] | undefined): SafeHtml {
  if (!errors?.length) return html``;
  return html`<p class="field-error" id="${id}-error">${errors.join(" · ")}</p>`;
}

/** A labelled text-like control with its hint and errors. */
export function control(
  ctx: RenderCtx,
  name: string,
  label: string,
  body: (attrs: SafeHtml) => SafeHtml,
  hint?: string,
): SafeHtml {
  const id = fieldId(name);
  const errs = ctx.errors.get(name);
  const attrs = html`id="${id}" name="${name}"${describedBy(id, Boolean(hint), errs)}${focusAttr(ctx, name)}`;
  return html`<div class="field"><label for="${id}">${label}</label>
${body(attrs)}
${hint ? html`<p class="muted" id="${id}-hint">${hint}</p>` : ""}${errorsOf(id, errs)}</div>`;
}

function specField(ctx: RenderCtx, path: string, action: Action, spec: FieldSpec, varsList: string): SafeHtml {
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
      const list =
        spec.suggest === "formats" ? "podcast-formats" : spec.suggest === "workflows" ? "my-workflows" : varsList;
      return control(
        ctx,
        name,
        label,
        (a) =>
          html`<input type="text" ${a} value="${value}" list="${list}" autocomplete="off" spellcheck="false"${spec.placeholder ? html` placeholder="${spec.placeholder}"` : ""}${spec.kind === "int" ? raw(' inputmode="numeric"') : ""}>`,
        spec.hint,
      );
    }
  }
}

function clauseRow(
  ctx: RenderCtx,
  group: string,
  i: number,
  clause: Record<string, unknown>,
  varsList: string,
): SafeHtml {
  const c = `${group}[${i}]`;
  const op = String(clause.op ?? "eq");
  const errs = [c, `${c}.left`, `${c}.op`, `${c}.right`].flatMap((n) => ctx.errors.get(n) ?? []);
  const input = (part: "left" | "right", label: string) => {
    const name = `${c}.${part}`;
    return html`<div><label for="${fieldId(name)}">${label}</label><input type="text" id="${fieldId(name)}" name="${name}" value="${showValue(clause[part], part)}" list="${varsList}" autocomplete="off" spellcheck="false"${errs.length ? raw(' aria-invalid="true"') : ""}${focusAttr(ctx, name)}></div>`;
  };
  return html`<div class="clause">
  ${input("left", `Clause ${i + 1}: value`)}
  <div><label for="${fieldId(`${c}.op`)}">Test</label><select id="${fieldId(`${c}.op`)}" name="${c}.op">${[...OPS, ...(OPS.includes(op as never) ? [] : [op])].map((o) => html`<option value="${o}"${selected(o === op)}>${o}</option>`)}</select></div>
  ${input("right", "Compared with")}
  <div><button type="submit" name="op" value="remove_clause:${c}" class="danger small" aria-label="Remove clause ${i + 1}"${focusAttr(ctx, `remove_clause:${c}`)}>Remove</button></div>
  ${errs.length ? html`<p class="field-error">${errs.join(" · ")}</p>` : ""}
</div>`;
}

function conditionFields(ctx: RenderCtx, path: string, action: Action, varsList: string, vars: SafeHtml): SafeHtml {
  const cond = (action.if && typeof action.if === "object" ? action.if : {}) as Record<string, unknown>;
  const groups = (["all", "any"] as const).filter((g) => Array.isArray(cond[g]));
  if (groups.length === 0) groups.push("all");
  const matchName = `${path}.if.match`;
  const groupHtml = groups.map((g) => {
    const clauses = (Array.isArray(cond[g]) ? cond[g] : []) as Record<string, unknown>[];
    const gp = `${path}.if.${g}`;
    return html`${groups.length > 1 ? html`<p><strong>${g === "all" ? "All of these hold:" : "Any of these holds:"}</strong></p>` : ""}
${errorsOf(fieldId(gp), ctx.errors.get(gp))}
${clauses.map((cl, i) => clauseRow(ctx, gp, i, cl && typeof cl === "object" ? cl : {}, varsList))}
<div class="add-row"><button type="submit" name="op" value="add_clause:${gp}" class="secondary small"${focusAttr(ctx, `add_clause:${gp}`)}>Add a clause</button></div>`;
  });
  const ifErrors = ctx.errors.get(`${path}.if`);
  return html`<fieldset class="branch"><legend>If</legend>
<input type="hidden" name="${path}.if.groups" value="${groups.join(",")}">
${
  groups.length === 1
    ? control(
        ctx,
        matchName,
        "Take the Then branch when",
        (a) => html`<select ${a}>
  <option value="all"${selected(groups[0] === "all")}>all of these clauses hold</option>
  <option value="any"${selected(groups[0] === "any")}>any of these clauses holds</option></select>`,
        'Values may be templates; 5, true, "quoted" or ["a", "b"] are read as JSON, anything else as text. Leave “Compared with” empty for exists and not_exists.',
      )
    : ""
}
${errorsOf(fieldId(`${path}.if`), ifErrors)}
${groupHtml}
${vars}
</fieldset>
${(["then", "else"] as const).map(
  (b) => html`<fieldset class="branch"><legend>${b === "then" ? "Then" : "Else"}</legend>
${actionList(ctx, `${path}.${b}`, Array.isArray(action[b]) ? (action[b] as Action[]) : [])}
</fieldset>`,
)}`;
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

function actionCard(ctx: RenderCtx, path: string, action: Action, index: number, count: number): SafeHtml {
  const spec = ACTION_TYPE.get(action.type);
  const vars = [...ctx.triggerVars, ...stepVariables(ctx.earlier.get(path) ?? [])];
  const varsList = `vars-${fieldId(path)}`;
  const idName = `${path}.id`;
  const label = action.id || `action ${index + 1}`;
  const levelErrors = [...(ctx.errors.get(path) ?? []), ...(ctx.errors.get(`${path}.type`) ?? [])];
  // Moved to the top or the bottom, its button is disabled: focus the action's first field instead.
  const atEnd = (ctx.focus === `up:${path}` && index === 0) || (ctx.focus === `down:${path}` && index === count - 1);
  return html`<li><fieldset class="action" id="${fieldId(path)}"><legend>${index + 1}. ${spec?.title ?? action.type} <span class="muted mono">${action.type}</span></legend>
<input type="hidden" name="${path}.type" value="${action.type}">
<div class="tools">
  <button type="submit" name="op" value="up:${path}" class="secondary" aria-label="Move ${label} up"${raw(index === 0 ? " disabled" : "")}${focusAttr(ctx, `up:${path}`)}>Move up</button>
  <button type="submit" name="op" value="down:${path}" class="secondary" aria-label="Move ${label} down"${raw(index === count - 1 ? " disabled" : "")}${focusAttr(ctx, `down:${path}`)}>Move down</button>
  <button type="submit" name="op" value="remove:${path}" class="danger" aria-label="Remove ${label}">Remove</button>
</div>
${levelErrors.length ? html`<p class="action-error">${levelErrors.join(" · ")}</p>` : ""}
${control(atEnd ? { ...ctx, focus: idName } : ctx, idName, "Step id", (a) => html`<input type="text" ${a} value="${action.id}" autocomplete="off" spellcheck="false" pattern="[A-Za-z_][A-Za-z0-9_-]*">`, `Later steps read its output as {{ steps.${action.id || "id"}.… }}.`)}
${fieldRows(spec?.fields ?? []).map((row) => {
  const cells = row.map((f) => specField(ctx, path, action, f, varsList));
  return row[0]!.half ? html`<div class="grid2">${cells}</div>` : cells;
})}
${action.type === "condition" ? conditionFields(ctx, path, action, varsList, variablesPanel(varsList, vars)) : ""}
${action.type === "condition" ? "" : variablesPanel(varsList, vars)}
</fieldset></li>`;
}

/** A list of actions (the workflow's, or a branch's) with the row that adds one. */
export function actionList(ctx: RenderCtx, listPath: string, actions: Action[]): SafeHtml {
  const addName = `add_type:${listPath}`;
  const where = listPath === "actions" ? "" : listPath.endsWith("then") ? " to Then" : " to Else";
  return html`${errorsOf(fieldId(listPath), ctx.errors.get(listPath))}
<ol class="action-list">${actions.map((a, i) => actionCard(ctx, `${listPath}[${i}]`, a, i, actions.length))}</ol>
${actions.length === 0 && listPath !== "actions" ? html`<p class="muted">No actions${where ? " here" : ""}.</p>` : ""}
<div class="add-row"><label for="${fieldId(addName)}">New action${where}</label>
<select id="${fieldId(addName)}" name="${addName}"${focusAttr(ctx, addName)}>${ACTION_TYPES.map((t) => html`<option value="${t.type}">${t.title} (${t.type})</option>`)}</select>
<button type="submit" name="op" value="add:${listPath}" class="secondary">Add action${where}</button></div>`;
}

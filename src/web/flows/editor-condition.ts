// The editor's condition fields: the clauses under all / any, the "Take Then when" choice and the Then and
// Else branches (rendered by the caller's action list, passed in so the two files do not import each other).
import { html, raw, type SafeHtml } from "../../http/html/html.ts";
import { OP_WORDS, OPS } from "./action-fields.ts";
import { showValue, type Action } from "./draft.ts";
import { control, errorsOf, type RenderCtx } from "./editor-controls.ts";
import { fieldId } from "./field-errors.ts";
import { selected } from "./views.ts";

const focusAttr = (ctx: RenderCtx, name: string) => raw(ctx.focus === name ? " autofocus" : "");

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
  <div><label for="${fieldId(`${c}.op`)}">Test</label><select id="${fieldId(`${c}.op`)}" name="${c}.op">${[...OPS, ...(OPS.includes(op as never) ? [] : [op])].map((o) => html`<option value="${o}"${selected(o === op)}>${OP_WORDS[o] ?? o} (${o})</option>`)}</select></div>
  ${input("right", "Compared with")}
  <div><button type="submit" name="op" value="remove_clause:${c}" class="danger small" aria-label="Remove clause ${i + 1}"${focusAttr(ctx, `remove_clause:${c}`)}>Remove</button></div>
  ${errs.length ? html`<p class="field-error">${errs.join(" · ")}</p>` : ""}
</div>`;
}

export function conditionFields(
  ctx: RenderCtx,
  path: string,
  action: Action,
  varsList: string,
  vars: SafeHtml,
  branchList: (listPath: string, actions: Action[]) => SafeHtml,
): SafeHtml {
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
${branchList(`${path}.${b}`, Array.isArray(action[b]) ? (action[b] as Action[]) : [])}
</fieldset>`,
)}`;
}

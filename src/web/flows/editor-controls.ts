// The editor's building blocks: what rendering needs (errors by field, the focused field, the catalog,
// the user's objects, the variables) and a labelled control with its hint and errors.
import { html, raw, type SafeHtml } from "../../http/html/html.ts";
import type { Catalog, Choices } from "./action-fields.ts";
import type { Action } from "./draft.ts";
import { fieldId } from "./field-errors.ts";
import type { Variable } from "./variables.ts";

export interface RenderCtx {
  errors: Map<string, string[]>;
  focus?: string;
  triggerVars: Variable[];
  earlier: Map<string, Action[]>;
  catalog: Catalog;
  choices: Choices;
}

export const focusAttr = (ctx: Pick<RenderCtx, "focus">, name: string) => raw(ctx.focus === name ? " autofocus" : "");

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
  ctx: Pick<RenderCtx, "errors" | "focus">,
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

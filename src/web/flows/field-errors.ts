// Puts each validation error beside the form field it is about. The API's paths (`actions[2].url`,
// `actions[0].headers.X-Key`, `actions[1].if.all[0].op`) are the editor's field names, so an error goes
// to the field of its path or, for paths inside a field (a header, a list item), to the nearest field above.
import type { FieldError } from "../../errors.ts";
import { walkActions } from "../../features/workflows/paths.ts";
import type { Catalog } from "./action-fields.ts";
import { TEMPLATE_SUFFIX, type Action, type Draft } from "./draft.ts";

export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_]+/g, "-").replace(/-+$/, "")}`;

/** `actions/2/url` (JSON Pointer style) → `actions[2].url`; dotted paths pass through. */
export function normalizePath(path: string): string {
  if (!path.includes("/")) return path;
  return path
    .replace(/^\//, "")
    .split("/")
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}

/** Every name the editor renders for a draft, so errors can find their field. */
export function fieldNames(draft: Draft, catalog: Catalog): Set<string> {
  const names = new Set([
    "name",
    "active",
    "trigger",
    "trigger.type",
    "trigger.fields",
    "trigger.token_id",
    "trigger.event",
    "actions",
  ]);
  walkActions(draft.actions, (a, path) => {
    names.add(path);
    const action = a as Action;
    if (!action || typeof action !== "object") return;
    names.add(`${path}.id`).add(`${path}.type`);
    const fields = catalog.get(action.type)?.fields ?? [];
    for (const f of fields) {
      if (f.kind === "condition") continue;
      names.add(`${path}.${f.key}`);
      if (f.kind === "notebook" || f.kind === "notebooks" || f.kind === "workflow")
        names.add(`${path}.${f.key}${TEMPLATE_SUFFIX}`);
    }
    if (!fields.some((f) => f.kind === "condition")) return;
    names.add(`${path}.if`).add(`${path}.then`).add(`${path}.else`);
    const cond = (action.if ?? {}) as Record<string, unknown>;
    for (const g of ["all", "any"]) {
      names.add(`${path}.if.${g}`);
      const clauses = Array.isArray(cond[g]) ? cond[g] : [];
      clauses.forEach((_, i) => {
        for (const part of ["", ".left", ".op", ".right"]) names.add(`${path}.if.${g}[${i}]${part}`);
      });
    }
  });
  return names;
}

export interface PlacedError extends FieldError {
  /** The field it is shown beside, or "" when only the summary shows it. */
  field: string;
}

/** Each error with its field, in the order the fields appear on the page (the summary's order). */
export function placeErrors(errors: FieldError[], names: Set<string>): PlacedError[] {
  const order = new Map([...names].map((n, i) => [n, i]));
  const placed = errors.map((e) => {
    let p = normalizePath(e.path);
    while (p && !names.has(p)) {
      const shorter = p.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
      p = shorter === p ? "" : shorter;
    }
    return { ...e, field: p };
  });
  return placed.sort((a, b) => (order.get(a.field) ?? Infinity) - (order.get(b.field) ?? Infinity));
}

/** Errors by field name, for the renderer. */
export function byField(placed: PlacedError[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of placed) if (e.field) out.set(e.field, [...(out.get(e.field) ?? []), e.message]);
  return out;
}

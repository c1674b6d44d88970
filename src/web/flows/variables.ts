// The template variables an action may use, for the editor's panel and suggestions: the trigger's names
// and the outputs of the steps that run before it (the same order rule and the same lists as the save-time
// check in src/features/workflows/definition.ts, which refuses anything else).
import { stepVariables as outputsOfStep, triggerVariables, type Variable } from "../../features/workflows/variables.ts";
import type { Catalog } from "./action-fields.ts";
import type { Action } from "./draft.ts";

export { triggerVariables, type Variable };

/** For each action path, the earlier actions whose outputs it can read. */
export function earlierSteps(actions: Action[]): Map<string, Action[]> {
  const out = new Map<string, Action[]>();
  const visit = (list: Action[], base: string, before: Action[]): Action[] => {
    const seen = [...before];
    list.forEach((action, i) => {
      const path = `${base}[${i}]`;
      out.set(path, [...seen]);
      const inside = [...seen, action];
      for (const b of ["then", "else"] as const) {
        const branch = Array.isArray(action[b]) ? (action[b] as Action[]) : [];
        for (const a of visit(branch, `${path}.${b}`, inside)) if (!seen.includes(a)) seen.push(a);
      }
      if (!seen.includes(action)) seen.push(action);
    });
    return seen;
  };
  visit(actions, "actions", []);
  return out;
}

export function stepVariables(catalog: Catalog, steps: Action[]): Variable[] {
  return steps.filter((s) => s.id).flatMap((s) => outputsOfStep(catalog, s));
}

// The editor's JSON view: reading a pasted definition with the API's own schema messages, checking the
// form can show it without losing anything, and the name check the API's route schema makes.
import { Value } from "@sinclair/typebox/value";
import type { FieldError } from "../../errors.ts";
import { walkActions } from "../../features/workflows/paths.ts";
import { WorkflowCreate } from "../../features/workflows/schema.ts";
import type { Catalog } from "./action-fields.ts";
import type { Action } from "./draft.ts";
import { messageOf } from "../../http/validation.ts";

const FIELDS = new Set(["name", "active", "trigger", "actions"]);
// What GET /api/v1/workflows/{id} adds: pasting a whole API response is fine, these are ignored.
const READ_ONLY = new Set(["id", "signing_secret", "webhook_url", "created_at", "updated_at"]);

export interface JsonDefinition {
  name: string;
  active: boolean;
  trigger: unknown;
  actions: unknown[];
}

function pointerPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}

/** The API's message for a workflow name (its route schema), checked on the trimmed name. */
export function nameErrors(name: string): FieldError[] {
  const first = [...Value.Errors(WorkflowCreate.properties.name, name)][0];
  return first ? [{ path: "name", message: messageOf(first) }] : [];
}

export function parseJsonDefinition(text: string): { def?: JsonDefinition; errors: FieldError[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { errors: [{ path: "json", message: `is not valid JSON (${e instanceof Error ? e.message : String(e)})` }] };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { errors: [{ path: "json", message: "must be a JSON object with name, trigger and actions" }] };
  }
  const obj = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const k of Object.keys(obj)) {
    if (!FIELDS.has(k) && !READ_ONLY.has(k))
      errors.push({ path: k, message: "is not a field of a workflow (name, active, trigger, actions)" });
  }
  const body = Object.fromEntries(Object.entries(obj).filter(([k]) => FIELDS.has(k)));
  if (typeof body.name === "string") body.name = body.name.trim();
  const seen = new Set<string>();
  for (const e of Value.Errors(WorkflowCreate, body)) {
    const path = pointerPath(e.path) || "json";
    if (seen.has(path)) continue;
    seen.add(path);
    errors.push({ path, message: messageOf(e) });
  }
  if (errors.length) return { errors };
  return {
    def: {
      name: body.name as string,
      active: body.active !== false,
      trigger: body.trigger,
      actions: body.actions as unknown[],
    },
    errors,
  };
}

const CLAUSE_KEYS = new Set(["left", "op", "right"]);

/** What the form has no field for (it would be lost on the way): stay in the JSON view then. */
export function formCannotShow(def: JsonDefinition, catalog: Catalog): FieldError[] {
  const out: FieldError[] = [];
  const t = def.trigger as Record<string, unknown> | null;
  if (!t || typeof t !== "object" || (t.type !== "webhook" && t.type !== "event"))
    out.push({ path: "trigger", message: 'must be {"type": "webhook"} or {"type": "event", "event": …} for the form' });
  walkActions(def.actions, (a, path) => {
    if (!a || typeof a !== "object" || Array.isArray(a))
      return void out.push({ path, message: "must be an object for the form" });
    const action = a as Action;
    const mod = catalog.get(action.type);
    if (!mod) return void out.push({ path: `${path}.type`, message: "is not an action type the form knows" });
    const branches = mod.fields.some((f) => f.kind === "condition");
    const known = new Set(["id", "type", ...mod.fields.map((f) => f.key), ...(branches ? ["then", "else"] : [])]);
    for (const k of Object.keys(action))
      if (!known.has(k)) out.push({ path: `${path}.${k}`, message: "has no field in the form" });
    if (!branches) return;
    const cond = action.if as Record<string, unknown> | undefined;
    if (!cond || typeof cond !== "object" || Array.isArray(cond))
      return void out.push({ path: `${path}.if`, message: 'must be {"all": […]} or {"any": […]} for the form' });
    for (const [g, clauses] of Object.entries(cond)) {
      if ((g !== "all" && g !== "any") || !Array.isArray(clauses))
        out.push({ path: `${path}.if.${g}`, message: "must be a list of clauses under all or any" });
      else
        clauses.forEach((c, i) => {
          if (!c || typeof c !== "object" || Object.keys(c).some((k) => !CLAUSE_KEYS.has(k)))
            out.push({ path: `${path}.if.${g}[${i}]`, message: "must be {left, op, right} for the form" });
        });
    }
    for (const b of ["then", "else"])
      if (action[b] !== undefined && !Array.isArray(action[b]))
        out.push({ path: `${path}.${b}`, message: "must be a list of actions" });
  });
  return out;
}

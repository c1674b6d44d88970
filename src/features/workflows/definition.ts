// Save-time checks of a workflow definition: shapes type by type, limits, unique ids, templates, references.
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FieldError } from "../../errors.ts";
import { fieldErrors } from "../../http/validation.ts";
import type { EventType } from "../events/service.ts";
import type { ActionCatalog } from "./actions/catalog.ts";
import type { ValidationContext } from "./actions/types.ts";
import { type ActionDef, walkActions } from "./paths.ts";
import { EVENT_FIELDS, eventDataFields, RESERVED_ROOTS, RUN_FIELDS } from "./scope.ts";
import { EventTrigger, WebhookTrigger, type Trigger } from "./schema.ts";
import { collectReferences, formatPath, validateTemplates, type TemplateReference } from "./templates.ts";
import { checkIdFields, idValues, type IdKind } from "./actions/fields.ts";
import { briefStepVariables, listVariables, outputHas, stepVariables, triggerVariables } from "./variables.ts";

export interface DefinitionLimits {
  maxActions: number;
  maxConditionDepth: number;
}

export interface DefinitionContext extends ValidationContext {
  tokenExists(id: string): boolean;
  notebookExists(id: string): boolean;
  /** The id of the owner's notebook with exactly this name (for "use nb_… instead"). */
  notebookNamed?(name: string): string | undefined;
  workflowNamed?(name: string): string | undefined;
}

const idLookup = (ctx: DefinitionContext) => ({
  exists: (kind: IdKind, id: string) =>
    kind === "workflow" ? ctx.workflowExists(id) : kind === "token" ? ctx.tokenExists(id) : ctx.notebookExists(id),
  idNamed: (kind: IdKind, name: string) =>
    kind === "workflow" ? ctx.workflowNamed?.(name) : kind === "token" ? undefined : ctx.notebookNamed?.(name),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Errors of one part of the definition under its base path (`actions[1].headers.x`), saying what is allowed. */
const schemaErrors = (schema: TSchema, value: unknown, base: string): FieldError[] =>
  fieldErrors(base, Value.Errors(schema, value));

export function checkTrigger(trigger: unknown, ctx: DefinitionContext): FieldError[] {
  if (!isObject(trigger)) return [{ path: "trigger", message: 'must be an object like {"type": "webhook"}' }];
  if (trigger.type === "webhook") {
    const errors = schemaErrors(WebhookTrigger, trigger, "trigger");
    if (errors.length === 0 && Array.isArray(trigger.fields)) {
      trigger.fields.forEach((f, i) => {
        if ((RESERVED_ROOTS as readonly string[]).includes(f as string))
          errors.push({
            path: `trigger.fields[${i}]`,
            message: `is always the run's own ${f}: read a body field of that name as {{ trigger.${f} }}`,
          });
      });
    }
    if (errors.length === 0 && typeof trigger.token_id === "string" && !ctx.tokenExists(trigger.token_id)) {
      errors.push({ path: "trigger.token_id", message: `webhook token ${trigger.token_id} does not exist` });
    }
    return errors;
  }
  if (trigger.type === "event") return schemaErrors(EventTrigger, trigger, "trigger");
  return [{ path: "trigger.type", message: 'must be "webhook" or "event"' }];
}

/** Shape, availability, ids and limits of every action; templates and references only when those pass. */
export function checkActions(
  catalog: ActionCatalog,
  actions: unknown[],
  trigger: Trigger,
  limits: DefinitionLimits,
  ctx: DefinitionContext,
): FieldError[] {
  const errors: FieldError[] = [];
  const ids = new Map<string, string>();
  let count = 0;
  walkActions(actions, (action, path, depth) => {
    count++;
    if (!isObject(action)) return void errors.push({ path, message: "must be an object with id and type" });
    const mod = typeof action.type === "string" ? catalog.get(action.type) : undefined;
    if (!mod) return void errors.push({ path: `${path}.type`, message: `must be one of: ${catalog.types.join(", ")}` });
    if (!mod.available) {
      return void errors.push({ path: `${path}.type`, message: `${mod.type} is not available in this version yet` });
    }
    const shape = schemaErrors(mod.schema, action, path);
    errors.push(...shape);
    if (shape.length > 0) return;
    if (mod.type === "condition" && depth + 1 > limits.maxConditionDepth) {
      errors.push({ path, message: `conditions may nest at most ${limits.maxConditionDepth} deep` });
    }
    const first = ids.get(action.id as string);
    if (first) errors.push({ path: `${path}.id`, message: `"${action.id}" is already the id of ${first}` });
    else ids.set(action.id as string, path);
    const own = [
      ...checkIdFields(mod.fields, action, idLookup(ctx)),
      ...(mod.validate?.(action as ActionDef, ctx) ?? []),
    ];
    for (const e of own) errors.push({ path: `${path}.${e.path}`, message: e.message });
  });
  if (count > limits.maxActions)
    errors.push({
      path: "actions",
      message: `a workflow may have at most ${limits.maxActions} actions (it has ${count})`,
    });
  if (errors.length > 0) return errors;
  return checkTemplates(catalog, actions as ActionDef[], trigger, new Set(ids.keys()));
}

function renderedPart(catalog: ActionCatalog, action: ActionDef): Record<string, unknown> {
  const skip = new Set(["id", "type", ...(catalog.get(action.type)?.unrendered ?? [])]);
  return Object.fromEntries(Object.entries(action).filter(([k]) => !skip.has(k)));
}

/** Syntax of every template, then each reference against the steps that run before and the trigger's names. */
function checkTemplates(
  catalog: ActionCatalog,
  actions: ActionDef[],
  trigger: Trigger,
  allIds: Set<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (list: ActionDef[], base: string, before: Map<string, string>): Map<string, string> => {
    const seen = new Map(before);
    list.forEach((action, i) => {
      const path = `${base}[${i}]`;
      const part = renderedPart(catalog, action);
      const syntax = validateTemplates(part, path);
      for (const e of syntax) errors.push({ path: e.jsonPath, message: e.message });
      const refs = syntax.length > 0 ? [] : collectReferences(part, path);
      if (action.type === "condition") refs.push(...collectReferences(action.if, `${path}.if`));
      for (const ref of refs) {
        const problem = referenceProblem(catalog, ref, trigger, seen, allIds);
        if (problem) errors.push({ path: ref.jsonPath, message: `${ref.raw}: ${problem}` });
      }
      if (action.type === "condition") {
        const inside = new Map([...seen, [action.id, action.type]]);
        for (const b of ["then", "else"] as const) {
          const branch = Array.isArray(action[b]) ? (action[b] as ActionDef[]) : [];
          for (const [id, type] of visit(branch, `${path}.${b}`, inside)) seen.set(id, type);
        }
      }
      seen.set(action.id, action.type);
    });
    return seen;
  };
  visit(actions, "actions", new Map());
  return errors;
}

/** Why a reference names nothing this step can read, with what it can read instead; null when it is fine. */
function referenceProblem(
  catalog: ActionCatalog,
  ref: TemplateReference,
  trigger: Trigger,
  before: Map<string, string>,
  allIds: Set<string>,
): string | null {
  const [root, first, second] = ref.path;
  const available = () =>
    `; available: ${listVariables([
      ...triggerVariables(trigger),
      ...[...before].flatMap(([id, type]) => briefStepVariables(catalog, { id, type })),
    ])}`;
  const isEvent = trigger.type === "event";
  const dataFields = isEvent ? eventDataFields(trigger.event as EventType) : [];
  const bodyFields = trigger.type === "webhook" && trigger.fields?.length ? trigger.fields : undefined;
  switch (root) {
    case "steps": {
      if (first === undefined) return null;
      const type = before.get(first);
      if (type === undefined) {
        const why = allIds.has(first)
          ? `step "${first}" does not run before this one`
          : `there is no step with id "${first}"`;
        return why + available();
      }
      const rest = ref.path.slice(2);
      if (outputHas(catalog.get(type)?.outputs ?? [], rest)) return null;
      return `step "${first}" (${type}) gives no "${formatPath(rest)}"; it gives ${listVariables(stepVariables(catalog, { id: first, type }), 16)}`;
    }
    case "run":
      return first === undefined || (RUN_FIELDS as readonly string[]).includes(first)
        ? null
        : `run has only ${RUN_FIELDS.join(", ")}`;
    case "event":
    case "trigger":
      if (!isEvent) {
        if (root === "event") return `event is set only for event triggers${available()}`;
        if (first === undefined || !bodyFields || bodyFields.includes(first)) return null;
        return `the webhook declares no body field "${first}"${available()}`;
      }
      if (first === undefined) return null;
      if (!(EVENT_FIELDS as readonly string[]).includes(first)) return `an event has only ${EVENT_FIELDS.join(", ")}`;
      if ((first === "data" || first === "previous") && second !== undefined && !dataFields.includes(second)) {
        return `${trigger.event} events have no field "${second}"${available()}`;
      }
      return null;
    default:
      if (isEvent)
        return dataFields.includes(root!)
          ? null
          : `${trigger.event} events have no field "${formatPath([root!])}"${available()}`;
      if (!bodyFields || bodyFields.includes(root!)) return null;
      return `the webhook declares no body field "${formatPath([root!])}"${available()}`;
  }
}

/** The literal ids and names a definition's id fields hold, so the service can look them up before checking. */
export function idLiterals(catalog: ActionCatalog, actions: unknown[]): { kind: IdKind; value: string }[] {
  const out: { kind: IdKind; value: string }[] = [];
  walkActions(actions, (action) => {
    if (!isObject(action) || typeof action.type !== "string") return;
    const mod = catalog.get(action.type);
    if (mod) for (const v of idValues(mod.fields, action)) out.push({ kind: v.kind, value: v.value });
  });
  return out;
}

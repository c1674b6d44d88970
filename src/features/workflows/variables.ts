// The template variables a step may use: the trigger's names and the outputs of the steps that run before
// it. One source for the save-time check (which refuses anything else, listing these) and the editor's
// "variables this step can use".
import { EVENT_TYPES, type EventType } from "../events/service.ts";
import type { ActionCatalog } from "./actions/catalog.ts";
import { EVENT_FIELDS, eventDataFields, RUN_FIELDS } from "./scope.ts";
import type { Trigger } from "./schema.ts";

export interface Variable {
  name: string;
  note?: string;
  /** Stands for any name of its kind (a webhook body's fields when none are declared): never listed as "available". */
  example?: boolean;
  /** Stands for this many more outputs of a step, not listed ("{{ steps.save.… }} (31 more)"). */
  more?: number;
}

type TriggerLike = { type: string; event?: string; fields?: readonly string[] } | Trigger;

const runVariables = (): Variable[] => RUN_FIELDS.map((f) => ({ name: `run.${f}` }));

/** The names the trigger gives a run: body or object fields at the top level, trigger.*, event.*, run.*. */
export function triggerVariables(trigger: TriggerLike): Variable[] {
  if (trigger.type === "webhook") {
    const fields = "fields" in trigger ? trigger.fields : undefined;
    if (fields?.length) {
      return [
        ...fields.map((f) => ({ name: f, note: "a field of the body" })),
        { name: "trigger", note: "the whole JSON body" },
        ...runVariables(),
      ];
    }
    return [
      { name: "url", note: "any top-level field of the body, e.g. url", example: true },
      { name: "trigger", note: "the whole JSON body" },
      ...runVariables(),
    ];
  }
  const event = "event" in trigger ? String(trigger.event ?? "") : "";
  const known = (EVENT_TYPES as readonly string[]).includes(event);
  const fields = known ? eventDataFields(event as EventType) : [];
  return [
    ...fields.map((f) => ({ name: f, note: `the ${event.split(".")[0]}'s ${f}` })),
    ...EVENT_FIELDS.filter((f) => f !== "data" && f !== "previous").map((f) => ({ name: `event.${f}` })),
    { name: "event.data", note: "the object" },
    { name: "event.previous", note: "the object before an update" },
    ...runVariables(),
  ];
}

/** What one earlier step offers: `steps.<id>.<output>` for each output path its module declares. */
export function stepVariables(catalog: Pick<ActionCatalog, "get">, step: { id: string; type: string }): Variable[] {
  const outputs = catalog.get(step.type)?.outputs ?? [];
  return outputs
    .filter((o) => !o.endsWith(".*"))
    .map((o) => ({ name: `steps.${step.id}.${o}`, note: `from ${step.type}` }));
}

/** True when a path below steps.<id> is one the step's outputs have (or lies inside an open one). */
export function outputHas(outputs: readonly string[], rest: readonly string[]): boolean {
  if (rest.length === 0) return true;
  return outputs.some((o) => {
    const segs = o.split(".");
    for (let i = 0; i < segs.length; i++) {
      if (segs[i] === "*") return rest.length > i;
      if (i >= rest.length) return true; // an object that holds this output
      if (segs[i] !== rest[i]) return false;
    }
    return rest.length === segs.length;
  });
}

/** `{{ a }}, {{ b }}, …` for a message, cut after `limit` names ("and 12 more"). */
export function listVariables(vars: readonly Variable[], limit = 40): string {
  const names = [
    ...new Set(vars.filter((v) => !v.example).map((v) => `{{ ${v.name} }}${v.more ? ` (${v.more} more)` : ""}`)),
  ];
  if (names.length === 0) return "none";
  const shown = names.slice(0, limit).join(", ");
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown;
}

/** Per earlier step, its first few outputs (objects left out) and how many more: a message stays readable. */
export function briefStepVariables(
  catalog: Pick<ActionCatalog, "get">,
  step: { id: string; type: string },
  first = 4,
): Variable[] {
  const all = stepVariables(catalog, step);
  const leaves = all.filter((v) => !all.some((o) => o.name.startsWith(`${v.name}.`)));
  const shown = leaves.slice(0, first);
  const more = leaves.length - shown.length;
  return more > 0 ? [...shown, { name: `steps.${step.id}.…`, more }] : shown;
}

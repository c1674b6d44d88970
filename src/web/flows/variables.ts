// The template variables an action may use: the trigger's names and the outputs of the steps that run
// before it (the same order rule as the save-time check: earlier siblings, enclosing conditions, branches
// of earlier conditions).
import { EVENT_TYPES, type EventType } from "../../features/events/service.ts";
import { EVENT_FIELDS, eventDataFields, RUN_FIELDS } from "../../features/workflows/scope.ts";
import { ACTION_TYPE } from "./action-fields.ts";
import type { Action, Trigger } from "./draft.ts";

export interface Variable {
  name: string;
  note?: string;
}

export function triggerVariables(trigger: Trigger): Variable[] {
  const run = RUN_FIELDS.map((f) => ({ name: `run.${f}` }));
  if (trigger.type === "webhook") {
    return [
      { name: "trigger", note: "the whole JSON body" },
      { name: "url", note: "any top-level field of the body, e.g. url" },
      ...run,
    ];
  }
  const known = (EVENT_TYPES as readonly string[]).includes(trigger.event);
  const fields = known ? eventDataFields(trigger.event as EventType) : [];
  return [
    ...fields.map((f) => ({ name: f, note: `the ${trigger.event.split(".")[0]}'s ${f}` })),
    ...EVENT_FIELDS.filter((f) => f !== "data" && f !== "previous").map((f) => ({ name: `event.${f}` })),
    { name: "event.previous", note: "the object before an update" },
    ...run,
  ];
}

/** For each action path, the earlier actions whose outputs it can read. */
export function earlierSteps(actions: Action[]): Map<string, Action[]> {
  const out = new Map<string, Action[]>();
  const visit = (list: Action[], base: string, before: Action[]): Action[] => {
    const seen = [...before];
    list.forEach((action, i) => {
      const path = `${base}[${i}]`;
      out.set(path, [...seen]);
      if (action.type === "condition") {
        const inside = [...seen, action];
        for (const b of ["then", "else"] as const) {
          const branch = Array.isArray(action[b]) ? (action[b] as Action[]) : [];
          for (const a of visit(branch, `${path}.${b}`, inside)) if (!seen.includes(a)) seen.push(a);
        }
      }
      if (!seen.includes(action)) seen.push(action);
    });
    return seen;
  };
  visit(actions, "actions", []);
  return out;
}

export function stepVariables(steps: Action[]): Variable[] {
  return steps
    .filter((s) => s.id)
    .flatMap((s) =>
      (ACTION_TYPE.get(s.type)?.outputs ?? []).map((o) => ({ name: `steps.${s.id}.${o}`, note: `from ${s.type}` })),
    );
}

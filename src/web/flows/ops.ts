// The editor's buttons as operations on a draft: add, remove and reorder actions, add and remove clauses.
// Each button posts the whole form with `op` = "<verb>:<path>", so they work without JavaScript.
import { walkActions } from "../../features/workflows/paths.ts";
import { newAction, type Catalog } from "./action-fields.ts";
import type { Action, Draft } from "./draft.ts";

export type Op =
  | { verb: "save" | "view_json" | "view_form" | "refresh" }
  | { verb: "add"; list: string }
  | { verb: "remove" | "up" | "down"; path: string }
  | { verb: "add_clause"; group: string }
  | { verb: "remove_clause"; clause: string };

const LIST = String.raw`actions(?:\[\d+\]\.(?:then|else))*`;
const ACTION = String.raw`${LIST}\[\d+\]`;
const PATTERNS: [RegExp, (m: RegExpExecArray) => Op][] = [
  [new RegExp(`^add:(${LIST})$`), (m) => ({ verb: "add", list: m[1]! })],
  [new RegExp(`^(remove|up|down):(${ACTION})$`), (m) => ({ verb: m[1] as "remove", path: m[2]! })],
  [new RegExp(`^add_clause:(${ACTION}\\.if\\.(?:all|any))$`), (m) => ({ verb: "add_clause", group: m[1]! })],
  [
    new RegExp(`^remove_clause:(${ACTION}\\.if\\.(?:all|any)\\[\\d+\\])$`),
    (m) => ({ verb: "remove_clause", clause: m[1]! }),
  ],
];

export function parseOp(value: string): Op {
  if (value === "view_json" || value === "view_form" || value === "refresh") return { verb: value };
  for (const [re, make] of PATTERNS) {
    const m = re.exec(value);
    if (m) return make(m);
  }
  return { verb: "save" };
}

/** The action list a path names (`actions`, `actions[1].then`), or undefined. */
function listAt(actions: Action[], path: string): Action[] | undefined {
  let list = actions;
  for (const m of path.matchAll(/\[(\d+)\]\.(then|else)/g)) {
    const owner = list[Number(m[1])];
    if (owner?.type !== "condition") return undefined;
    if (!Array.isArray(owner[m[2]!])) owner[m[2]!] = [];
    list = owner[m[2]!] as Action[];
  }
  return list;
}

function splitLast(path: string): { list: string; index: number } {
  const m = /^(.*)\[(\d+)\]$/.exec(path)!;
  return { list: m[1]!, index: Number(m[2]) };
}

export function uniqueId(actions: Action[], base: string): string {
  const taken = new Set<string>();
  walkActions(actions, (a) => {
    if (a && typeof a === "object" && typeof (a as Action).id === "string") taken.add((a as Action).id);
  });
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

/** Applies an op to the draft in place; returns the form field to focus on the re-rendered page. */
export function applyOp(
  draft: Draft,
  op: Op,
  form: { addType(list: string): string },
  catalog: Catalog,
): string | undefined {
  switch (op.verb) {
    case "add": {
      const list = listAt(draft.actions, op.list);
      const chosen = catalog.get(form.addType(op.list));
      const mod = chosen?.available ? chosen : catalog.modules.find((m) => m.available);
      if (!list || !mod) return undefined;
      list.push(newAction(mod, uniqueId(draft.actions, mod.idBase)) as Action);
      return `${op.list}[${list.length - 1}].id`;
    }
    case "remove":
    case "up":
    case "down": {
      const { list: listPath, index } = splitLast(op.path);
      const list = listAt(draft.actions, listPath);
      if (!list?.[index]) return undefined;
      if (op.verb === "remove") {
        list.splice(index, 1);
        return `add_type:${listPath}`;
      }
      const to = op.verb === "up" ? index - 1 : index + 1;
      if (to < 0 || to >= list.length) return undefined;
      [list[index], list[to]] = [list[to]!, list[index]!];
      // The same button on the moved action, so pressing it again keeps moving it.
      return `${op.verb}:${listPath}[${to}]`;
    }
    case "add_clause": {
      const at = op.group.lastIndexOf(".if.");
      const { list: listPath, index } = splitLast(op.group.slice(0, at));
      const action = listAt(draft.actions, listPath)?.[index];
      if (action?.type !== "condition") return undefined;
      const cond = (action.if ??= {}) as Record<string, unknown[]>;
      const g = op.group.slice(at + 4);
      (cond[g] ??= []).push({ left: "", op: "eq" });
      return `${op.group}[${cond[g].length - 1}].left`;
    }
    case "remove_clause": {
      const { list: groupPath, index } = splitLast(op.clause);
      const at = groupPath.lastIndexOf(".if.");
      const { list: listPath, index: ai } = splitLast(groupPath.slice(0, at));
      const action = listAt(draft.actions, listPath)?.[ai];
      const clauses = (action?.if as Record<string, unknown[]> | undefined)?.[groupPath.slice(at + 4)];
      if (!clauses) return undefined;
      clauses.splice(index, 1);
      return `add_clause:${groupPath}`;
    }
    default:
      return undefined;
  }
}

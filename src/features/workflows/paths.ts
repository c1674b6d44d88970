// Where an action sits in a (possibly nested) action list: `actions[1].then[0]`, and what runs after it.
export interface ActionDef {
  id: string;
  type: string;
  [key: string]: unknown;
}

export type Branch = "then" | "else";
type Segment = { list: "actions" | Branch; index: number };

const SEGMENT_RE = /(actions|then|else)\[(\d+)\]/g;

export function formatPath(segments: Segment[]): string {
  return segments.map((s) => `${s.list}[${s.index}]`).join(".");
}

export function parsePath(path: string): Segment[] {
  const out: Segment[] = [];
  for (const m of path.matchAll(SEGMENT_RE)) out.push({ list: m[1] as Segment["list"], index: Number(m[2]) });
  return out;
}

/** The child list of an action for a branch (only conditions have them). */
export function branchOf(action: ActionDef | undefined, branch: Branch): ActionDef[] {
  const list = action?.[branch];
  return Array.isArray(list) ? (list as ActionDef[]) : [];
}

/** The action at a path, or undefined when the path does not lead to one. */
export function actionAt(actions: ActionDef[], path: string): ActionDef | undefined {
  const segs = parsePath(path);
  if (segs.length === 0 || segs[0]!.list !== "actions") return undefined;
  let list = actions;
  let action: ActionDef | undefined;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (i > 0) list = branchOf(action, seg.list as Branch);
    action = list[seg.index];
    if (!action) return undefined;
  }
  return action;
}

export function firstPath(actions: ActionDef[]): string | null {
  return actions.length > 0 ? "actions[0]" : null;
}

/** The step after a finished action that has no branch to enter: its next sibling, else up a level. */
export function nextAfter(actions: ActionDef[], path: string): string | null {
  const segs = parsePath(path);
  while (segs.length > 0) {
    const last = segs.pop()!;
    const siblings = segs.length === 0 ? actions : branchOf(actionAt(actions, formatPath(segs)), last.list as Branch);
    if (last.index + 1 < siblings.length) return formatPath([...segs, { ...last, index: last.index + 1 }]);
  }
  return null;
}

/** After a condition: the first action of the chosen branch, or what follows the condition. */
export function enterBranch(actions: ActionDef[], path: string, branch: Branch): string | null {
  const action = actionAt(actions, path);
  if (branchOf(action, branch).length > 0) return `${path}.${branch}[0]`;
  return nextAfter(actions, path);
}

/** Visits every action in document order with its path and the paths of the conditions around it. */
export function walkActions(
  actions: unknown[],
  fn: (action: unknown, path: string, depth: number) => void,
  base = "actions",
  depth = 0,
): void {
  actions.forEach((action, i) => {
    const path = `${base}[${i}]`;
    fn(action, path, depth);
    if (action && typeof action === "object" && !Array.isArray(action)) {
      for (const b of ["then", "else"] as const) {
        const list = (action as Record<string, unknown>)[b];
        if (Array.isArray(list)) walkActions(list, fn, `${path}.${b}`, depth + 1);
      }
    }
  });
}

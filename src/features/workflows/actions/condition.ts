// The condition action: tests clauses against the run's values and continues in `then` or `else`.
import { t } from "elysia";
import { ConditionSchema, evaluateCondition, validateCondition, type Condition } from "../conditions.ts";
import { actionSchema } from "./base.ts";
import type { ActionModule } from "./types.ts";

const Branch = t.Array(t.Unknown({ description: "An action" }), {
  description: "Actions run in order when the test holds / fails",
});

/** Each operator in words, for summaries ("If {{ status }} equals ready") and the editor's choices. */
export const OP_WORDS: Record<string, string> = {
  eq: "equals",
  ne: "does not equal",
  contains: "contains",
  not_contains: "does not contain",
  starts_with: "starts with",
  ends_with: "ends with",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  exists: "exists",
  not_exists: "does not exist",
  in: "is one of",
};

const shown = (v: unknown): string => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

/** A condition's rule in words: `If {{ status }} equals ready and {{ n }} is greater than 5`. */
export function describeCondition(cond: unknown): string {
  if (!cond || typeof cond !== "object") return "If …";
  const c = cond as Record<string, unknown>;
  const group = (g: "all" | "any") => {
    const clauses = Array.isArray(c[g]) ? (c[g] as Record<string, unknown>[]) : [];
    return clauses
      .filter((x) => x && typeof x === "object")
      .map((x) => {
        const op = String(x.op ?? "");
        const words = `${shown(x.left) || "…"} ${OP_WORDS[op] ?? op}`;
        return op === "exists" || op === "not_exists" || x.right === undefined ? words : `${words} ${shown(x.right)}`;
      })
      .join(g === "all" ? " and " : " or ");
  };
  const parts = (["all", "any"] as const).map(group).filter(Boolean);
  if (parts.length === 0) return "If … (no clauses)";
  return `If ${parts.length === 2 ? `(${parts[0]}) and (${parts[1]})` : parts[0]}`;
}

export const condition: ActionModule = {
  type: "condition",
  title: "Condition",
  idBase: "check",
  fields: [{ key: "if", label: "If", kind: "condition", initial: { all: [{ left: "", op: "eq" }] } }],
  outputs: ["result", "branch", "clauses", "clauses.*"],
  summary: (a) => describeCondition(a.if),
  available: true,
  mode: "transaction",
  unrendered: ["if", "then", "else"],
  schema: actionSchema(
    "condition",
    { if: ConditionSchema, then: t.Optional(Branch), else: t.Optional(Branch) },
    "Branch on {all|any: [{left, op, right}]}. Output: {result, branch, clauses}",
  ),
  validate(action) {
    const cond = action.if as Condition;
    if (cond && typeof cond === "object" && !cond.all && !cond.any)
      return [{ path: "if", message: "needs `all` or `any`" }];
    return validateCondition(cond, "if");
  },
  run(_input, env) {
    const verdict = evaluateCondition(env.action.if as Condition, env.scope);
    const branch = verdict.result ? "then" : "else";
    const log = verdict.missing.map((m) => `no value for {{ ${m} }}: compared as ""`);
    return { output: { result: verdict.result, branch, clauses: verdict.details }, branch, log };
  },
};

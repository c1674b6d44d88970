// The condition action: tests clauses against the run's values and continues in `then` or `else`.
import { t } from "elysia";
import { ConditionSchema, evaluateCondition, validateCondition, type Condition } from "../conditions.ts";
import { actionSchema } from "./base.ts";
import type { ActionModule } from "./types.ts";

const Branch = t.Array(t.Unknown({ description: "An action" }), {
  description: "Actions run in order when the test holds / fails",
});

export const condition: ActionModule = {
  type: "condition",
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

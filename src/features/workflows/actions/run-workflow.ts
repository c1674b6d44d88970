// The run_workflow action: starts another workflow of the same owner with `input` as its trigger.
import { t } from "elysia";
import { actionSchema } from "./base.ts";
import { StepFailure, type ActionModule } from "./types.ts";

/** Runs chained through run_workflow or through events stop at this causation depth. */
export const MAX_DEPTH = 5;

export const runWorkflow: ActionModule = {
  type: "run_workflow",
  title: "Run another workflow",
  idBase: "run",
  fields: [
    { key: "workflow_id", label: "Workflow", kind: "workflow", required: true },
    {
      key: "input",
      label: "Input (JSON)",
      kind: "json",
      hint: "Becomes the other run's trigger; an object's fields are its variables.",
    },
  ],
  outputs: ["run_id", "workflow_id"],
  summary: (a) => (typeof a.workflow_id === "string" ? a.workflow_id : ""),
  available: true,
  mode: "transaction",
  schema: actionSchema(
    "run_workflow",
    {
      workflow_id: t.String({ minLength: 1, maxLength: 200, description: "A workflow of yours (wf_…), or a template" }),
      input: t.Optional(
        t.Unknown({ description: "Becomes the child run's trigger; an object's fields are its top-level variables" }),
      ),
    },
    "Start another of your workflows. Output: {run_id, workflow_id}",
  ),
  async run(input, env) {
    const target = String(input.workflow_id ?? "");
    const { run } = env;
    if (target === run.workflowId || run.chain.includes(target)) {
      const loop = [...run.chain, run.workflowId, target].join(" → ");
      throw new StepFailure("cycle_detected", `refused: running ${target} again would loop (${loop})`);
    }
    if (run.depth + 1 >= MAX_DEPTH) {
      throw new StepFailure("depth_limit", `refused: workflows may chain at most ${MAX_DEPTH} deep`);
    }
    return { output: await env.deps.startChildRun(run, target, input.input ?? {}) };
  },
};

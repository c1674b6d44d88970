// /api/v1/workflows and /api/v1/runs: definitions, run history, replay.
import { Elysia, t } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { listOf, ListQuery, withLink } from "../../http/pagination.ts";
import { secretOnce } from "../../http/secret-once.ts";
import type { Runs } from "./runs.ts";
import { ReplayQuery, RunPublic, WorkflowCreate, type WorkflowSchemas, WorkflowUpdate } from "./schema.ts";
import type { WorkflowsService } from "./service.ts";

const Params = t.Object({ id: t.String() });

export function workflowRoutes(workflows: WorkflowsService, runs: Runs, schemas: WorkflowSchemas) {
  const { WorkflowPublic } = schemas;
  return (
    new Elysia({ prefix: "/workflows", tags: ["Workflows"] })
      .use(secretOnce)
      // GET /api/v1/workflows
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          return withLink(await workflows.list(actorOf(ctx.request), { limit, cursor }), limit, ctx);
        },
        {
          query: ListQuery,
          response: listOf(WorkflowPublic),
          detail: {
            operationId: "listWorkflows",
            summary: "List workflows",
            description: "The caller's workflows, newest first.",
          },
        },
      )
      // POST /api/v1/workflows
      .post(
        "/",
        async ({ request, body, set }) => {
          const wf = await workflows.create(actorOf(request), body as WorkflowCreate);
          set.status = 201;
          set.headers["location"] = `/api/v1/workflows/${wf.id}`;
          return wf;
        },
        {
          body: WorkflowCreate,
          response: { 201: WorkflowPublic },
          // A webhook trigger without token_id mints a token whose URL is shown only here.
          secretOnce: (wf: Record<string, unknown>) => Boolean(wf.webhook_url),
          detail: {
            operationId: "createWorkflow",
            summary: "Create a workflow (a webhook trigger without token_id returns webhook_url once)",
            description:
              "A trigger (`webhook` or `event`) and a list of actions; templates like `{{ url }}` are checked when the definition is saved.",
          },
        },
      )
      // GET /api/v1/workflows/{id}
      .get("/:id", ({ request, params }) => workflows.get(actorOf(request), params.id), {
        params: Params,
        response: WorkflowPublic,
        detail: {
          operationId: "getWorkflow",
          summary: "Get a workflow",
          description: "One workflow with its trigger and actions.",
        },
      })
      // PATCH /api/v1/workflows/{id}
      .patch(
        "/:id",
        ({ request, params, body }) => workflows.update(actorOf(request), params.id, body as WorkflowUpdate),
        {
          params: Params,
          body: WorkflowUpdate,
          response: WorkflowPublic,
          detail: {
            operationId: "updateWorkflow",
            summary: "Change a workflow; trigger and actions are checked again",
            description:
              "Only the fields sent change; the resulting trigger, actions and templates are validated as on creation.",
          },
        },
      )
      // DELETE /api/v1/workflows/{id}
      .delete("/:id", ({ request, params }) => workflows.delete(actorOf(request), params.id), {
        params: Params,
        response: WorkflowPublic,
        detail: {
          operationId: "deleteWorkflow",
          summary: "Delete a workflow and its run history",
          description: "Returns the workflow as it was before deletion.",
        },
      })
      // GET /api/v1/workflows/{id}/runs
      .get(
        "/:id/runs",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          return withLink(await runs.list(actorOf(ctx.request), ctx.params.id, { limit, cursor }), limit, ctx);
        },
        {
          params: Params,
          query: ListQuery,
          response: listOf(RunPublic),
          detail: {
            operationId: "listWorkflowRuns",
            summary: "Runs of a workflow, newest first (without steps)",
            description: "Each run's trigger, status and times; GET /api/v1/runs/{id} has the steps.",
          },
        },
      )
  );
}

export function runRoutes(runs: Runs) {
  return (
    new Elysia({ prefix: "/runs", tags: ["Workflows"] })
      // GET /api/v1/runs/{id}
      .get("/:id", ({ request, params }) => runs.get(actorOf(request), params.id), {
        params: Params,
        response: RunPublic,
        detail: {
          operationId: "getRun",
          summary: "A run with each step's input, output, attempts, error and times",
          description: "One run with its steps in order.",
        },
      })
      // POST /api/v1/runs/{id}/replay
      .post(
        "/:id/replay",
        ({ request, params, query, set }) => {
          set.status = 202;
          return runs.replay(actorOf(request), params.id, query.from ?? "failed");
        },
        {
          params: Params,
          query: ReplayQuery,
          response: { 202: RunPublic },
          detail: {
            operationId: "replayRun",
            summary: "Run again from the failed step, or ?from=start",
            description:
              "Starts a new run with the same trigger: by default steps that finished keep their outputs and the run resumes at the failed step; `?from=start` runs every step again. 409 while the run is still going.",
          },
        },
      )
  );
}

/** Everything of this feature under /api/v1: workflows and runs (webhook tokens are the webhooks feature's). */
export function workflowApiRoutes(s: { workflows: WorkflowsService; runs: Runs; schemas: WorkflowSchemas }) {
  return new Elysia().use(workflowRoutes(s.workflows, s.runs, s.schemas)).use(runRoutes(s.runs));
}

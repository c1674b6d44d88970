// TypeBox shapes for workflows and runs: triggers (a union on `type`), create/update bodies, public views.
import type { TSchema, TUnknown } from "@sinclair/typebox";
import { t, type Static } from "elysia";
import { EVENT_TYPES } from "../events/service.ts";
import { Int, Nullable, oneOf } from "../../http/schema.ts";
import type { ActionCatalog } from "./actions/catalog.ts";

export const WebhookTrigger = t.Object(
  {
    type: t.Literal("webhook"),
    token_id: t.Optional(
      t.String({ maxLength: 200, description: "A webhook token (whk_…); omit it to get a new token" }),
    ),
    fields: t.Optional(
      t.Array(t.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }), {
        maxItems: 100,
        uniqueItems: true,
        description:
          "The body's top-level fields the workflow expects; when given, templates may use only these (else any body field)",
      }),
    ),
  },
  { additionalProperties: false, description: "Runs on POST /api/webhooks/workflows/{token}" },
);
export const EventTrigger = t.Object(
  { type: t.Literal("event"), event: oneOf(EVENT_TYPES) },
  { additionalProperties: false, description: "Runs when one of your sources, notebooks, notes or podcasts changes" },
);
export const TriggerSchema = t.Union([WebhookTrigger, EventTrigger]);
export type Trigger =
  | { type: "webhook"; token_id?: string; fields?: string[] }
  | { type: "event"; event: (typeof EVENT_TYPES)[number] };

// Triggers and actions are checked type by type in definition.ts, so errors name the exact field.
// The body schemas keep them opaque (Elysia would otherwise silently drop unknown fields while
// cleaning a union); the public shape below carries the real unions into the OpenAPI document.
// The trigger is at least an object (so null or a string is refused, and documented as refused).
const TriggerBody = t.Record(t.String(), t.Unknown(), {
  description: 'What starts the workflow: {type: "webhook", token_id?} or {type: "event", event}',
});
const ActionsBody = t.Array(t.Unknown(), { description: "Run in order; each action has an id unique in the workflow" });

export const WorkflowCreate = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 200 }),
    active: t.Optional(t.Boolean({ description: "Default true; an inactive workflow is not triggered" })),
    trigger: TriggerBody,
    actions: ActionsBody,
  },
  { additionalProperties: false },
);
export type WorkflowCreate = { name: string; active?: boolean; trigger: unknown; actions: unknown[] };

export const WorkflowUpdate = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    active: t.Optional(t.Boolean()),
    trigger: t.Optional(TriggerBody),
    actions: t.Optional(ActionsBody),
  },
  { additionalProperties: false },
);
export type WorkflowUpdate = { name?: string; active?: boolean; trigger?: unknown; actions?: unknown[] };

/** The public view of a workflow; its actions are the union of the engine's action types. */
function workflowPublic(actionSchema: TSchema) {
  return t.Object({
    id: t.String(),
    name: t.String(),
    active: t.Boolean(),
    trigger: TriggerSchema,
    // Typed loosely (a union over every action module is too wide for Elysia's inference); the schema is the real one.
    actions: t.Array(actionSchema as unknown as TUnknown),
    signing_secret: t.String({ description: "whsec_…: verifies requests of http_request actions with sign: true" }),
    webhook_url: t.Optional(t.String({ description: "Only in the response that created the token" })),
    created_at: t.String(),
    updated_at: t.String(),
  });
}
export type WorkflowPublic = Static<ReturnType<typeof workflowPublic>>;

/** The schemas that depend on which action types the engine has: built once from its catalog. */
export function workflowSchemas(catalog: ActionCatalog) {
  return { ActionSchema: catalog.schema, WorkflowPublic: workflowPublic(catalog.schema) };
}
export type WorkflowSchemas = ReturnType<typeof workflowSchemas>;

export const RUN_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const ErrorInfo = t.Object({ code: t.String(), message: t.String(), step: t.Optional(t.String()) });

export const StepPublic = t.Object({
  id: t.String(),
  action_id: t.String(),
  type: t.String(),
  path: t.String({ description: "Where the action sits: actions[1].then[0]" }),
  status: oneOf(["running", "waiting", "succeeded", "failed"]),
  attempts: Int(),
  input: t.Unknown({ description: "The action with its templates rendered" }),
  output: t.Unknown(),
  error: Nullable(ErrorInfo),
  log: t.Array(t.String(), { description: "Notes such as templates that had no value" }),
  copied_from: Nullable(t.String({ description: "For a replay: the run whose finished step was reused" })),
  next_attempt_at: Nullable(t.String()),
  started_at: t.String(),
  finished_at: Nullable(t.String()),
});
export type StepPublic = Static<typeof StepPublic>;

export const RunPublic = t.Object({
  id: t.String(),
  workflow_id: t.String(),
  status: oneOf(RUN_STATUSES),
  trigger: t.Object(
    { type: t.String({ description: "webhook, event, workflow or replay" }), data: t.Unknown() },
    {
      additionalProperties: true,
      description: "What started the run, with delivery_id, event_id, parent_run_id or replay_of",
    },
  ),
  depth: Int({ description: "Causation depth: 0 for a webhook or your own change" }),
  error: Nullable(ErrorInfo),
  created_at: t.String(),
  started_at: Nullable(t.String()),
  finished_at: Nullable(t.String()),
  updated_at: t.String(),
  steps: t.Optional(t.Array(StepPublic)),
});
export type RunPublic = Static<typeof RunPublic>;

export const ReplayQuery = t.Object(
  { from: t.Optional(oneOf(["start", "failed"], { description: "Default: from the failed step" })) },
  { additionalProperties: false },
);

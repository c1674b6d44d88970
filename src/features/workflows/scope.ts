// The variables a step's templates see, and, for save-time checks, which names each trigger provides.
import type { EventType } from "../events/service.ts";
import { NotebookPublic } from "../library/notebooks/schema.ts";
import { HighlightPublic } from "../library/highlights/schema.ts";
import { NotePublic } from "../library/notes/schema.ts";
import { SourcePublic } from "../library/sources/schema.ts";

/** Names the scope always has; a body field of the same name is reachable as trigger.<name>. */
export const RESERVED_ROOTS = ["trigger", "steps", "run", "event"] as const;

export interface ScopeInput {
  runId: string;
  workflowId: string;
  depth: number;
  triggerType: string;
  trigger: unknown;
  steps: Record<string, unknown>;
}

export function buildScope(r: ScopeInput): Record<string, unknown> {
  const isEvent = r.triggerType === "event";
  const fields = isEvent ? (r.trigger as { data?: unknown } | null)?.data : r.trigger;
  const top = fields && typeof fields === "object" && !Array.isArray(fields) ? (fields as Record<string, unknown>) : {};
  const scope: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(top)) scope[k] = v;
  scope.trigger = r.trigger;
  if (isEvent) scope.event = r.trigger;
  else delete scope.event;
  scope.steps = r.steps;
  scope.run = { id: r.runId, workflow_id: r.workflowId, depth: r.depth };
  return scope;
}

/** The shape of an event as a trigger: what `trigger.*` and `event.*` hold. */
export const EVENT_FIELDS = ["id", "type", "occurred_at", "data", "previous"] as const;
export const RUN_FIELDS = ["id", "workflow_id", "depth"] as const;

const PODCAST_FIELDS = [
  "id",
  "title",
  "format",
  "status",
  "error",
  "duration_seconds",
  "source_ids",
  "audio_url",
  "transcript",
  "created_at",
  "updated_at",
];

/** Fields of `event.data` (and the top-level variables) for each event type. */
export function eventDataFields(type: EventType): readonly string[] {
  const resource = type.split(".")[0];
  if (resource === "source") return Object.keys(SourcePublic.properties);
  if (resource === "notebook") return Object.keys(NotebookPublic.properties);
  if (resource === "note") return Object.keys(NotePublic.properties);
  if (resource === "highlight") return Object.keys(HighlightPublic.properties);
  return PODCAST_FIELDS;
}

/** The event as a run's trigger: what the dispatcher stores and templates read. */
export function eventTrigger(e: { id: string; type: string; occurred_at: string; data: unknown; previous: unknown }) {
  return { id: e.id, type: e.type, occurred_at: e.occurred_at, data: e.data, previous: e.previous };
}

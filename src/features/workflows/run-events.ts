// Run events for the live stream (run.started, run.step_finished, run.succeeded, run.failed), recorded
// in the transaction that changed the run. They carry the run without its trigger body or step
// inputs and outputs: those can be large, and GET /runs/{id} has them.
import { systemActor } from "../../actor.ts";
import type { EventsService, RunEventType } from "../events/service.ts";
import type { RunRow, RunsRepo, StepRow } from "./runs-repo.ts";

const parse = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

export function runEventData(r: RunRow) {
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    status: r.status,
    trigger_type: r.trigger_type,
    depth: r.depth,
    step_count: r.step_count,
    error: parse(r.error),
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    updated_at: r.updated_at,
  };
}

export function stepEventData(s: StepRow) {
  return {
    id: s.id,
    action_id: s.action_id,
    type: s.type,
    path: s.path,
    status: s.status,
    attempts: s.attempts,
    error: parse(s.error),
    next_attempt_at: s.next_attempt_at,
    started_at: s.started_at,
    finished_at: s.finished_at,
  };
}

export function createRunEvents(deps: { events: EventsService; runs: RunsRepo }) {
  const { events, runs } = deps;

  async function record(type: RunEventType, runId: string, step?: StepRow | null): Promise<void> {
    const run = await runs.get(runId);
    if (!run) return;
    const data = step ? { ...runEventData(run), step: stepEventData(step) } : runEventData(run);
    await events.record(systemActor(run.user_id, `workflow ${run.workflow_id} run ${run.id}`, run.depth), type, data);
  }

  return {
    /** A run was created (queued) by a webhook, an event, another workflow or a replay. Call inside its transaction. */
    started: (runId: string) => record("run.started", runId),
    /** A step's try ended: succeeded, failed, or waiting for a retry. Call inside its transaction. */
    stepFinished: async (runId: string, path: string) =>
      record("run.step_finished", runId, await runs.stepAt(runId, path)),
    /** The run reached succeeded or failed. Call inside its transaction. */
    async finished(runId: string): Promise<void> {
      const status = (await runs.get(runId))?.status;
      if (status === "succeeded") await record("run.succeeded", runId);
      else if (status === "failed") await record("run.failed", runId);
    },
  };
}
export type RunEvents = ReturnType<typeof createRunEvents>;

// Event triggers: reads the events outbox after a stored cursor and starts a run per matching workflow,
// moving the cursor in the same transaction, so each event is dispatched exactly once.
import type { Database } from "bun:sqlite";
import { inTransaction } from "../../db/tx.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import type { Logger } from "../../log.ts";
import { isTriggerType, type AppEvent, type EventsService } from "../events/service.ts";
import { MAX_DEPTH } from "./actions/run-workflow.ts";
import type { WorkflowsRepo, WorkflowStateRepo } from "./repo.ts";
import type { Runs, StartRun } from "./runs.ts";
import { eventTrigger } from "./scope.ts";

export const DISPATCH_JOB = "workflow.dispatch";
const BATCH = 200;

export function createDispatcher(deps: {
  sqlite: Database;
  events: EventsService;
  workflows: WorkflowsRepo;
  state: WorkflowStateRepo;
  runs: Runs;
  queue: JobEnqueuer;
  logger: Logger;
}) {
  const { sqlite, events, workflows, state, runs } = deps;

  function dispatchEvent(e: AppEvent): number {
    if (!isTriggerType(e.type)) return 0; // run.* events only feed the live stream
    let started = 0;
    for (const workflowId of workflows.forEvent(e.user_id, e.type, e.occurred_at)) {
      const r: StartRun = {
        userId: e.user_id, workflowId, triggerType: "event", trigger: eventTrigger(e),
        meta: { event_id: e.id, event_type: e.type }, depth: e.depth, chain: [],
      };
      if (e.depth >= MAX_DEPTH) {
        // The loop guard: this event was caused by a chain of workflow actions already MAX_DEPTH long.
        runs.refuse(r, "depth_limit", `not started: ${e.type} was caused by ${e.depth} chained workflow runs (the limit is ${MAX_DEPTH})`);
      } else if (runs.start(r)) started++;
    }
    return started;
  }

  /** Dispatches every event recorded so far, in batches of one transaction each; returns runs started. */
  function runOnce(): number {
    let total = 0;
    for (;;) {
      const n = inTransaction(sqlite, () => {
        const batch = events.after(state.dispatchCursor(), BATCH);
        for (const e of batch) total += dispatchEvent(e);
        if (batch.length > 0) state.setDispatchCursor(batch[batch.length - 1]!.seq);
        return batch.length;
      });
      if (n < BATCH) return total;
    }
  }

  /** Queues a dispatch job when events wait and some workflow listens; cheap when none does. */
  function kick(): void {
    try {
      if (!workflows.hasEventWorkflows()) return;
      const latest = state.latestEventSeq();
      if (latest > state.dispatchCursor()) deps.queue.enqueue(DISPATCH_JOB, {}, { idempotencyKey: `upto:${latest}` });
    } catch (err) {
      deps.logger.warn("could not queue event dispatch", { error: err instanceof Error ? err.message : String(err) });
    }
  }

  return { runOnce, kick, pending: () => state.latestEventSeq() > state.dispatchCursor() };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;

// Event triggers: claims pending events of the outbox with a lease and, per event in one transaction,
// starts a run per matching workflow and marks the event dispatched, so each event is dispatched once
// even when events commit out of sequence order or two dispatchers run at the same time.
import type { Transactor } from "../../db/port.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { defineJob } from "../../jobs/types.ts";
import { t } from "elysia";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { EventsRepo } from "../events/repo.ts";
import { isTriggerType, toAppEvent, type AppEvent } from "../events/service.ts";
import { MAX_DEPTH } from "./actions/run-workflow.ts";
import type { WorkflowsRepo } from "./repo.ts";
import type { Runs, StartRun } from "./runs.ts";
import { eventTrigger } from "./scope.ts";

/** Claims pending events and starts their runs; reads nothing from its payload. */
export const DISPATCH_JOB = defineJob("workflow.dispatch", t.Object({}));
const BATCH = 200;

export interface DispatcherDeps {
  db: Transactor;
  /** The outbox's claims (the events feature's table). */
  outbox: Pick<
    EventsRepo,
    "claimPending" | "markDispatched" | "releaseClaims" | "latestPendingSeq" | "nextLeaseExpiry"
  >;
  workflows: WorkflowsRepo;
  runs: Runs;
  queue: JobEnqueuer;
  clock: Clock;
  /** How long a claim holds its events; a dispatcher that died mid-batch leaves them to the next after this. */
  leaseMs: number;
  logger: Logger;
}

export function createDispatcher(deps: DispatcherDeps) {
  const { db, outbox, workflows, runs, clock } = deps;

  async function dispatchEvent(e: AppEvent): Promise<number> {
    if (!isTriggerType(e.type)) return 0; // run.* events only feed the live stream
    let started = 0;
    for (const workflowId of await workflows.forEvent(e.user_id, e.type, e.occurred_at)) {
      const r: StartRun = {
        userId: e.user_id,
        workflowId,
        triggerType: "event",
        trigger: eventTrigger(e),
        meta: { event_id: e.id, event_type: e.type },
        depth: e.depth,
        chain: [],
      };
      if (e.depth >= MAX_DEPTH) {
        // The loop guard: this event was caused by a chain of workflow actions already MAX_DEPTH long.
        await runs.refuse(
          r,
          "depth_limit",
          `not started: ${e.type} was caused by ${e.depth} chained workflow runs (the limit is ${MAX_DEPTH})`,
        );
      } else if (await runs.start(r)) started++;
    }
    return started;
  }

  /** Claims one batch and dispatches it; returns how many events were claimed and runs started. */
  async function dispatchBatch(): Promise<{ claimed: number; started: number }> {
    const now = clock.now();
    const lease = now + deps.leaseMs;
    const batch = (await outbox.claimPending({ now, leaseUntil: lease, limit: BATCH })).map(toAppEvent);
    let started = 0;
    let done = 0;
    try {
      for (const e of batch) {
        started += await db.tx(async () => {
          // Marked first, against this claim's lease: when another dispatcher took the event over
          // after our lease ran out, nothing is started here and the transaction changes nothing.
          if (!(await outbox.markDispatched(e.seq, lease, clock.now()))) return 0;
          return dispatchEvent(e);
        });
        done++;
      }
    } finally {
      // A failure leaves the rest of the batch to the next claim at once, not after the lease.
      if (done < batch.length)
        await outbox.releaseClaims(
          batch.slice(done).map((e) => e.seq),
          lease,
        );
    }
    return { claimed: batch.length, started };
  }

  /** Dispatches every pending event it can claim, batch by batch; returns runs started. */
  async function runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, started } = await dispatchBatch();
      total += started;
      if (claimed < BATCH) break;
    }
    // Events still claimed by someone else (a dispatcher that may have died): look again when that lease ends.
    const until = await outbox.nextLeaseExpiry(clock.now());
    if (until !== null) await deps.queue.enqueue(DISPATCH_JOB, {}, { runAt: until, idempotencyKey: `lease:${until}` });
    return total;
  }

  /** Queues a dispatch job when events wait and some workflow listens; cheap when none does. */
  async function kick(): Promise<void> {
    try {
      if (!(await workflows.hasEventWorkflows())) return;
      const latest = await outbox.latestPendingSeq();
      if (latest !== null) await deps.queue.enqueue(DISPATCH_JOB, {}, { idempotencyKey: `upto:${latest}` });
    } catch (err) {
      deps.logger.warn("could not queue event dispatch", { error: err instanceof Error ? err.message : String(err) });
    }
  }

  return { runOnce, kick, pending: async () => (await outbox.latestPendingSeq()) !== null };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;

// The workflows feature: definitions, runs, the step executor, the event dispatcher, their jobs, the
// /api/v1 routes (workflows, runs) and the trigger that webhook deliveries start runs through.
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Queue } from "../../jobs/queue.ts";
import { defineJob, handleJob } from "../../jobs/types.ts";
import type { Logger } from "../../log.ts";
import type { SafeFetch } from "../../net/safe-fetch.ts";
import type { Clock } from "../../time.ts";
import { t } from "elysia";
import { isTriggerType, type EventsService } from "../events/service.ts";
import type { NotebooksService } from "../library/notebooks/service.ts";
import type { SourcesService } from "../library/sources/service.ts";
import type { FeatureWith } from "../feature.ts";
import { actionCatalog } from "./actions/catalog.ts";
import type { ActionDeps, ActionModule } from "./actions/types.ts";
import { createDispatcher, DISPATCH_JOB } from "./dispatcher.ts";
import { createExecutor } from "./executor.ts";
import type { EventsRepo } from "../events/repo.ts";
import type { WorkflowsRepo } from "./repo.ts";
import { createRuns, START_JOB, STEP_JOB } from "./runs.ts";
import type { RunsRepo } from "./runs-repo.ts";
import { createRunEvents } from "./run-events.ts";
import { workflowApiRoutes } from "./routes.ts";
import { workflowSchemas } from "./schema.ts";
import {
  createWorkflowsService,
  type WorkflowNotebooks,
  type WorkflowsService,
  type WorkflowTokens,
} from "./service.ts";
import { AppError } from "../../errors.ts";
import { walk } from "../../paging.ts";

/** Hourly retention pruning of runs and deliveries; reads nothing from its payload. */
export const PRUNE_JOB = defineJob("workflow.prune", t.Object({}));
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface WorkflowsFeatureDeps {
  config: Config;
  db: Db;
  repo: WorkflowsRepo;
  runsRepo: RunsRepo;
  /** The events outbox, whose pending events the dispatcher claims. */
  outbox: Pick<
    EventsRepo,
    "claimPending" | "markDispatched" | "releaseClaims" | "latestPendingSeq" | "nextLeaseExpiry"
  >;
  clock: Clock;
  logger: Logger;
  queue: Queue;
  events: EventsService;
  sources: SourcesService;
  notebooks: NotebooksService;
  safeFetch: SafeFetch;
  /** The webhook tokens port (the webhooks feature implements it). */
  tokens: WorkflowTokens;
  /** Every action type this engine knows: `coreActions` plus those of other features, in that order. */
  actions: readonly ActionModule[];
  /** Removes a batch of webhook deliveries past their dedupe window as of `now` (ms); returns how many. */
  pruneDeliveries(now: number): Promise<number>;
  /** Services that later action modules need (mail, feeds, podcasts), added to ActionDeps by them. */
  actionDeps?: Partial<ActionDeps>;
}

export function createWorkflowsFeature(d: WorkflowsFeatureDeps) {
  const { db, repo, runsRepo } = d;
  const runEvents = createRunEvents({ events: d.events, runs: runsRepo });
  const runs = createRuns({ db, runs: runsRepo, workflows: repo, queue: d.queue, clock: d.clock, runEvents });
  const catalog = actionCatalog(d.actions);
  const service = createWorkflowsService({
    db,
    repo,
    tokens: d.tokens,
    notebooks: notebookLookup(d.notebooks),
    catalog,
    config: d.config,
    clock: d.clock,
  });
  const dispatcher = createDispatcher({
    db,
    outbox: d.outbox,
    workflows: repo,
    runs,
    queue: d.queue,
    clock: d.clock,
    leaseMs: d.config.jobs.leaseMs,
    logger: d.logger,
  });

  let lastPrune = -Infinity;
  /** Queues retention pruning at most once an hour, driven by finished runs. */
  async function schedulePrune(): Promise<void> {
    const now = d.clock.now();
    if (now - lastPrune < HOUR) return;
    lastPrune = now;
    await d.queue.enqueue(PRUNE_JOB, {}, { idempotencyKey: `prune:${Math.floor(now / HOUR)}` });
  }

  const executor = createExecutor({
    db,
    runs: runsRepo,
    starter: runs,
    workflows: repo,
    clock: d.clock,
    catalog,
    runEvents,
    holdsLease: (jobId, attempt) => d.queue.holdsLease(jobId, attempt),
    // Fire and forget: pruning is hourly housekeeping, a failed enqueue only delays it.
    onFinished: () => {
      schedulePrune().catch((err: unknown) => d.logger.warn("could not queue run pruning", { error: String(err) }));
    },
    actions: {
      ...d.actionDeps,
      config: d.config,
      safeFetch: d.safeFetch,
      sources: d.sources,
      notebooks: d.notebooks,
      now: () => d.clock.now(),
    },
  });

  /** Deletes finished runs past the retention period and deliveries past the dedupe window. */
  async function prune(): Promise<{ runs: number; deliveries: number }> {
    const now = d.clock.now();
    const runCut = new Date(now - d.config.workflows.runRetentionDays * DAY).toISOString();
    return {
      runs: await inBatches(() => runsRepo.prune(runCut)),
      deliveries: await inBatches(() => d.pruneDeliveries(now)),
    };
  }

  const jobs = [
    handleJob(STEP_JOB, { handle: (p, ctx) => executor.runStep(p.run_id, p.seq, ctx) }),
    handleJob(START_JOB, { handle: (p, ctx) => executor.startRuns(p.run_ids, ctx) }),
    handleJob(DISPATCH_JOB, { handle: async () => void (await dispatcher.runOnce()) }),
    handleJob(PRUNE_JOB, { handle: async () => void (await prune()), maxAttempts: 3 }),
  ];
  // Events committed just before a crash may never have queued their dispatch: catch up once now
  // (kick reports its own failures, so nothing is left to await).
  void dispatcher.kick();

  /** How an incoming webhook starts runs: the webhooks feature sees only this, never repo or runs. */
  const webhookTrigger = {
    workflowsFor: (tokenId: string) => repo.forToken(tokenId),
    startRun: (r: { userId: string; workflowId: string; trigger: unknown; deliveryId: string }, job: boolean) =>
      runs.start(
        {
          userId: r.userId,
          workflowId: r.workflowId,
          triggerType: "webhook",
          trigger: r.trigger,
          meta: { delivery_id: r.deliveryId },
          depth: 0,
          chain: [],
        },
        { job },
      ),
    startJob: (runIds: string[]) => runs.enqueueStart(runIds),
  };

  return {
    name: "workflows",
    service,
    api: workflowApiRoutes({ workflows: service, runs, schemas: workflowSchemas(catalog) }),
    jobs,
    listeners: {
      // Run events (run.*) only feed the live stream: they never wake the dispatcher, or every step
      // would queue a dispatch job that finds nothing to start.
      // The kick is returned (it reports its own failures) so the events service can say when it ended.
      eventsRecorded: (types) => ([...types].some(isTriggerType) ? dispatcher.kick() : undefined),
    },
    runs,
    dispatcher,
    executor,
    prune,
    repo,
    webhookTrigger,
  } satisfies FeatureWith<WorkflowsService>;
}
export type WorkflowsFeature = ReturnType<typeof createWorkflowsFeature>;

/** Repeats a batch delete until a batch removes nothing, so each write lock stays short. */
async function inBatches(step: () => Promise<number>): Promise<number> {
  let total = 0;
  let n: number;
  do {
    n = await step();
    total += n;
  } while (n > 0);
  return total;
}

/** The notebooks a definition names, through the notebooks service (owner-scoped like every read of it). */
function notebookLookup(notebooks: NotebooksService): WorkflowNotebooks {
  return {
    async existingIds(actor, ids) {
      const found = await Promise.all(
        [...new Set(ids)].map((id) =>
          notebooks.get(actor, id).then(
            () => id,
            (err: unknown) => {
              if (err instanceof AppError && err.code === "not_found") return null;
              throw err;
            },
          ),
        ),
      );
      return new Set(found.filter((id): id is string => id !== null));
    },
    // Only a definition with a name where an id belongs gets here: one walk of the list finds its id.
    async idsByName(actor, names) {
      const wanted = new Set(names);
      const out = new Map<string, string>();
      for await (const nb of walk((cursor) => notebooks.list(actor, { limit: 200, cursor })))
        if (wanted.has(nb.name) && !out.has(nb.name)) out.set(nb.name, nb.id);
      return out;
    },
  };
}

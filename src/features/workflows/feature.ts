// Wires the workflows feature: definitions, runs, the step executor, the event dispatcher, their jobs.
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Queue } from "../../jobs/queue.ts";
import type { Runner } from "../../jobs/runner.ts";
import { defineJob } from "../../jobs/types.ts";
import type { Logger } from "../../log.ts";
import type { SafeFetch } from "../../net/safe-fetch.ts";
import type { Clock } from "../../time.ts";
import { t } from "elysia";
import { isTriggerType, type EventsService } from "../events/service.ts";
import type { NotebooksService } from "../notebooks/service.ts";
import type { SourcesService } from "../sources/service.ts";
import type { WebhookTokensService } from "../webhooks/service.ts";
import type { ActionDeps } from "./actions/types.ts";
import { createDispatcher, DISPATCH_JOB } from "./dispatcher.ts";
import { createExecutor } from "./executor.ts";
import { createEventsRepo } from "../events/repo.ts";
import { createWorkflowsRepo } from "./repo.ts";
import { createRuns, START_JOB, STEP_JOB } from "./runs.ts";
import { createRunsRepo } from "./runs-repo.ts";
import { createRunEvents } from "./run-events.ts";
import { createWorkflowsService } from "./service.ts";

export const PRUNE_JOB = "workflow.prune";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Deliveries are kept for the dedupe window of webhook-id / Idempotency-Key. */
export const DEDUPE_WINDOW_MS = DAY;

export interface WorkflowsFeatureDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  queue: Queue;
  runner: Runner;
  events: EventsService;
  sources: SourcesService;
  notebooks: NotebooksService;
  safeFetch: SafeFetch;
  tokens: WebhookTokensService;
  /** Removes deliveries received before the cut-off (ms), up to a batch; returns how many. */
  pruneDeliveries(before: number): Promise<number>;
  /** Services that later action modules need (mail, feeds, podcasts), added to ActionDeps by them. */
  actionDeps?: Partial<ActionDeps>;
}

export function createWorkflowsFeature(d: WorkflowsFeatureDeps) {
  const { db } = d;
  const repo = createWorkflowsRepo(db);
  const runsRepo = createRunsRepo(db);
  const runEvents = createRunEvents({ events: d.events, runs: runsRepo });
  const runs = createRuns({ db, runs: runsRepo, workflows: repo, queue: d.queue, clock: d.clock, runEvents });
  const service = createWorkflowsService({ db, repo, tokens: d.tokens, config: d.config, clock: d.clock });
  const dispatcher = createDispatcher({
    db,
    outbox: createEventsRepo(db),
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
    runEvents,
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
      deliveries: await inBatches(() => d.pruneDeliveries(now - DEDUPE_WINDOW_MS)),
    };
  }

  const StepPayload = t.Object({ run_id: t.String(), seq: t.Integer({ minimum: 0 }) });
  d.runner.register(
    STEP_JOB,
    defineJob({ payload: StepPayload, handle: (p, ctx) => executor.runStep(p.run_id, p.seq, ctx) }),
  );
  const StartPayload = t.Object({ run_ids: t.Array(t.String(), { maxItems: 10_000 }) });
  d.runner.register(
    START_JOB,
    defineJob({ payload: StartPayload, handle: (p, ctx) => executor.startRuns(p.run_ids, ctx) }),
  );
  d.runner.register(DISPATCH_JOB, defineJob({ handle: async () => void (await dispatcher.runOnce()) }));
  d.runner.register(PRUNE_JOB, defineJob({ handle: async () => void (await prune()), maxAttempts: 3 }));
  // Run events (run.*) only feed the live stream: they never wake the dispatcher, or every step
  // would queue a dispatch job that finds nothing to start.
  d.events.onRecorded((types) => {
    if ([...types].some(isTriggerType)) void dispatcher.kick(); // kick reports its own failures
  });
  // Events committed just before a crash may never have queued their dispatch: catch up once now
  // (kick reports its own failures, so nothing is left to await).
  void dispatcher.kick();

  return { service, runs, dispatcher, executor, prune, repo, runsRepo };
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

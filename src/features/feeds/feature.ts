// The feeds feature: repo, poller, service, the scheduler's dispatcher, the poll job and /api/v1/feeds.
import type { Db } from "../../db/port.ts";
import type { SourceRow } from "../../db/schema/index.ts";
import type { Logger } from "../../log.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import type { Scheduler } from "../../jobs/scheduler.ts";
import type { SafeFetch } from "../../net/safe-fetch.ts";
import type { Clock } from "../../time.ts";
import type { SourcesService } from "../library/sources/service.ts";
import type { FeatureWith } from "../feature.ts";
import { createFeedDispatcher, feedJobs } from "./dispatch.ts";
import type { HostGate } from "./host-gate.ts";
import type { PollLeases } from "./poller.ts";
import { createPoller } from "./poller.ts";
import type { FeedsRepo } from "./repo.ts";
import { feedRoutes } from "./routes.ts";
import { createFeedsService, type FeedsService } from "./service.ts";
import { YOUTUBE, type VideoSite } from "./video.ts";

export { FEED_POLL_JOB } from "./dispatch.ts";
export type { FeedsService, WatchOutput } from "./service.ts";
export type { PollResult } from "./poller.ts";

// Longer than any poll (fetch timeout plus importing its entries): a crashed process's lease runs out after it.
const POLL_LEASE_MS = 10 * 60_000;

export interface FeedsFeatureDeps {
  db: Db;
  repo: FeedsRepo;
  sources: Pick<SourcesService, "create">;
  existingNotebookIds(userId: string, ids: string[]): Promise<Set<string>>;
  /** The user's sources among these ids (a watch's entries list shows their titles and addresses). */
  sourcesByIds(userId: string, ids: string[]): Promise<SourceRow[]>;
  safeFetch: SafeFetch;
  jobs: JobEnqueuer;
  scheduler: Scheduler;
  clock: Clock;
  logger: Logger;
  /** Minimum gap between two requests to one host (FEED_HOST_SPACING_MS). */
  hostSpacingMs: number;
  /** Request spacing per host and single polls: in memory with one process, in shared tables on PostgreSQL. */
  coordination: { hostGate(spacingMs: number): HostGate; pollLeases(ttlMs: number): PollLeases | undefined };
  /** Where channel URLs are recognised and their feeds live; tests point it at a local server. */
  videoSite?: VideoSite;
}

export function createFeedsFeature(deps: FeedsFeatureDeps) {
  const videoSite = deps.videoSite ?? YOUTUBE;
  const { repo } = deps;
  const gate = deps.coordination.hostGate(deps.hostSpacingMs);
  const nextRun = (expr: string, after: number) => deps.scheduler.nextRun(expr, after);
  const poller = createPoller({
    db: deps.db,
    repo,
    sources: deps.sources,
    existingNotebookIds: deps.existingNotebookIds,
    safeFetch: deps.safeFetch,
    gate,
    leases: deps.coordination.pollLeases(POLL_LEASE_MS),
    videoSite,
    nextRun,
    clock: deps.clock,
    logger: deps.logger,
  });
  const service = createFeedsService({
    db: deps.db,
    repo,
    poller,
    existingNotebookIds: deps.existingNotebookIds,
    validateSchedule: (expr) => deps.scheduler.validate(expr),
    clock: deps.clock,
    jobs: deps.jobs,
    finder: { safeFetch: deps.safeFetch, gate, videoSite },
    nextRun,
    sourcesByIds: deps.sourcesByIds,
  });
  const dispatcher = createFeedDispatcher({
    repo,
    jobs: deps.jobs,
    scheduler: deps.scheduler,
    clock: deps.clock,
    logger: deps.logger,
    hostSpacingMs: deps.hostSpacingMs,
    videoSite,
  });
  return {
    name: "feeds",
    service,
    api: feedRoutes({ feeds: service }),
    jobs: feedJobs({ poller, dispatcher }),
    repo,
    poller,
    dispatcher,
  } satisfies FeatureWith<FeedsService>;
}
export type FeedsFeature = ReturnType<typeof createFeedsFeature>;

// The one place the engine is chosen. Most repositories are written once for both engines (each
// feature's repo.ts over db.shared); the stores below are where the engines truly differ: search
// (FTS5 and sqlite-vec, or tsvector and pgvector), the job queue (a single writer, or SKIP LOCKED and
// NOTIFY), workflow runs, the events outbox, and the state several processes must share on PostgreSQL
// that one process keeps in memory on SQLite. Each pair implements one interface and runs through one
// contract test on both CI lanes.
import { byEngine, type EngineDb } from "./db/port.ts";
import { createAccountsRepo } from "./features/accounts/repo.ts";
import { createCreditsRepo } from "./features/credits/repo.ts";
import { createFeedsRepo } from "./features/feeds/repo.ts";
import { createHealthRepo } from "./features/health/repo.ts";
import { createBlobReferencesRepo } from "./features/blob-sweep/repo.ts";
import { createImportsRepo } from "./features/imports/repo.ts";
import { createKeysRepo } from "./features/keys/repo.ts";
import { createMailRepo } from "./features/mail/repo.ts";
import { createNotebooksRepo } from "./features/library/notebooks/repo.ts";
import { createHighlightsRepo } from "./features/library/highlights/repo.ts";
import { createNotesRepo } from "./features/library/notes/repo.ts";
import { createOAuthRepo } from "./features/oauth/repo.ts";
import { createPodcastsRepo } from "./features/podcasts/repo.ts";
import { createQualityRunsRepo } from "./features/search-quality/repo.ts";
import { createSourcesRepo } from "./features/library/sources/repo.ts";
import { createSourceImagesRepo } from "./features/library/sources/images-repo.ts";
import { createLinkCheckRepo } from "./features/library/sources/link-check-repo.ts";
import { createWebhooksRepo } from "./features/webhooks/repo.ts";
import { createWorkflowsRepo } from "./features/workflows/repo.ts";
import { createEventsPgRepo } from "./features/events/pg-repo.ts";
import { createEventsSqliteRepo, type EventsRepo } from "./features/events/repo.ts";
import { createPgHostGate, createPgPollLeases } from "./features/feeds/coordination-pg-repo.ts";
import { createHostGate, type HostGate } from "./features/feeds/host-gate.ts";
import type { PollLeases } from "./features/feeds/poller.ts";
import { createMemoryPending, MAX_PENDING, type PendingStore } from "./features/oauth/pending.ts";
import { createPendingPgRepo } from "./features/oauth/pending-pg-repo.ts";
import { createChunksPgRepo } from "./features/search/chunks-pg-repo.ts";
import { createChunksSqliteRepo, type ChunksRepo } from "./features/search/chunks-repo.ts";
import { createVectorsPgRepo } from "./features/search/vectors-pg-repo.ts";
import { createVectorsSqliteRepo, type VectorsRepo, type VectorsRepoOptions } from "./features/search/vectors-repo.ts";
import { createRunsPgRepo } from "./features/workflows/runs-pg-repo.ts";
import { createRunsSqliteRepo, type RunsRepo } from "./features/workflows/runs-repo.ts";
import { createRateLimiter, type RateLimiters } from "./http/rate-limiter.ts";
import { createPgRateLimiter } from "./http/rate-limit-pg-repo.ts";
import { createJobsPgRepo, createPgJobWakeups } from "./jobs/pg-repo.ts";
import type { QueueDeps } from "./jobs/queue.ts";
import { createJobsSqliteRepo } from "./jobs/repo.ts";
import { createFormGuardPgRepo } from "./web/form-guard-pg-repo.ts";
import { createMemoryFormGuard, type FormGuards } from "./web/form-guard.ts";

/** The queue's store: its repository, and on PostgreSQL how other processes' queues are woken. */
export function queueStore(db: EngineDb): QueueDeps {
  return byEngine<QueueDeps>(db, {
    sqlite: (s) => ({ db, repo: createJobsSqliteRepo(s) }),
    postgres: (pg) => ({ db, repo: createJobsPgRepo(pg), wakeups: createPgJobWakeups(pg) }),
  });
}

export function createEventsRepo(db: EngineDb): EventsRepo {
  return byEngine(db, { sqlite: createEventsSqliteRepo, postgres: createEventsPgRepo });
}

export function createChunksRepo(db: EngineDb): ChunksRepo {
  return byEngine(db, { sqlite: createChunksSqliteRepo, postgres: (pg) => createChunksPgRepo(pg) });
}

export function createVectorsRepo(db: EngineDb, opts: VectorsRepoOptions = {}): VectorsRepo {
  return byEngine(db, { sqlite: createVectorsSqliteRepo, postgres: (pg) => createVectorsPgRepo(pg, opts) });
}

export function createRunsRepo(db: EngineDb): RunsRepo {
  return byEngine(db, { sqlite: createRunsSqliteRepo, postgres: createRunsPgRepo });
}

/**
 * State that every process serving the database must agree on. SQLite has one process, so it lives in
 * memory; on PostgreSQL several processes serve one database, so it lives in shared tables.
 */
export interface SharedState {
  rateLimiters: RateLimiters;
  formGuards: FormGuards;
  /** OAuth authorisation requests parked while the user signs in and consents. */
  pendingAuthorizations: () => PendingStore;
  /** Spacing of requests to one host (feed polls, link checks: one slot table, so they share it). */
  hostGate: (spacingMs: number) => HostGate;
  /** At most one poll of a feed watch at a time across processes; undefined with one process. */
  pollLeases: (ttlMs: number) => PollLeases | undefined;
}

export function createSharedState(db: EngineDb): SharedState {
  return byEngine<SharedState>(db, {
    sqlite: () => ({
      rateLimiters: createRateLimiter,
      formGuards: () => createMemoryFormGuard(),
      pendingAuthorizations: createMemoryPending,
      hostGate: (spacingMs) => createHostGate(spacingMs),
      pollLeases: () => undefined,
    }),
    postgres: (pg) => ({
      rateLimiters: (opts) => createPgRateLimiter(pg, opts),
      formGuards: (kind) => createFormGuardPgRepo(pg, kind),
      pendingAuthorizations: () => createPendingPgRepo(pg, db, MAX_PENDING),
      hostGate: (spacingMs) => createPgHostGate(pg, spacingMs),
      pollLeases: (ttlMs) => createPgPollLeases(pg, ttlMs),
    }),
  });
}

/** Every repository, written once or chosen above: built here, once, and handed to the features. */
export function createRepositories(db: EngineDb, config: VectorsRepoOptions = {}) {
  return {
    accounts: createAccountsRepo(db),
    credits: createCreditsRepo(db),
    keys: createKeysRepo(db),
    events: createEventsRepo(db),
    chunks: createChunksRepo(db),
    vectors: createVectorsRepo(db, { pgvector: config.pgvector, logger: config.logger }),
    podcasts: createPodcastsRepo(db),
    sources: createSourcesRepo(db),
    sourceImages: createSourceImagesRepo(db),
    linkChecks: createLinkCheckRepo(db),
    notebooks: createNotebooksRepo(db),
    notes: createNotesRepo(db),
    highlights: createHighlightsRepo(db),
    feeds: createFeedsRepo(db),
    mail: createMailRepo(db),
    webhooks: createWebhooksRepo(db),
    workflows: createWorkflowsRepo(db),
    runs: createRunsRepo(db),
    qualityRuns: createQualityRunsRepo(db),
    imports: createImportsRepo(db),
    oauth: createOAuthRepo(db),
    health: createHealthRepo(db),
    blobReferences: createBlobReferencesRepo(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

// Shared infrastructure of one process, built before any feature: clock and logger, the blob store,
// every repository, the shared (cross-process) state, the change watch, the job queue, runner and
// scheduler, the SSRF-guarded fetch, the AI engines, the API rate limiter and the worker pools.
import type { BlobStore } from "./blobs/port.ts";
import { createBlobStore } from "./blobs/select.ts";
import { createAI } from "./ai/select.ts";
import type { Config } from "./config.ts";
import type { EngineDb } from "./db/client.ts";
import { selectChangeWatch } from "./db/select-change-watch.ts";
import { createImportParser, type ImportParser } from "./features/imports/formats/parser.ts";
import { createExtractor, type Extractor } from "./features/library/sources/extract/pool.ts";
import { INGEST_JOB } from "./features/library/sources/service.ts";
import { EMBED_JOB } from "./features/search/indexer.ts";
import { createQueue } from "./jobs/queue.ts";
import { createRunner } from "./jobs/runner.ts";
import { createScheduler } from "./jobs/scheduler.ts";
import { createLogger, type Logger } from "./log.ts";
import { createFetchPolicy } from "./net/fetch-policy.ts";
import { createSafeFetch } from "./net/safe-fetch.ts";
import { createRepositories, createSharedState, queueStore } from "./stores.ts";
import { type Clock, systemClock } from "./time.ts";

/** What one process is built from; the composition root adds what its features take (CoreDeps). */
export interface InfrastructureDeps {
  config: Config;
  db: EngineDb;
  clock?: Clock;
  logger?: Logger;
  /** Tests may inject a host lookup for the SSRF guard. */
  lookup?: Parameters<typeof createSafeFetch>[0]["lookup"];
  /** An extraction pool to use instead of one built from config (tests share one). */
  extractor?: Extractor;
  /** An import-file parser to use instead of one built from config (tests share one). */
  importParser?: ImportParser;
  /** A blob store to use instead of the one config chooses. */
  blobs?: BlobStore;
}

/** Jobs of links saved by hand: an import's slices wait for them (at most IMPORT_YIELD_MAX_MS each). */
const INTERACTIVE_JOBS: ReadonlySet<string> = new Set([INGEST_JOB.type, EMBED_JOB.type]);

/**
 * The infrastructure for `deps`. `settle` is the runner's wait for work queued outside the queue
 * (the events feature's listeners, built later by the composition root).
 */
export function createInfrastructure(deps: InfrastructureDeps & { settle: () => Promise<void> }) {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const blobs = deps.blobs ?? createBlobStore(config);

  // Every repository, built once (src/stores.ts), handed to the features that use it: each table still
  // belongs to one feature; several read another's through its repository.
  const repos = createRepositories(db, { pgvector: config.database.pgvector, logger });
  const shared = createSharedState(db);

  // Shared infrastructure. Caches hear of other processes' commits: data_version on SQLite, NOTIFY on PostgreSQL.
  const changes = selectChangeWatch(db, {
    onError: (err) => logger.error("cache invalidation: LISTEN failed", { error: String(err) }),
  });
  const queue = createQueue({ ...queueStore(db), clock });
  const runner = createRunner({
    queue,
    concurrency: config.jobs.concurrency,
    leaseMs: config.jobs.leaseMs,
    pollMs: config.jobs.pollMs,
    clock,
    logger,
    settle: deps.settle,
  });
  const scheduler = createScheduler({ clock, logger, jobs: queue });
  // What may be fetched, built once: safeFetch applies it to every hop, imports check URLs by it.
  const fetchPolicy = createFetchPolicy(config.net);
  // Timeout errors name the setting that was hit, so "no response within 15 s" says what to raise.
  const limitNames = { timeoutMs: "FETCH_TIMEOUT_MS", connectTimeoutMs: "FETCH_CONNECT_TIMEOUT_MS" };
  const safeFetch = createSafeFetch({ ...config.net, policy: fetchPolicy, limitNames, lookup: deps.lookup });
  // The AI server is chosen by the administrator, often on the LAN (Ollama): its host is trusted.
  const aiFetch = config.ai.baseUrl
    ? createSafeFetch({
        ...config.net,
        policy: createFetchPolicy({
          ...config.net,
          allowedHosts: [...config.net.allowedHosts, new URL(config.ai.baseUrl).hostname.replace(/^\[|\]$/g, "")],
        }),
        lookup: deps.lookup,
      })
    : safeFetch;
  const ai = createAI(config, aiFetch);
  // One bucket per user, shared by the API and MCP.
  const limiter = shared.rateLimiters({
    name: "api",
    limit: config.rateLimit.perMinute,
    windowMs: 60_000,
    now: () => clock.now(),
  });
  // Threads start on the first extraction, so building the pool costs nothing until a page is read.
  const { workers, timeoutMs, maxMemoryMb, maxDepth, maxPdfPages } = config.extract;
  const extractor =
    deps.extractor ??
    createExtractor({ size: workers, timeoutMs, maxMemoryMb, limits: { maxDepth, maxPdfPages }, logger });
  const importParser =
    deps.importParser ??
    createImportParser({
      timeoutMs: config.imports.parseTimeoutMs,
      maxMemoryMb: config.imports.parseMaxMemoryMb,
      logger,
    });
  // Interactive work first: an import's slices and its pages' ingestion wait for links saved by hand.
  const interactiveQuiet = () => runner.quietFor(INTERACTIVE_JOBS, config.imports.yieldMaxMs);

  return {
    config,
    db,
    clock,
    logger,
    blobs,
    repos,
    shared,
    changes,
    queue,
    runner,
    scheduler,
    fetchPolicy,
    safeFetch,
    ai,
    limiter,
    extractor,
    importParser,
    interactiveQuiet,
  };
}

// The sources feature: the service, the ingester (fetch, extract, store) with its two jobs, and
// /api/v1/sources. Listeners of the features built before it run when a source is ready or edited.
import type { Transactor } from "../../../db/port.ts";
import type { JobEnqueuer } from "../../../jobs/port.ts";
import { handleJob, type JobRegistration } from "../../../jobs/types.ts";
import type { Logger } from "../../../log.ts";
import type { SafeFetch } from "../../../net/safe-fetch.ts";
import type { Clock } from "../../../time.ts";
import type { EventsService } from "../../events/service.ts";
import type { FeatureWith, Listeners } from "../../feature.ts";
import type { NotebooksRepo } from "../notebooks/repo.ts";
import type { Extractor } from "./extract/pool.ts";
import { createIngester, type Ingester } from "./ingest.ts";
import type { SourcesRepo } from "./repo.ts";
import { sourceRoutes } from "./routes.ts";
import { tagRoutes } from "./tag-routes.ts";
import { Elysia } from "elysia";
import type { BlobStore } from "../../../blobs/port.ts";
import { createImageCollector, type ImageLimits } from "./images/collect.ts";
import type { ImageEncoder } from "./images/encode.ts";
import type { SourceImagesRepo } from "./images-repo.ts";
import type { Scheduler } from "../../../jobs/scheduler.ts";
import { createLinkChecker, type HostGate, linkCheckJobs } from "./link-check.ts";
import type { LinkCheckRepo } from "./link-check-repo.ts";
import type { EmbeddingProgress } from "./public.ts";
import { createSourcesService, INGEST_IMPORT_JOB, INGEST_JOB } from "./service.ts";

const MAX_ATTEMPTS = 3;

export interface SourcesFeatureDeps {
  db: Transactor;
  repo: SourcesRepo;
  notebooks: NotebooksRepo;
  events: EventsService;
  jobs: JobEnqueuer;
  clock: Clock;
  logger: Logger;
  safeFetch: SafeFetch;
  extractor: Extractor;
  embeddingProgress?: EmbeddingProgress;
  /** Run inside the transaction that marks a source ready (search indexing, quick podcasts). */
  onReady: readonly NonNullable<Listeners["sourceReady"]>[];
  /** Run inside the transaction when a ready source's title or tags change. */
  onChanged: readonly NonNullable<Listeners["sourceChanged"]>[];
  /** Parallel fetches of imported links (IMPORT_FETCH_CONCURRENCY). */
  importConcurrency: number;
  /** The most bytes of HTML a save may carry (CAPTURE_MAX_HTML_BYTES). */
  maxHtmlBytes: number;
  /** Resolves once links saved by hand are done, or after a bounded wait. */
  interactiveQuiet?: () => Promise<void>;
  /** The archived copy's images: where they are kept, their table, limits (IMAGES_*) and encoder. */
  images?: { blobs: BlobStore; repo: SourceImagesRepo; limits: ImageLimits; encoder: ImageEncoder };
  /** The periodic check of the original addresses (LINK_CHECK_*); the gate spaces requests per host. */
  linkCheck?: {
    repo: LinkCheckRepo;
    scheduler: Scheduler;
    gate: HostGate;
    intervalHours: number;
    hostSpacingMs: number;
  };
}

export function createSourcesFeature(d: SourcesFeatureDeps) {
  const service = createSourcesService({
    db: d.db,
    repo: d.repo,
    notebooks: d.notebooks,
    events: d.events,
    jobs: d.jobs,
    clock: d.clock,
    onReindex: d.onChanged,
    embeddingProgress: d.embeddingProgress,
    maxHtmlBytes: d.maxHtmlBytes,
    media: d.images,
  });
  const images = d.images;
  const ingest = createIngester({
    db: d.db,
    repo: d.repo,
    events: d.events,
    fetchPage: (url, init) => d.safeFetch(url, { accept: init?.accept }),
    extract: d.extractor.extract,
    clock: d.clock,
    logger: d.logger,
    onReady: d.onReady,
    images: images && {
      repo: images.repo,
      blobs: images.blobs,
      collect: createImageCollector({
        safeFetch: d.safeFetch,
        blobs: images.blobs,
        encoder: images.encoder,
        limits: images.limits,
        logger: d.logger,
      }),
    },
  });
  const lc = d.linkCheck;
  const linkCheck = lc
    ? createLinkChecker({
        db: d.db,
        repo: d.repo,
        checks: lc.repo,
        events: d.events,
        jobs: d.jobs,
        scheduler: lc.scheduler,
        safeFetch: d.safeFetch,
        gate: lc.gate,
        clock: d.clock,
        logger: d.logger,
        intervalHours: lc.intervalHours,
        hostSpacingMs: lc.hostSpacingMs,
      })
    : undefined;
  return {
    name: "sources",
    service,
    api: new Elysia()
      .use(sourceRoutes({ sources: service }, { maxHtmlBytes: d.maxHtmlBytes }))
      .use(tagRoutes({ sources: service })),
    jobs: [...ingestJobs(ingest, d), ...(linkCheck ? linkCheckJobs(linkCheck) : [])],
    ingest,
    linkCheck,
  } satisfies FeatureWith<typeof service>;
}
export type SourcesFeature = ReturnType<typeof createSourcesFeature>;

function ingestJobs(
  ingest: Ingester,
  opts: Pick<SourcesFeatureDeps, "importConcurrency" | "interactiveQuiet">,
): JobRegistration[] {
  return [
    // Imported links: the same work in a background lane, so interactive saves are claimed first.
    handleJob(INGEST_IMPORT_JOB, {
      maxAttempts: MAX_ATTEMPTS,
      maxConcurrent: opts.importConcurrency,
      backoff: (attempt) => Math.min(60_000, 2_000 * 2 ** (attempt - 1)),
      handle: async (p, ctx) => {
        // An imported page starts only once the links saved by hand are done (or after a bounded wait).
        await opts.interactiveQuiet?.();
        await ingest(p.source_id, {
          depth: p.depth,
          lastAttempt: ctx.attempt >= ctx.maxAttempts,
          provided: p.provided,
          background: true,
        });
      },
    }),
    handleJob(INGEST_JOB, {
      maxAttempts: MAX_ATTEMPTS,
      backoff: (attempt) => Math.min(60_000, 2_000 * 2 ** (attempt - 1)),
      handle: (p, ctx) =>
        ingest(p.source_id, { depth: p.depth, lastAttempt: ctx.attempt >= ctx.maxAttempts, captured: p.captured }),
    }),
  ];
}

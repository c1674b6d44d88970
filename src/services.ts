// Builds every service from its dependencies in one place: the composition root for app, runner and CLI.
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { NoteRow, SourceRow } from "./db/schema/index.ts";
import { createLogger, type Logger } from "./log.ts";
import { systemClock, type Clock } from "./time.ts";
import { createChangeWatch } from "./db/change-watch.ts";
import { createQueue } from "./jobs/queue.ts";
import { createRunner } from "./jobs/runner.ts";
import { createScheduler } from "./jobs/scheduler.ts";
import { createSafeFetch } from "./net/safe-fetch.ts";
import { createAccountsRepo } from "./features/accounts/repo.ts";
import { createAccountsService } from "./features/accounts/service.ts";
import { createCreditsRepo } from "./features/credits/repo.ts";
import { createCreditsService } from "./features/credits/service.ts";
import { createEventsRepo } from "./features/events/repo.ts";
import { createEventsService } from "./features/events/service.ts";
import { createLiveHub } from "./features/events/live.ts";
import { createKeysRepo } from "./features/keys/repo.ts";
import { createKeysService } from "./features/keys/service.ts";
import { createNotebooksRepo } from "./features/notebooks/repo.ts";
import { createNotebooksService } from "./features/notebooks/service.ts";
import { createNotesRepo } from "./features/notes/repo.ts";
import { createNotesService } from "./features/notes/service.ts";
import { createExtractor, type Extractor } from "./features/sources/extract/pool.ts";
import { createIngester, type ReadyHook } from "./features/sources/ingest.ts";
import { registerIngestJob } from "./features/sources/jobs.ts";
import { createSourcesRepo } from "./features/sources/repo.ts";
import { createSourcesService, INGEST_JOB } from "./features/sources/service.ts";
import { createFeeds, registerFeedJobs } from "./features/feeds/index.ts";
import { createMailer, createMailService } from "./features/mail/index.ts";
import { setupPodcasts } from "./features/podcasts/setup.ts";
import { createWebhooksRepo } from "./features/webhooks/repo.ts";
import { createWebhookTokensService } from "./features/webhooks/service.ts";
import { createWebhooksFeature } from "./features/webhooks/feature.ts";
import { createWorkflowsFeature } from "./features/workflows/feature.ts";
import { createWorkflowsRepo } from "./features/workflows/repo.ts";
import { createAI } from "./ai/select.ts";
import { createAskService } from "./features/search/ask.ts";
import { createChunksRepo } from "./features/search/chunks-repo.ts";
import { createIndexer, EMBED_JOB } from "./features/search/indexer.ts";
import { createSearchService } from "./features/search/service.ts";
import { createVectorIndex } from "./features/search/vectors.ts";
import { createOAuthRepo } from "./features/oauth/repo.ts";
import { createOAuthService } from "./features/oauth/service.ts";
import { createImports, importFeedWatcher, registerImportJob } from "./features/imports/index.ts";
import { createImportsRepo } from "./features/imports/repo.ts";
import { parseTags } from "./features/sources/service.ts";

export interface CoreDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  logger?: Logger;
  /** Tests may inject a host lookup for the SSRF guard. */
  lookup?: Parameters<typeof createSafeFetch>[0]["lookup"];
  /** An extraction pool to use instead of one built from config (tests share one). */
  extractor?: Extractor;
}

/** Jobs of links saved by hand: an import's slices wait for them (at most IMPORT_YIELD_MAX_MS each). */
const INTERACTIVE_JOBS: ReadonlySet<string> = new Set([INGEST_JOB, EMBED_JOB]);

export function createServices(deps: CoreDeps) {
  const { config, db } = deps;
  const { sqlite } = db;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);

  const accountsRepo = createAccountsRepo(db);
  const changes = createChangeWatch(sqlite);
  const accounts = createAccountsService({ repo: accountsRepo, clock, config, changes });
  const keys = createKeysService({ repo: createKeysRepo(db), changes, clock });
  const credits = createCreditsService({ repo: createCreditsRepo(db), accounts: accountsRepo, db, clock, config });

  const queue = createQueue({ db, clock });
  const runner = createRunner({
    queue,
    concurrency: config.jobs.concurrency,
    leaseMs: config.jobs.leaseMs,
    pollMs: config.jobs.pollMs,
    clock,
    logger,
  });
  const safeFetch = createSafeFetch({ ...config.net, lookup: deps.lookup });
  // The AI server is chosen by the administrator, often on the LAN (Ollama): its host is trusted.
  const aiFetch = config.ai.baseUrl
    ? createSafeFetch({
        ...config.net,
        allowedHosts: [...config.net.allowedHosts, new URL(config.ai.baseUrl).hostname.replace(/^\[|\]$/g, "")],
        lookup: deps.lookup,
      })
    : safeFetch;
  const ai = createAI(config, aiFetch);

  const events = createEventsService({ repo: createEventsRepo(db), db, clock });
  // Open event streams share one hub; what a stream needs to run is bundled as `live`.
  const hub = createLiveHub({ events, changes, maxPerUser: config.events.maxStreamsPerUser, now: () => clock.now() });
  const live = { events, hub, heartbeatMs: config.events.heartbeatMs };
  const sourcesRepo = createSourcesRepo(db);
  const notebooksRepo = createNotebooksRepo(db);
  const onSourceReindex: ((row: SourceRow) => void | Promise<void>)[] = [];
  const sources = createSourcesService({
    db,
    repo: sourcesRepo,
    notebooks: notebooksRepo,
    events,
    jobs: queue,
    clock,
    onReindex: onSourceReindex,
  });
  const noteHooks = { onSaved: [] as ((n: NoteRow) => void | Promise<void>)[] };
  const notesRepo = createNotesRepo(db);
  const notebooks = createNotebooksService({
    db,
    repo: notebooksRepo,
    events,
    clock,
    exportRows: { sources: sourcesRepo, notes: notesRepo },
  });
  const notes = createNotesService({
    db,
    repo: notesRepo,
    notebooks: notebooksRepo,
    sources: sourcesRepo,
    events,
    clock,
    hooks: noteHooks,
  });

  const onSourceReady: ReadyHook[] = [];
  // Threads start on the first extraction, so building the pool costs nothing until a page is read.
  const { workers, timeoutMs, maxMemoryMb, maxDepth, maxPdfPages } = config.extract;
  const extractor =
    deps.extractor ??
    createExtractor({ size: workers, timeoutMs, maxMemoryMb, limits: { maxDepth, maxPdfPages }, logger });
  const ingest = createIngester({
    db,
    repo: sourcesRepo,
    events,
    fetchPage: (url, init) => safeFetch(url, { accept: init?.accept }),
    extract: extractor.extract,
    clock,
    logger,
    onReady: onSourceReady,
  });
  // Interactive work first: an import's slices and its pages' ingestion wait for links saved by hand.
  const interactiveQuiet = () => runner.quietFor(INTERACTIVE_JOBS, config.imports.yieldMaxMs);
  registerIngestJob(runner, ingest, { importConcurrency: config.imports.fetchConcurrency, interactiveQuiet });

  const scheduler = createScheduler({ clock, logger });
  const feeds = createFeeds({
    db,
    sources,
    safeFetch,
    jobs: queue,
    scheduler,
    clock,
    logger,
    existingNotebookIds: (userId, ids) => notebooksRepo.existingIds(userId, ids),
    hostSpacingMs: config.feeds.hostSpacingMs,
  });
  registerFeedJobs(runner, feeds);
  const mail = createMailService({ mailer: createMailer(config), from: config.mail.from });
  const podcasts = setupPodcasts({
    config,
    db,
    clock,
    logger,
    events,
    credits,
    queue,
    runner,
    ai,
    sources: sourcesRepo,
    notebooks: notebooksRepo,
    onSourceReady,
  });

  const webhooksRepo = createWebhooksRepo(db);
  const webhookTokens = createWebhookTokensService({
    db,
    repo: webhooksRepo,
    workflows: createWorkflowsRepo(db),
    changes,
    clock,
    baseUrl: config.baseUrl,
  });
  const workflows = createWorkflowsFeature({
    config,
    db,
    clock,
    logger,
    queue,
    runner,
    events,
    sources,
    notebooks,
    safeFetch,
    tokens: webhookTokens,
    pruneDeliveries: (before) => webhooksRepo.pruneDeliveries(before),
    actionDeps: { feeds: feeds.service, mail, podcasts },
  });
  const webhooks = createWebhooksFeature({ db, repo: webhooksRepo, clock, tokens: webhookTokens, workflows });

  const chunks = createChunksRepo(db);
  const vectors = createVectorIndex(db, { memoryBytes: config.ai.vectorMemoryMb * 1024 * 1024 });
  const indexer = createIndexer({ chunks, vectors, jobs: queue, embedder: ai.embedder, logger });
  indexer.register(runner);
  sources.setEmbeddingProgress((ids) => indexer.progress(ids));
  // Tags (kept from imports) are indexed with the text so searching a label finds its sources.
  const indexSource = (row: SourceRow, background = false) => {
    const tags = parseTags(row.tags);
    const markdown = (row.content ?? "") + (tags.length > 0 ? `\n\nTags: ${tags.join(", ")}` : "");
    return indexer.index(
      { type: "source", id: row.id, userId: row.userId, title: row.title ?? row.url, markdown },
      { background },
    );
  };
  // An imported page's first indexing embeds in the background lane; later changes are interactive.
  onSourceReady.push((_actor, row) => indexSource(row, row.importId != null));
  onSourceReindex.push((row) => indexSource(row));
  noteHooks.onSaved.push((n) =>
    indexer.index({ type: "note", id: n.id, userId: n.userId, title: n.title ?? "", markdown: n.content }),
  );
  const search = createSearchService({
    chunks,
    sources: sourcesRepo,
    vectors,
    notebooks: notebooksRepo,
    embedderFor: ai.embedderFor,
  });
  const ask = createAskService({
    search,
    chat: ai.chat,
    credits,
    notebooks: notebooksRepo,
    sources: sourcesRepo,
    config,
  });
  const oauth = createOAuthService({ repo: createOAuthRepo(db), db, clock, config });
  const imports = createImports({
    db,
    repo: createImportsRepo(db),
    sources: sourcesRepo,
    sourcesService: sources,
    notebooksRepo,
    notebooks,
    notesRepo,
    notes,
    events,
    jobs: queue,
    clock,
    logger,
    allowPrivate: config.net.allowPrivateNetwork,
    hostSpacingMs: config.imports.hostSpacingMs,
    feeds: importFeedWatcher(feeds.service, workflows.service, config.workflows.maxActions),
    limits: { maxBytes: config.imports.maxBytes, maxItems: config.imports.maxItems },
    interactiveQuiet,
  });
  registerImportJob(runner, imports);

  return {
    config,
    db,
    clock,
    logger,
    queue,
    runner,
    safeFetch,
    scheduler,
    extractor,
    accounts,
    keys,
    credits,
    events,
    sources,
    notebooks,
    notes,
    ai,
    indexer,
    vectors,
    search,
    ask,
    oauth,
    webhookTokens,
    workflows,
    webhooks,
    podcasts,
    live,
    imports,
    feeds: feeds.service,
    feedScheduler: feeds.dispatcher,
    mail,
    hooks: { onSourceReady, noteSaved: noteHooks.onSaved },
  };
}
export type Services = ReturnType<typeof createServices>;

// The composition root: shared infrastructure, then every feature in dependency order, collected in one
// list whose jobs the runner takes in one loop and whose routes createApp mounts in list order.
import { type Feature, type Listeners, listenersOf } from "./features/feature.ts";
import { createAccountsFeature } from "./features/accounts/feature.ts";
import { createBlobSweepFeature } from "./features/blob-sweep/feature.ts";
import { createCreditsFeature } from "./features/credits/feature.ts";
import { createEventsFeature } from "./features/events/feature.ts";
import { watchFeed } from "./features/feeds/action.ts";
import { createFeedsFeature } from "./features/feeds/feature.ts";
import { createHealthFeature } from "./features/health/feature.ts";
import { createImportsFeature, importFeedWatcher } from "./features/imports/feature.ts";
import { createKeysFeature } from "./features/keys/feature.ts";
import { sendEmail } from "./features/mail/action.ts";
import { createMailFeature } from "./features/mail/feature.ts";
import { createMcpFeature } from "./features/mcp/feature.ts";
import { createNotebooksFeature } from "./features/library/notebooks/feature.ts";
import { createHighlightsFeature } from "./features/library/highlights/feature.ts";
import { createNotesFeature } from "./features/library/notes/feature.ts";
import { createLibraryImportWriter } from "./features/library/import-writer.ts";
import { createLibraryReader } from "./features/library/reader.ts";
import { createOAuthFeature } from "./features/oauth/feature.ts";
import { createPodcastsFeature } from "./features/podcasts/feature.ts";
import { createPodcast } from "./features/podcasts/workflow-action.ts";
import { createSearchFeature } from "./features/search/feature.ts";
import { createSearchQualityFeature } from "./features/search-quality/feature.ts";
import { createTaggingFeature, tagSuggestionListener } from "./features/library/tagging/feature.ts";
import { createSourcesFeature } from "./features/library/sources/feature.ts";
import { createImageEncoder } from "./features/library/sources/images/encode.ts";
import type { ReadyHook } from "./features/library/sources/ingest.ts";
import { createWebFeature } from "./web/feature.ts";
import { createInfrastructure, type InfrastructureDeps } from "./infrastructure.ts";
import type { ImageEncoder } from "./features/library/sources/images/encode.ts";
import type { ActionModule } from "./features/workflows/actions/types.ts";
import { createWebhooksFeature, DEDUPE_WINDOW_MS } from "./features/webhooks/feature.ts";
import { createWebhookTokensService } from "./features/webhooks/service.ts";
import { coreActions } from "./features/workflows/actions/catalog.ts";
import { createWorkflowsFeature } from "./features/workflows/feature.ts";

export interface CoreDeps extends InfrastructureDeps {
  /** Extra listeners (tests observing a source becoming ready), run after the features' own. */
  listeners?: Listeners;
  /** Extra workflow actions (tests standing in for a failing dependency), after the built-in ones. */
  actions?: readonly ActionModule[];
  /** An image encoder to use instead of sharp (tests stand in for a build without it). */
  imageEncoder?: ImageEncoder;
}

export function createServices(deps: CoreDeps) {
  const { config, db } = deps;
  const infra = createInfrastructure({
    ...deps,
    // The events feature is built below; drain() reaches it only once building is done.
    settle: () => events.service.settled(),
  });
  const { clock, logger, blobs, repos, shared, changes, queue, runner, scheduler, fetchPolicy, safeFetch, ai } = infra;
  const { limiter, extractor, importParser, interactiveQuiet } = infra;

  // What the features outside the library read of it (and the writes an import makes), one port each.
  const library = createLibraryReader({
    sources: repos.sources,
    notebooks: repos.notebooks,
    notes: repos.notes,
    highlights: repos.highlights,
  });
  const importWrites = createLibraryImportWriter({ sources: repos.sources, notebooks: repos.notebooks });

  // Features, each built after the ones it needs.
  const credits = createCreditsFeature({ repo: repos.credits, accounts: repos.accounts, db, clock, config });
  const accounts = createAccountsFeature({
    repo: repos.accounts,
    clock,
    config,
    db,
    changes,
    credits: credits.service,
  });
  const keys = createKeysFeature({ repo: repos.keys, db, changes, clock });
  const events = createEventsFeature({
    repo: repos.events,
    db,
    clock,
    changes,
    maxStreamsPerUser: config.events.maxStreamsPerUser,
    heartbeatMs: config.events.heartbeatMs,
    // Workflows listens to recorded events but needs the events service, so it is built later: the
    // events service reads this list after its first commit, when `features` below is complete.
    onRecorded: () => listenersOf([...features, { listeners: deps.listeners }], "eventsRecorded"),
  });
  const search = createSearchFeature({
    config,
    db,
    chunks: repos.chunks,
    vectorsRepo: repos.vectors,
    jobs: queue,
    logger,
    ai,
    credits: credits.service,
    library,
  });
  // The retrieval self-test: the search service as a client, on the model vector search uses now.
  const searchQuality = createSearchQualityFeature({
    db,
    repo: repos.qualityRuns,
    jobs: queue,
    clock,
    logger,
    search: search.service,
    library,
    embedders: async () => ({ active: (await search.vectors.active())?.model ?? null, configured: ai.embedder.id }),
    embeddingProgress: (ids) => search.indexer.progress(ids),
    publish: (userId, note) => events.service.publish(userId, "search_quality.progress", note),
  });
  const podcasts = createPodcastsFeature({
    blobs,
    config,
    db,
    repo: repos.podcasts,
    clock,
    logger,
    events: events.service,
    credits: credits.service,
    queue,
    ai,
    library,
  });
  // Search listens to highlights; highlights re-anchor when a source is refetched.
  const highlights = createHighlightsFeature({
    db,
    repo: repos.highlights,
    sources: repos.sources,
    events: events.service,
    clock,
    onSaved: listenersOf([search, { listeners: deps.listeners }], "highlightSaved"),
  });
  // Search, podcasts, highlights and tag suggestions listen to sources and notes, so they are built
  // first and handed over here.
  const listening = [
    search,
    podcasts,
    highlights,
    { listeners: tagSuggestionListener(queue) },
    { listeners: deps.listeners },
  ];
  const onSourceReady = listenersOf(listening, "sourceReady");
  const onNoteSaved = listenersOf(listening, "noteSaved");
  const sources = createSourcesFeature({
    db,
    repo: repos.sources,
    notebooks: repos.notebooks,
    events: events.service,
    jobs: queue,
    clock,
    logger,
    safeFetch,
    extractor,
    embeddingProgress: (ids) => search.indexer.progress(ids),
    onReady: onSourceReady,
    onChanged: listenersOf(listening, "sourceChanged"),
    importConcurrency: config.imports.fetchConcurrency,
    maxHtmlBytes: config.capture.maxHtmlBytes,
    interactiveQuiet,
    images: {
      blobs,
      repo: repos.sourceImages,
      limits: config.images,
      encoder: deps.imageEncoder ?? createImageEncoder({ maxPixels: config.images.maxPixels }),
    },
    linkCheck: {
      repo: repos.linkChecks,
      scheduler,
      gate: shared.hostGate(config.linkCheck.hostSpacingMs),
      intervalHours: config.linkCheck.intervalHours,
      hostSpacingMs: config.linkCheck.hostSpacingMs,
    },
  });
  const tagging = createTaggingFeature({
    sourcesRepo: repos.sources,
    sources: sources.service,
    embedder: ai.embedder,
    chat: ai.chat,
    nearestSources: async (actor, text, limit) =>
      (await search.service.search(actor, text, { mode: "vector", types: ["source"], limit })).map((h) => ({
        id: h.id,
        score: h.score,
      })),
    autoTag: async (userId) => (await accounts.service.preferences(userId)).auto_tag,
    logger,
  });
  const notebooks = createNotebooksFeature({
    db,
    repo: repos.notebooks,
    events: events.service,
    clock,
    sourcesRepo: repos.sources,
    notesRepo: repos.notes,
    highlightsRepo: repos.highlights,
    sources: sources.service,
  });
  const notes = createNotesFeature({
    db,
    repo: repos.notes,
    notebooks: repos.notebooks,
    sources: repos.sources,
    events: events.service,
    clock,
    onSaved: onNoteSaved,
  });
  const feeds = createFeedsFeature({
    db,
    repo: repos.feeds,
    sources: sources.service,
    safeFetch,
    jobs: queue,
    scheduler,
    clock,
    logger,
    existingNotebookIds: (userId, ids) => library.existingNotebookIds(userId, ids),
    sourcesByIds: (userId, ids) => library.sourcesByIds(userId, ids),
    hostSpacingMs: config.feeds.hostSpacingMs,
    coordination: shared,
  });
  const mail = createMailFeature({ config, repo: repos.mail, clock });
  const webhookTokens = createWebhookTokensService({
    db,
    repo: repos.webhooks,
    workflows: { idsByToken: (tokenIds) => repos.workflows.idsByToken(tokenIds) },
    changes,
    clock,
    baseUrl: config.baseUrl,
  });
  const workflows = createWorkflowsFeature({
    config,
    db,
    repo: repos.workflows,
    runsRepo: repos.runs,
    outbox: repos.events,
    clock,
    logger,
    queue,
    events: events.service,
    sources: sources.service,
    notebooks: notebooks.service,
    safeFetch,
    tokens: { existingIds: (a, ids) => webhookTokens.existingIds(a, ids), create: (a) => webhookTokens.create(a) },
    actions: [...coreActions, watchFeed, sendEmail, createPodcast, ...(deps.actions ?? [])],
    pruneDeliveries: (now) => repos.webhooks.pruneDeliveries(now - DEDUPE_WINDOW_MS),
    actionDeps: { feeds: feeds.service, mail: mail.service, podcasts: podcasts.service },
  });
  const webhooks = createWebhooksFeature({
    db,
    repo: repos.webhooks,
    clock,
    config,
    tokens: webhookTokens,
    trigger: workflows.webhookTrigger,
    rateLimiters: shared.rateLimiters,
  });
  const imports = createImportsFeature({
    db,
    repo: repos.imports,
    library,
    importWrites,
    sourcesService: sources.service,
    notebooks: notebooks.service,
    notes: notes.service,
    events: events.service,
    jobs: queue,
    clock,
    logger,
    fetchPolicy,
    hostSpacingMs: config.imports.hostSpacingMs,
    feeds: importFeedWatcher(feeds.service),
    limits: { maxBytes: config.imports.maxBytes, maxItems: config.imports.maxItems },
    parser: importParser,
    interactiveQuiet,
    exports: {
      clock,
      accounts: accounts.service,
      notebooks: notebooks.service,
      sources: sources.service,
      notes: notes.service,
      highlights: highlights.service,
      podcasts: podcasts.service,
      workflows: workflows.service,
      feeds: feeds.service,
    },
  });
  const oauth = createOAuthFeature({
    repo: repos.oauth,
    db,
    clock,
    config,
    pending: shared.pendingAuthorizations(),
    rateLimiters: shared.rateLimiters,
  });
  const health = createHealthFeature({ repo: repos.health });
  const blobSweep = createBlobSweepFeature({ blobs, repo: repos.blobReferences, scheduler, clock, logger });
  const pages = {
    config,
    db,
    clock,
    logger,
    accounts: accounts.service,
    keys: keys.service,
    credits: credits.service,
    oauth: oauth.service,
    sources: sources.service,
    notebooks: notebooks.service,
    notes: notes.service,
    highlights: highlights.service,
    tagging: tagging.service,
    search: search.service,
    ask: search.ask,
    searchQuality: searchQuality.service,
    podcasts: podcasts.service,
    imports: imports.service,
    feeds: feeds.service,
    webhookTokens,
    workflows,
    mail: mail.service,
    live: events.live,
  };
  const web = createWebFeature({ ...pages, rateLimiters: shared.rateLimiters, formGuards: shared.formGuards });
  const mcp = createMcpFeature({ ...pages, limiter });

  // Mount order: top-level routes health, web, OAuth, MCP, webhook intake; API routes in this order.
  const features: readonly Feature[] = [
    health,
    accounts,
    keys,
    sources,
    tagging,
    notebooks,
    notes,
    highlights,
    search,
    searchQuality,
    feeds,
    podcasts,
    workflows,
    events,
    imports,
    web,
    oauth,
    mcp,
    webhooks,
    credits,
    mail,
    blobSweep,
  ];
  for (const f of features) for (const { job, handler } of f.jobs ?? []) runner.register(job.type, handler);

  return {
    features,
    config,
    db,
    changes,
    clock,
    logger,
    queue,
    runner,
    safeFetch,
    scheduler,
    limiter,
    extractor,
    importParser,
    ai,
    blobs,
    accounts: accounts.service,
    keys: keys.service,
    credits: credits.service,
    events: events.service,
    live: events.live,
    sources: sources.service,
    tagging: tagging.service,
    notebooks: notebooks.service,
    notes: notes.service,
    highlights: highlights.service,
    indexer: search.indexer,
    vectors: search.vectors,
    search: search.service,
    ask: search.ask,
    searchQuality: searchQuality.service,
    oauth: oauth.service,
    webhookTokens,
    workflows,
    webhooks,
    podcasts: podcasts.service,
    imports: imports.service,
    feeds: feeds.service,
    feedScheduler: feeds.dispatcher,
    linkCheck: sources.linkCheck!,
    blobSweep: blobSweep.service,
    mail: mail.service,
    hooks: { onSourceReady: onSourceReady as readonly ReadyHook[], noteSaved: onNoteSaved },
  };
}
export type Services = ReturnType<typeof createServices>;

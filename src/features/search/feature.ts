// The search feature: chunks and vectors, the indexer and its embedding jobs, search and ask, the
// listeners that index sources, notes and highlights as they change, and /api/v1/search + /ask.
import type { AI } from "../../ai/select.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import type { Logger } from "../../log.ts";
import type { CreditsService } from "../credits/service.ts";
import type { FeatureWith } from "../feature.ts";
import type { LibraryReader } from "../library/reader.ts";
import { parseTags } from "../library/sources/public.ts";
import type { SourceRow } from "../../db/schema/index.ts";
import { createAskService } from "./ask.ts";
import type { ChunksRepo } from "./chunks-repo.ts";
import { createIndexer } from "./indexer.ts";
import { searchRoutes } from "./routes.ts";
import { createSearchService, type SearchService } from "./service.ts";
import { createVectorIndex } from "./vectors.ts";
import type { VectorsRepo } from "./vectors-repo.ts";

export interface SearchFeatureDeps {
  config: Config;
  db: Db;
  chunks: ChunksRepo;
  vectorsRepo: VectorsRepo;
  jobs: JobEnqueuer;
  logger: Logger;
  ai: AI;
  credits: CreditsService;
  /** What search and ask read of the library: notebooks to scope by, sources hits come from. */
  library: Pick<LibraryReader, "existingNotebookIds" | "sourcesByIds" | "sourceTitlesAndUrls" | "highlightsByIds">;
}

export function createSearchFeature(d: SearchFeatureDeps) {
  const { chunks } = d;
  const vectors = createVectorIndex(d.db, d.vectorsRepo, {
    memoryBytes: d.config.ai.vectorMemoryMb * 1024 * 1024,
    logger: d.logger,
  });
  const indexer = createIndexer({ chunks, vectors, jobs: d.jobs, embedder: d.ai.embedder, logger: d.logger });
  const service = createSearchService({
    chunks,
    library: d.library,
    vectors,
    embedderFor: d.ai.embedderFor,
  });
  const ask = createAskService({
    search: service,
    chat: d.ai.chat,
    credits: d.credits,
    library: d.library,
    config: d.config,
  });
  // Tags (kept from imports) are indexed with the text so searching a label finds its sources.
  const indexSource = (row: SourceRow, background = false) => {
    const tags = parseTags(row.tags);
    const markdown = (row.content ?? "") + (tags.length > 0 ? `\n\nTags: ${tags.join(", ")}` : "");
    return indexer.index(
      { type: "source", id: row.id, userId: row.userId, title: row.title ?? row.url, markdown },
      { background },
    );
  };
  return {
    name: "search",
    service,
    api: searchRoutes({ search: service, ask }),
    jobs: indexer.jobs(),
    listeners: {
      // An imported page's first indexing embeds in the background lane; later changes are interactive.
      sourceReady: (_actor, row) => indexSource(row, row.importId != null),
      sourceChanged: (row) => indexSource(row),
      noteSaved: (n) =>
        indexer.index({ type: "note", id: n.id, userId: n.userId, title: n.title ?? "", markdown: n.content }),
      // A highlight is found by its quote and its note; it has no title of its own (hits show its source's).
      highlightSaved: (h) =>
        indexer.index({
          type: "highlight",
          id: h.id,
          userId: h.userId,
          title: "",
          markdown: h.note ? `${h.exact}\n\n${h.note}` : h.exact,
        }),
    },
    ask,
    indexer,
    vectors,
  } satisfies FeatureWith<SearchService>;
}
export type SearchFeature = ReturnType<typeof createSearchFeature>;

// What the features outside the library read of it: sources, notebooks, notes and highlights in the library's
// words, one narrow port instead of the raw repositories. Search, podcasts, imports and feeds take
// this (or a Pick of it); the composition root builds it once over the library's repositories.
import type { SourceRow } from "../../db/schema/index.ts";
import type { HighlightsRepo } from "./highlights/repo.ts";
import type { NotebooksRepo, NotebookWithCounts } from "./notebooks/repo.ts";
import type { NotesRepo } from "./notes/repo.ts";
import type { SourcesRepo } from "./sources/repo.ts";

export interface LibraryReader {
  /** Which of these ids are the user's notebooks. */
  existingNotebookIds(userId: string, ids: string[]): Promise<Set<string>>;
  /** One of the user's notebooks, with its counts. */
  notebookById(userId: string, id: string): Promise<NotebookWithCounts | undefined>;
  /** Every notebook's id by name (the oldest wins on a repeated name): imports find folders by name. */
  notebookIdsByName(userId: string): Promise<Map<string, string>>;
  /** The user's sources among these ids; others' and missing ones are left out. */
  sourcesByIds(userId: string, ids: string[]): Promise<SourceRow[]>;
  /** A source by id whoever owns it (background work that carries only the id). */
  sourceByIdUnscoped(id: string): Promise<SourceRow | undefined>;
  /** The user's source saved at this normalised address. */
  sourceByNormalizedUrl(userId: string, normalizedUrl: string): Promise<SourceRow | undefined>;
  /** Title and address of sources by id, whoever owns them (for hits already scoped to their owner). */
  sourceTitlesAndUrls(ids: string[]): Promise<{ id: string; title: string | null; url: string }[]>;
  /** The ready sources of a notebook, oldest first (the order they were saved in). */
  readySourceIdsInNotebook(userId: string, notebookId: string): Promise<string[]>;
  /** Every ready source of the user, by id (the search quality self-test samples them). */
  readySourceIds(userId: string): Promise<string[]>;
  /** The notebooks each of these sources is in, by source id. */
  notebookIdsOfSources(sourceIds: string[]): Promise<Map<string, string[]>>;
  /** A page of an import's sources still waiting to be fetched, by id after `afterId`. */
  pendingSourcesOfImport(
    importId: string,
    afterId: string,
    limit: number,
  ): Promise<{ id: string; url: string; hasContent: boolean }[]>;
  /** How far fetching the sources an import created has got, by status. */
  sourceStatusCountsOfImport(importId: string): Promise<Record<string, number>>;
  /** The user's highlights among these ids, each with its source's id, title and address (search hits, ask citations). */
  highlightsByIds(
    userId: string,
    ids: string[],
  ): Promise<{ id: string; sourceId: string; title: string | null; url: string }[]>;
  /** Whether the user already has a note with this title and text. */
  hasSameNote(userId: string, title: string | null, content: string): Promise<boolean>;
}

export function createLibraryReader(repos: {
  sources: SourcesRepo;
  notebooks: NotebooksRepo;
  notes: NotesRepo;
  highlights: HighlightsRepo;
}): LibraryReader {
  const { sources, notebooks, notes, highlights } = repos;
  return {
    existingNotebookIds: (userId, ids) => notebooks.existingIds(userId, ids),
    notebookById: (userId, id) => notebooks.byId(userId, id),
    notebookIdsByName: (userId) => notebooks.idsByName(userId),
    sourcesByIds: (userId, ids) => sources.byIds(userId, ids),
    sourceByIdUnscoped: (id) => sources.byIdUnscoped(id),
    sourceByNormalizedUrl: (userId, normalizedUrl) => sources.byNormalizedUrl(userId, normalizedUrl),
    sourceTitlesAndUrls: (ids) => sources.titlesAndUrls(ids),
    readySourceIdsInNotebook: (userId, notebookId) => sources.readyIdsInNotebook(userId, notebookId),
    readySourceIds: (userId) => sources.readyIds(userId),
    notebookIdsOfSources: (sourceIds) => sources.notebookIds(sourceIds),
    pendingSourcesOfImport: (importId, afterId, limit) => sources.pendingOfImport(importId, afterId, limit),
    sourceStatusCountsOfImport: (importId) => sources.statusCountsOfImport(importId),
    hasSameNote: (userId, title, content) => notes.hasSame(userId, title, content),
    highlightsByIds: async (userId, ids) =>
      (await highlights.byIds(userId, ids)).map((r) => ({
        id: r.id,
        sourceId: r.h.sourceId,
        title: r.title,
        url: r.url,
      })),
  };
}

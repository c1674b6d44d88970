// The writes an import makes in the library that no library service offers: an import inserts
// thousands of pending sources in time slices, merges tags and links into ones already saved, and
// describes the notebooks it creates, recording its own events. A narrow port over the repositories,
// built once by the composition root, until the sources and notebooks services grow bulk operations.
import type { NotebooksRepo } from "./notebooks/repo.ts";
import type { ImportedSource, SourcesRepo } from "./sources/repo.ts";

export type { ImportedSource };

export interface LibraryImportWriter {
  /** A new pending source from an import; its fetch is queued later. */
  insertImportedSource(row: ImportedSource): Promise<void>;
  /** Puts a source in a notebook; true when the link is new. */
  linkSource(notebookId: string, sourceId: string, at: string): Promise<boolean>;
  /** Sets a source's tags (a JSON array) and/or its update time. */
  updateSource(id: string, patch: { tags?: string; updatedAt?: string }): Promise<void>;
  /** Sets the description of a notebook the import created. */
  describeNotebook(id: string, description: string): Promise<void>;
}

export function createLibraryImportWriter(repos: {
  sources: SourcesRepo;
  notebooks: NotebooksRepo;
}): LibraryImportWriter {
  const { sources, notebooks } = repos;
  return {
    insertImportedSource: (row) => sources.insertImported(row),
    linkSource: (notebookId, sourceId, at) => sources.link(notebookId, sourceId, at),
    updateSource: (id, patch) => sources.update(id, patch),
    describeNotebook: (id, description) => notebooks.update(id, { description }),
  };
}

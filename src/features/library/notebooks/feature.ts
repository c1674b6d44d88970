// The notebooks feature: the service (with Markdown export) and /api/v1/notebooks.
import type { Transactor } from "../../../db/port.ts";
import type { Clock } from "../../../time.ts";
import type { EventsService } from "../../events/service.ts";
import type { Feature } from "../../feature.ts";
import type { HighlightsRepo } from "../highlights/repo.ts";
import type { NotesRepo } from "../notes/repo.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import type { SourcesService } from "../sources/service.ts";
import type { NotebooksRepo } from "./repo.ts";
import { notebookRoutes } from "./routes.ts";
import { createNotebooksService, type NotebooksService } from "./service.ts";

export interface NotebooksFeatureDeps {
  db: Transactor;
  repo: NotebooksRepo;
  events: EventsService;
  clock: Clock;
  sourcesRepo: SourcesRepo;
  notesRepo: NotesRepo;
  highlightsRepo: HighlightsRepo;
  /** Adding a source to a notebook is the sources service's (PUT /notebooks/{id}/sources/{source_id}). */
  sources: SourcesService;
}

export function createNotebooksFeature(d: NotebooksFeatureDeps): Feature<NotebooksService> {
  const service = createNotebooksService({
    db: d.db,
    repo: d.repo,
    events: d.events,
    clock: d.clock,
    exportRows: { sources: d.sourcesRepo, notes: d.notesRepo, highlights: d.highlightsRepo },
  });
  return { name: "notebooks", service, api: notebookRoutes({ notebooks: service, sources: d.sources }) };
}

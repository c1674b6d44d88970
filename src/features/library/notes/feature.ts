// The notes feature: the service and /api/v1/notes; `onSaved` listeners run when a note's text changes.
import type { Transactor } from "../../../db/port.ts";
import type { Clock } from "../../../time.ts";
import type { EventsService } from "../../events/service.ts";
import type { Feature, Listeners } from "../../feature.ts";
import type { NotebooksRepo } from "../notebooks/repo.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import type { NotesRepo } from "./repo.ts";
import { noteRoutes } from "./routes.ts";
import { createNotesService, type NotesService } from "./service.ts";

export interface NotesFeatureDeps {
  db: Transactor;
  repo: NotesRepo;
  notebooks: NotebooksRepo;
  sources: SourcesRepo;
  events: EventsService;
  clock: Clock;
  onSaved: readonly NonNullable<Listeners["noteSaved"]>[];
}

export function createNotesFeature(d: NotesFeatureDeps): Feature<NotesService> {
  const service = createNotesService({ ...d, hooks: { onSaved: d.onSaved } });
  return { name: "notes", service, api: noteRoutes({ notes: service }) };
}

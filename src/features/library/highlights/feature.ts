// The highlights feature: the service and /api/v1/highlights. `onSaved` listeners (search) run when a
// highlight's text changes; its own sourceReady listener re-anchors a source's highlights after a refetch.
import type { Transactor } from "../../../db/port.ts";
import type { Clock } from "../../../time.ts";
import type { EventsService } from "../../events/service.ts";
import type { FeatureWith, Listeners } from "../../feature.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import type { HighlightsRepo } from "./repo.ts";
import { highlightRoutes } from "./routes.ts";
import { createHighlightsService, type HighlightsService } from "./service.ts";

export interface HighlightsFeatureDeps {
  db: Transactor;
  repo: HighlightsRepo;
  sources: SourcesRepo;
  events: EventsService;
  clock: Clock;
  onSaved: readonly NonNullable<Listeners["highlightSaved"]>[];
}

export function createHighlightsFeature(d: HighlightsFeatureDeps) {
  const service = createHighlightsService({ ...d, hooks: { onSaved: d.onSaved } });
  return {
    name: "highlights",
    service,
    api: highlightRoutes({ highlights: service }),
    listeners: {
      // Inside the transaction that stored the source's new text (first ingestion has no highlights yet).
      sourceReady: (_actor, row) => service.reanchor(row),
    },
  } satisfies FeatureWith<HighlightsService>;
}

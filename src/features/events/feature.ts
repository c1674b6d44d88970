// The events feature: the outbox service, the live hub open streams share, and /api/v1/events/stream.
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import type { FeatureWith } from "../feature.ts";
import { createLiveHub } from "./live.ts";
import type { EventsRepo } from "./repo.ts";
import { eventRoutes } from "./routes.ts";
import { createEventsService, type EventsService, type RecordedListener } from "./service.ts";
import type { StreamDeps } from "./stream.ts";

export interface EventsFeatureDeps {
  repo: EventsRepo;
  db: Transactor;
  clock: Clock;
  changes: ChangeWatch;
  maxStreamsPerUser: number;
  heartbeatMs: number;
  /** The recorded listeners of the features built after this one, in list order (read after the first commit). */
  onRecorded: () => readonly RecordedListener[];
}

export function createEventsFeature(d: EventsFeatureDeps) {
  // The hub is told first, then the other features' listeners in list order.
  const service = createEventsService({
    repo: d.repo,
    db: d.db,
    clock: d.clock,
    onRecorded: () => [() => hub.recorded(), ...d.onRecorded()],
  });
  const hub = createLiveHub({
    events: service,
    changes: d.changes,
    maxPerUser: d.maxStreamsPerUser,
    now: () => d.clock.now(),
  });
  // What a stream needs to run, bundled for the API route and the web pages' live updates.
  const live: StreamDeps = { events: service, hub, heartbeatMs: d.heartbeatMs };
  return { name: "events", service, api: eventRoutes({ live }), live } satisfies FeatureWith<EventsService>;
}

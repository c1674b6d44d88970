// The blob sweep feature: a daily job deleting blobs no row uses (see sweep.ts); no routes.
import type { BlobStore } from "../../blobs/port.ts";
import type { Scheduler } from "../../jobs/scheduler.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { Feature } from "../feature.ts";
import type { BlobReferencesRepo } from "./repo.ts";
import { type BlobSweeper, blobSweepJobs, createBlobSweeper } from "./sweep.ts";

export interface BlobSweepFeatureDeps {
  blobs: BlobStore;
  repo: BlobReferencesRepo;
  scheduler: Scheduler;
  clock: Clock;
  logger: Logger;
}

export function createBlobSweepFeature(d: BlobSweepFeatureDeps): Feature<BlobSweeper> {
  const sweeper = createBlobSweeper({
    blobs: d.blobs,
    refs: d.repo,
    scheduler: d.scheduler,
    clock: d.clock,
    logger: d.logger,
  });
  return { name: "blob-sweep", service: sweeper, jobs: blobSweepJobs(sweeper) };
}

// The blob sweep: blobs no row points at any more are deleted, once a day. They are left behind when
// a process dies between writing a blob and recording it (an episode moved in, an image stored), by
// a part file a crash did not clean up, and by deleting an account (its rows go by cascade, its
// files do not). A blob younger than the grace period is never touched: it may belong to work in
// flight whose row is about to name it.
import { defineJob, handleJob, type JobRegistration } from "../../jobs/types.ts";
import { SlotPayload } from "../../jobs/scheduler.ts";
import type { BlobStore } from "../../blobs/port.ts";
import type { Logger } from "../../log.ts";
import type { Scheduler } from "../../jobs/scheduler.ts";
import type { Clock } from "../../time.ts";
import type { BlobReferencesRepo } from "./repo.ts";

/** The folders of the blob store whose blobs belong to rows (podcast audio; sources' images). */
export const SWEPT_PREFIXES = ["podcasts/", "sources/"] as const;
/** Blobs younger than this are left alone (work in flight); a day is far longer than any render. */
export const SWEEP_GRACE_MS = 24 * 3_600_000;
/** Keys looked up per query. */
const BATCH = 500;

/** One daily slot of the schedule, enqueued by the scheduler in every process (once per slot). */
export const BLOB_SWEEP_JOB = defineJob("blobs.sweep", SlotPayload);
const SCHEDULE_NAME = "blobs.sweep";
const DAILY = "23 4 * * *";

export interface BlobSweeperDeps {
  blobs: BlobStore;
  refs: BlobReferencesRepo;
  clock: Clock;
  logger: Logger;
  scheduler: Pick<Scheduler, "scheduleJob" | "unschedule">;
  graceMs?: number;
}

export interface SweepResult {
  /** Blobs listed under the swept folders. */
  listed: number;
  /** Old enough to be judged, and named by no row: deleted. */
  deleted: number;
}

export function createBlobSweeper(deps: BlobSweeperDeps) {
  const grace = deps.graceMs ?? SWEEP_GRACE_MS;

  async function sweep(signal?: AbortSignal): Promise<SweepResult> {
    const cutoff = deps.clock.now() - grace;
    let listed = 0;
    let deleted = 0;
    const judge = async (keys: string[]) => {
      const kept = await deps.refs.referenced(keys);
      for (const key of keys) {
        if (kept.has(key)) continue;
        await deps.blobs.delete(key);
        deleted++;
      }
    };
    for (const prefix of SWEPT_PREFIXES) {
      let batch: string[] = [];
      for await (const b of deps.blobs.list(prefix)) {
        signal?.throwIfAborted();
        listed++;
        if (b.lastModified.getTime() > cutoff) continue;
        batch.push(b.key);
        if (batch.length >= BATCH) {
          await judge(batch);
          batch = [];
        }
      }
      await judge(batch);
    }
    if (deleted > 0) deps.logger.info("blob sweep deleted blobs no row uses", { listed, deleted });
    return { listed, deleted };
  }

  return {
    sweep,
    /** Schedules the daily sweep. */
    start(): void {
      deps.scheduler.scheduleJob(SCHEDULE_NAME, DAILY, BLOB_SWEEP_JOB);
    },
    stop(): void {
      deps.scheduler.unschedule(SCHEDULE_NAME);
    },
  };
}
export type BlobSweeper = ReturnType<typeof createBlobSweeper>;

export function blobSweepJobs(sweeper: BlobSweeper): JobRegistration[] {
  return [
    // A failed sweep waits for the next day's slot: nothing is lost by waiting.
    handleJob(BLOB_SWEEP_JOB, {
      maxAttempts: 1,
      handle: async (_p, ctx) => {
        await sweeper.sweep(ctx.signal);
      },
    }),
  ];
}

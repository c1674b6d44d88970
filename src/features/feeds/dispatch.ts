// The feed scheduler: every minute a dispatch job (one per minute slot, however many processes run the
// schedule) finds due watches of active workflows and enqueues durable poll jobs.
import { t } from "elysia";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { SlotPayload, type Scheduler } from "../../jobs/scheduler.ts";
import { defineJob, handleJob, type JobRegistration } from "../../jobs/types.ts";
import { pollUrl } from "./fetch.ts";
import type { Poller } from "./poller.ts";
import type { FeedsRepo } from "./repo.ts";
import type { VideoSite } from "./video.ts";

const SCHEDULE_NAME = "feeds.dispatch";
// Cron slots have minute precision, so looking once a minute loses nothing.
const TICK = "* * * * *";
const BATCH = 1000;

const PollPayload = t.Object({
  watch_id: t.String(),
  /** The next_poll_at this job was enqueued for; a watch polled since (action, poll now) skips it. */
  slot: t.Optional(t.Number()),
});
export const FEED_POLL_JOB = defineJob("feed.poll", PollPayload);
/** One minute slot of the schedule, enqueued by the scheduler in every process (once per slot). */
export const FEED_DISPATCH_JOB = defineJob("feed.dispatch", SlotPayload);

export interface DispatcherDeps {
  repo: FeedsRepo;
  jobs: JobEnqueuer;
  scheduler: Scheduler;
  clock: Clock;
  logger: Logger;
  hostSpacingMs: number;
  videoSite: VideoSite;
}

export function createFeedDispatcher(deps: DispatcherDeps) {
  const { repo, jobs, clock, logger } = deps;

  /** Enqueues one poll per due watch (idempotent per slot); returns how many jobs were added. */
  async function dispatchDue(): Promise<number> {
    const now = clock.now();
    const perHost = new Map<string, number>();
    let added = 0;
    for (const w of await repo.due(now, BATCH)) {
      const host = hostOf(pollUrl(w, deps.videoSite));
      const k = perHost.get(host) ?? 0;
      perHost.set(host, k + 1);
      // Watches of one host due together are spread out in the queue instead of waiting on each other.
      const runAt = now + k * deps.hostSpacingMs;
      const res = await jobs.enqueue(
        FEED_POLL_JOB,
        { watch_id: w.id, slot: w.nextPollAt },
        { idempotencyKey: `${w.id}:${w.nextPollAt}`, runAt },
      );
      if (res.created) added++;
    }
    if (added > 0) logger.debug("feed polls enqueued", { count: added });
    return added;
  }

  return {
    dispatchDue,
    async start(): Promise<void> {
      deps.scheduler.scheduleJob(SCHEDULE_NAME, TICK, FEED_DISPATCH_JOB);
      await dispatchDue();
    },
    stop(): void {
      deps.scheduler.unschedule(SCHEDULE_NAME);
    },
  };
}
export type FeedDispatcher = ReturnType<typeof createFeedDispatcher>;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The poll job (one slot of one watch) and the dispatch job (one minute slot of the schedule). */
export function feedJobs(deps: { poller: Poller; dispatcher: FeedDispatcher }): JobRegistration[] {
  return [
    handleJob(FEED_DISPATCH_JOB, {
      // The next minute's slot dispatches again: a failed one is not worth retrying.
      maxAttempts: 1,
      async handle() {
        await deps.dispatcher.dispatchDue();
      },
    }),
    handleJob(FEED_POLL_JOB, {
      // A poll records its own failures on the watch and never throws for them; only a crash retries.
      maxAttempts: 3,
      async handle(p, ctx) {
        await deps.poller.pollSlot(p.watch_id, p.slot, ctx.signal);
      },
    }),
  ];
}

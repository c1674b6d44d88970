// Named cron schedules over croner (feed polls and other periodic work), with validation helpers. A
// schedule that enqueues a job keys it by its slot, so every process may run it and each slot runs once.
import { type Static, Type } from "@sinclair/typebox";
import { Cron } from "croner";
import type { Logger } from "../log.ts";
import { silentLogger } from "../log.ts";
import { iso, systemClock, type Clock } from "../time.ts";
import type { JobDef, JobEnqueuer } from "./port.ts";
import { errorText } from "./queue.ts";

export interface SchedulerDeps {
  clock?: Clock;
  logger?: Logger;
  /** Where scheduleJob enqueues its slot jobs. */
  jobs?: JobEnqueuer;
}

/** What a slot job receives: the scheduled time (ms epoch) it stands for. */
export const SlotPayload = Type.Object({ slot: Type.Number() });
export type SlotPayload = Static<typeof SlotPayload>;

// croner's timer may fire a hair early; a run this close to a slot belongs to it.
const SLOT_TOLERANCE_MS = 1_000;

export interface ScheduleOptions {
  /** IANA zone the expression is read in; default the server's local zone. */
  timezone?: string;
}

// Standard five-field cron (minute precision) plus nicknames like @hourly: a seconds field would let a
// schedule fire every second, which nothing here needs.
const MODE = "5-part" as const;

function parse(expr: string, opts: ScheduleOptions = {}): Cron {
  // A string that parses as a date would make croner schedule a one-off run; only patterns are accepted.
  if (!/^(@[a-z]+|\S+(\s+\S+){4})$/i.test(expr.trim())) {
    throw new Error("expected five fields (minute hour day-of-month month day-of-week) or a nickname like @hourly");
  }
  return new Cron(expr.trim(), { paused: true, mode: MODE, timezone: opts.timezone });
}

export function createScheduler(deps: SchedulerDeps = {}) {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? silentLogger;
  const jobs = new Map<string, Cron>();

  function unschedule(name: string): boolean {
    const job = jobs.get(name);
    if (!job) return false;
    job.stop();
    jobs.delete(name);
    return true;
  }

  const api = {
    /** Runs fn at each time the expression names; replaces any schedule of the same name. Throws on a bad expression. */
    schedule(name: string, cronExpr: string, fn: () => unknown, opts: ScheduleOptions = {}): void {
      parse(cronExpr, opts);
      unschedule(name);
      const job = new Cron(
        cronExpr.trim(),
        {
          mode: MODE,
          timezone: opts.timezone,
          // A run still going when the next is due is skipped rather than stacked.
          protect: true,
          unref: true,
          catch: (err) => logger.error("scheduled task failed", { schedule: name, error: errorText(err) }),
        },
        async () => {
          await fn();
        },
      );
      jobs.set(name, job);
    },

    /**
     * At each time the expression names, enqueues `job` with payload { slot } and the
     * idempotency key `<name>:<slot start>`: with the same schedule in every process (no leader), each
     * slot's job is added once and runs once. runNow enqueues the current slot (a no-op if it exists).
     */
    scheduleJob(name: string, cronExpr: string, job: JobDef<typeof SlotPayload>, opts: ScheduleOptions = {}): void {
      const queue = deps.jobs;
      if (!queue) throw new Error(`schedule "${name}" enqueues jobs, but the scheduler was built without a queue`);
      const cron = parse(cronExpr, opts);
      api.schedule(
        name,
        cronExpr,
        async () => {
          const slot = slotAt(cron, clock.now());
          if (slot === null) return;
          await queue.enqueue(job, { slot }, { idempotencyKey: `${name}:${iso(slot)}` });
        },
        opts,
      );
    },

    unschedule,

    /** null when the expression is valid, else a message saying what is wrong. */
    validate(cronExpr: string): string | null {
      try {
        parse(cronExpr);
        return null;
      } catch (err) {
        return (err instanceof Error ? err.message : String(err)).replace(/^CronPattern:\s*/, "");
      }
    },

    /** The first run strictly after `after` (ms epoch, default now), or null if the expression never fires again. */
    nextRun(cronExpr: string, after: number = clock.now(), opts: ScheduleOptions = {}): number | null {
      return parse(cronExpr, opts).nextRun(new Date(after))?.getTime() ?? null;
    },

    /** Runs a schedule's task now, outside its timetable (a "poll now" button, tests). */
    async runNow(name: string): Promise<boolean> {
      const job = jobs.get(name);
      if (!job) return false;
      await job.trigger();
      return true;
    },

    has: (name: string) => jobs.has(name),
    names: () => [...jobs.keys()],

    stopAll(): void {
      for (const job of jobs.values()) job.stop();
      jobs.clear();
    },
  };
  return api;
}
export type Scheduler = ReturnType<typeof createScheduler>;

/** The slot a run at `now` belongs to: the latest time the expression names, up to now (plus a little). */
export function slotAt(cron: Cron, now: number): number | null {
  return cron.previousRuns(1, new Date(now + SLOT_TOLERANCE_MS))[0]?.getTime() ?? null;
}

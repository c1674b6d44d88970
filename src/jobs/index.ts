// The jobs module's public surface: queue, runner, scheduler, handler types and retry signals.
export { createQueue, type Queue, type JobCounts } from "./queue.ts";
export { createRunner, type Runner, type RunnerDeps, type RunSummary } from "./runner.ts";
export { createScheduler, type Scheduler, type ScheduleOptions } from "./scheduler.ts";
export { PermanentError, RetryLaterError, defaultBackoff, DEFAULT_MAX_ATTEMPTS } from "./retry.ts";
export {
  defineJob,
  handleJob,
  type EnqueueOptions,
  type Job,
  type JobContext,
  type JobDef,
  type JobHandler,
  type JobLock,
  type JobRegistration,
  type JobStatus,
} from "./types.ts";

// Runs one claimed job: checks its payload, keeps its lease alive, and records the outcome with retries.
import { Value } from "@sinclair/typebox/value";
import type { Logger } from "../log.ts";
import type { Clock } from "../time.ts";
import { errorText, type Queue } from "./queue.ts";
import { DEFAULT_MAX_ATTEMPTS, PermanentError, RetryLaterError, defaultBackoff } from "./retry.ts";
import type { Job, JobHandler, JobLock } from "./types.ts";

export type Outcome = "succeeded" | "retried" | "failed" | "released" | "lost";

export interface Execution {
  job: Job;
  lock: JobLock;
  controller: AbortController;
  /** Set by stop(): an abort that follows is a shutdown, not a failure of the job. */
  shutdown: boolean;
  done: Promise<Outcome>;
}

export interface ExecuteDeps {
  queue: Queue;
  clock: Clock;
  logger: Logger;
  leaseMs: number;
}

export async function execute(
  deps: ExecuteDeps,
  exec: Omit<Execution, "done">,
  handler: JobHandler | undefined,
): Promise<Outcome> {
  const { queue, logger } = deps;
  const { job, lock } = exec;
  const log = { job_id: job.id, job_type: job.type, attempt: job.attempts };
  if (!handler) return settle(deps, exec, new PermanentError(`no handler for job type "${job.type}"`), 1);
  const maxAttempts = job.maxAttempts ?? handler.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  // A job whose lease kept expiring has crashed or hung its worker every time: stop feeding it to workers.
  if (job.attempts > maxAttempts) {
    const message = `gave up after ${maxAttempts} attempts; the last ones never finished (lease expired)`;
    return settle(deps, exec, new PermanentError(message), maxAttempts);
  }
  if (handler.payload && !Value.Check(handler.payload, job.payload)) {
    const problems = [...Value.Errors(handler.payload, job.payload)].slice(0, 3);
    const detail = problems.map((e) => `${e.path || "/"} ${e.message}`).join("; ");
    return settle(deps, exec, new PermanentError(`invalid payload: ${detail}`), maxAttempts);
  }
  const stopHeartbeat = heartbeat(deps, exec);
  try {
    await handler.handle(job.payload, {
      jobId: job.id,
      attempt: job.attempts,
      maxAttempts,
      signal: exec.controller.signal,
      logger: withFields(logger, log),
    });
  } catch (err) {
    return await settle(deps, exec, err, maxAttempts, handler.backoff);
  } finally {
    stopHeartbeat();
  }
  if (await queue.complete(job.id, lock)) return "succeeded";
  logger.warn("job finished after losing its lease", log);
  return "lost";
}

async function settle(
  deps: ExecuteDeps,
  exec: Omit<Execution, "done">,
  err: unknown,
  maxAttempts: number,
  backoff: (attempt: number) => number = defaultBackoff,
): Promise<Outcome> {
  const { queue, clock, logger } = deps;
  const { job, lock } = exec;
  const log = {
    job_id: job.id,
    job_type: job.type,
    attempt: job.attempts,
    max_attempts: maxAttempts,
    error: errorText(err),
  };
  if (exec.shutdown) {
    return (await queue.release(job.id, lock)) ? "released" : "lost";
  }
  const final = err instanceof PermanentError || job.attempts >= maxAttempts;
  if (final) {
    if (!(await queue.fail(job.id, err, { lock }))) return "lost";
    logger.error("job failed", log);
    return "failed";
  }
  const delay = err instanceof RetryLaterError ? Math.max(0, err.delayMs) : Math.max(0, backoff(job.attempts));
  if (!(await queue.fail(job.id, err, { lock, retryAt: clock.now() + delay }))) return "lost";
  logger.warn("job will retry", { ...log, retry_in_ms: delay });
  return "retried";
}

/** Extends the lease every third of its length; a lost lease aborts the handler, whose work is now another's. */
function heartbeat(deps: ExecuteDeps, exec: Omit<Execution, "done">): () => void {
  const { queue, clock, logger, leaseMs } = deps;
  async function beat(): Promise<void> {
    try {
      if (!(await queue.extendLease(exec.job.id, clock.now() + leaseMs, exec.lock))) {
        exec.controller.abort(new Error("job lease lost"));
        clearInterval(timer);
      }
    } catch (err) {
      // A busy database now and then is fine: the lease has two more beats before it runs out.
      logger.warn("job lease extension failed", { job_id: exec.job.id, error: errorText(err) });
    }
  }
  const timer = setInterval(() => void beat(), Math.max(1, Math.floor(leaseMs / 3)));
  timer.unref?.();
  return () => clearInterval(timer);
}

function withFields(base: Logger, fields: Record<string, unknown>): Logger {
  const wrap = (f: Logger["info"]) => (msg: string, extra?: Record<string, unknown>) => f(msg, { ...fields, ...extra });
  return {
    debug: wrap(base.debug),
    info: wrap(base.info),
    warn: wrap(base.warn),
    error: wrap(base.error),
    flush: base.flush,
  };
}

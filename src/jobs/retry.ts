// What a handler can throw to steer retries, and the default backoff between attempts.

/** The job cannot succeed by trying again (bad input, gone resource): fail now, no retry. */
export class PermanentError extends Error {
  override name = "PermanentError";
}

/**
 * Try again after exactly `delayMs` (e.g. a Retry-After), instead of the backoff. It still uses up
 * an attempt, so a peer that answers "later" forever cannot keep a job alive forever.
 */
export class RetryLaterError extends Error {
  override name = "RetryLaterError";
  constructor(
    readonly delayMs: number,
    message = `retry in ${delayMs} ms`,
  ) {
    super(message);
  }
}

export const DEFAULT_MAX_ATTEMPTS = 5;
const BASE_MS = 1_000;
const CAP_MS = 60 * 60 * 1_000;

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so retries of many
 * jobs that failed together spread out but none comes back almost at once.
 */
export function defaultBackoff(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

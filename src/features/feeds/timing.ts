// When a watch is polled next: its cron slot, no sooner than the floor, Retry-After, <ttl>, max-age or the backoff.

export const DEFAULT_SCHEDULE = "*/30 * * * *";
/** Polls of one watch are at least this far apart, whatever the cron says. */
export const MIN_INTERVAL_MS = 5 * 60_000;
/** No hint from a server (Retry-After, ttl, max-age) and no backoff pushes a poll further out than this. */
export const MAX_DELAY_MS = 24 * 60 * 60_000;
const BACKOFF_BASE_MS = MIN_INTERVAL_MS;

/** Retry-After as a delay: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** Cache-Control max-age (s-maxage wins, as for a shared cache) in ms; null when absent. */
export function maxAgeMs(cacheControl: string | null): number | null {
  if (!cacheControl) return null;
  const directives = cacheControl
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  for (const name of ["s-maxage", "max-age"]) {
    const d = directives.find((x) => x.startsWith(`${name}=`));
    const n = d ? Number(d.slice(name.length + 1).replace(/"/g, "")) : NaN;
    if (Number.isFinite(n) && n >= 0) return n * 1000;
  }
  return null;
}

/** After the nth failure in a row: 5 min, 10, 20, … up to 24 h. */
export function failureBackoffMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(MAX_DELAY_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 20));
}

export interface NextPollInput {
  now: number;
  schedule: string;
  /** The first run of a cron expression strictly after `after`. */
  nextRun: (expr: string, after: number) => number | null;
  /** Server hints and backoff: the next poll is no sooner than now + the largest of these. */
  lowerBoundsMs: (number | null | undefined)[];
}

/** The first cron slot at or after now + max(floor, bounds), with server hints capped at 24 h. */
export function nextPollAt(input: NextPollInput): number {
  const bound = Math.min(MAX_DELAY_MS, Math.max(MIN_INTERVAL_MS, ...input.lowerBoundsMs.map((b) => b ?? 0)));
  const earliest = input.now + bound;
  return input.nextRun(input.schedule, earliest - 1) ?? earliest;
}

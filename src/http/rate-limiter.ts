// Fixed-window rate limits, one window per bucket key (user, webhook token, login address): the port,
// its in-memory implementation (one process: SQLite) and the "hit, headers, refuse" step.
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** A limiter: `hit` counts a request against a bucket, unless that would pass the limit. */
export interface RateLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  hit(key: string, cost?: number): Promise<RateDecision>;
}

/**
 * Builds a limiter whose counters every process shares (memory with one process, a table on PostgreSQL);
 * `name` tells its buckets from other limiters' and is stable across processes.
 */
export type RateLimiters = (opts: RateLimiterOptions & { name: string }) => RateLimiter;

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  now?: () => number;
}

/** Counters in this process's memory: exact for one process (SQLite); several need the database's. */
export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const now = opts.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  return {
    limit: opts.limit,
    windowSeconds: Math.round(opts.windowMs / 1000),
    // Synchronous up to its return, so concurrent hits in this process never interleave.
    async hit(key: string, cost = 1): Promise<RateDecision> {
      const t = now();
      if (t - lastSweep > opts.windowMs * 2) {
        for (const [k, w] of windows) if (t - w.start >= opts.windowMs) windows.delete(k);
        lastSweep = t;
      }
      let w = windows.get(key);
      if (!w || t - w.start >= opts.windowMs) {
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      const resetSeconds = Math.max(0, Math.ceil((w.start + opts.windowMs - t) / 1000));
      if (w.count + cost > opts.limit)
        return { allowed: false, limit: opts.limit, remaining: 0, resetSeconds: Math.max(1, resetSeconds) };
      w.count += cost;
      return { allowed: true, limit: opts.limit, remaining: opts.limit - w.count, resetSeconds };
    },
  };
}

const policies = new Map<string, string>();

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers); policy strings built once. */
export function rateLimitHeaders(d: RateDecision, windowSeconds: number, policy = "default"): Record<string, string> {
  const key = `${policy};${d.limit};${windowSeconds}`;
  let p = policies.get(key);
  if (!p) policies.set(key, (p = `"${policy}";q=${d.limit};w=${windowSeconds}`));
  return { "ratelimit-policy": p, ratelimit: `"${policy}";r=${d.remaining};t=${d.resetSeconds}` };
}

/**
 * Counts one request against `key` and gives the RateLimit headers to send; when the request is
 * refused they include Retry-After. The one place "hit, set headers, refuse" is written.
 */
export async function checkRate(
  limiter: RateLimiter,
  key: string,
  policy = "default",
): Promise<{ allowed: boolean; decision: RateDecision; headers: Record<string, string> }> {
  const decision = await limiter.hit(key);
  const headers = rateLimitHeaders(decision, limiter.windowSeconds, policy);
  if (!decision.allowed) headers["retry-after"] = String(decision.resetSeconds);
  return { allowed: decision.allowed, decision, headers };
}

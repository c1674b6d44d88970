// Rate limits on PostgreSQL: one fixed window per bucket in the UNLOGGED rate_limits table, counted by one
// atomic upsert, so every process of a deployment enforces the same limit exactly.
import type { PgDb } from "../db/pg/port.ts";
import type { RateDecision, RateLimiter, RateLimiterOptions } from "./rate-limiter.ts";

/**
 * Same windows as the in-memory limiter (a window starts at a bucket's first hit, a refused hit costs
 * nothing). `name` keeps the buckets of different limiters apart in the one table.
 */
export function createPgRateLimiter(db: PgDb, opts: RateLimiterOptions & { name: string }): RateLimiter {
  const now = opts.now ?? Date.now;
  const { limit, windowMs } = opts;
  let lastSweep = 0;

  const decision = (allowed: boolean, count: number, expiresAt: number, t: number): RateDecision => {
    const resetSeconds = Math.max(0, Math.ceil((expiresAt - t) / 1000));
    return allowed
      ? { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds }
      : { allowed, limit, remaining: 0, resetSeconds: Math.max(1, resetSeconds) };
  };

  return {
    limit,
    windowSeconds: Math.round(windowMs / 1000),
    async hit(key: string, cost = 1): Promise<RateDecision> {
      // The pool, never the caller's transaction: a count must neither roll back nor add a serialisation conflict.
      await db.ready;
      const { sql } = db;
      const t = now();
      if (t - lastSweep > windowMs * 2) {
        lastSweep = t;
        await sql`DELETE FROM rate_limits WHERE expires_at <= ${t}::bigint`;
      }
      const bucket = `${opts.name}:${key}`;
      // The row lock of ON CONFLICT serialises concurrent hits on one bucket; the WHERE leaves a full
      // window untouched (and returns no row), so a refused hit is not counted.
      const rows = await sql<{ count: number; expires_at: number }[]>`
        INSERT INTO rate_limits AS r (bucket, window_start, expires_at, count)
        VALUES (${bucket}, ${t}::bigint, ${t + windowMs}::bigint, ${cost}::integer)
        ON CONFLICT (bucket) DO UPDATE SET
          window_start = CASE WHEN r.expires_at <= ${t}::bigint THEN ${t}::bigint ELSE r.window_start END,
          expires_at = CASE WHEN r.expires_at <= ${t}::bigint THEN ${t + windowMs}::bigint ELSE r.expires_at END,
          count = CASE WHEN r.expires_at <= ${t}::bigint THEN ${cost}::integer ELSE r.count + ${cost}::integer END
        WHERE r.expires_at <= ${t}::bigint OR r.count + ${cost}::integer <= ${limit}::integer
        RETURNING count, expires_at`;
      const row = rows[0];
      if (row) return decision(row.count <= limit, row.count, row.expires_at, t);
      const [current] = await sql<
        { expires_at: number }[]
      >`SELECT expires_at FROM rate_limits WHERE bucket = ${bucket}`;
      return decision(false, limit, current?.expires_at ?? t + windowMs, t);
    },
  };
}

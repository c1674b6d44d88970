// Chooses where rate limit counters live: this process's memory on SQLite (one process), the database on
// PostgreSQL (several processes must share one limit).
import type { Db } from "../db/port.ts";
import { createPgRateLimiter } from "./rate-limit-pg-repo.ts";
import { createRateLimiter, type RateLimiter, type RateLimiterOptions } from "./rate-limiter.ts";

/** `name` tells this limiter's buckets from other limiters' in the shared table (stable across processes). */
export function createSharedRateLimiter(db: Db, opts: RateLimiterOptions & { name: string }): RateLimiter {
  return db.pg ? createPgRateLimiter(db.pg, opts) : createRateLimiter(opts);
}

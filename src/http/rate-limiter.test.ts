// checkRate: the one "hit, headers, refuse" step shared by the API, MCP and incoming webhooks, over the
// limiter of the engine under test (memory on SQLite, the rate_limits table on PostgreSQL).
import { afterAll, expect, test } from "bun:test";
import { openTestDatabase } from "../db/client.ts";
import { checkRate } from "./rate-limiter.ts";
import { createSharedState } from "../stores.ts";

const db = openTestDatabase();
afterAll(() => db.close());

test("checkRate counts a hit, gives RateLimit headers, and adds Retry-After only when it refuses", async () => {
  let t = 1_000_000;
  const limiter = createSharedState(db).rateLimiters({ name: "t1", limit: 2, windowMs: 60_000, now: () => t });
  const first = await checkRate(limiter, "u1", "webhook");
  expect(first.allowed).toBe(true);
  expect(first.headers).toEqual({ "ratelimit-policy": '"webhook";q=2;w=60', ratelimit: '"webhook";r=1;t=60' });
  expect((await checkRate(limiter, "u1")).allowed).toBe(true);
  t += 15_000;
  const refused = await checkRate(limiter, "u1");
  expect(refused.allowed).toBe(false);
  expect(refused.headers["retry-after"]).toBe("45");
  expect(refused.headers.ratelimit).toBe('"default";r=0;t=45');
  // Another key has its own window.
  expect((await checkRate(limiter, "u2")).allowed).toBe(true);
});

test("a window ends after windowMs and the next hit starts a fresh one; refused hits are not counted", async () => {
  let t = 5_000_000;
  const limiter = createSharedState(db).rateLimiters({ name: "t2", limit: 1, windowMs: 10_000, now: () => t });
  expect((await limiter.hit("k")).allowed).toBe(true);
  expect((await limiter.hit("k")).allowed).toBe(false);
  t += 9_999;
  expect((await limiter.hit("k")).allowed).toBe(false);
  t += 1;
  const fresh = await limiter.hit("k");
  expect(fresh).toEqual({ allowed: true, limit: 1, remaining: 0, resetSeconds: 10 });
  // Limiters with different names never share a bucket, even for the same key.
  const other = createSharedState(db).rateLimiters({ name: "t3", limit: 1, windowMs: 10_000, now: () => t });
  expect((await other.hit("k")).allowed).toBe(true);
});

test("concurrent hits on one bucket allow exactly the limit", async () => {
  const limiter = createSharedState(db).rateLimiters({ name: "t4", limit: 7, windowMs: 60_000 });
  const results = await Promise.all(Array.from({ length: 20 }, () => limiter.hit("same")));
  expect(results.filter((r) => r.allowed)).toHaveLength(7);
});

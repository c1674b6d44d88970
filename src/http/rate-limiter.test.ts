// checkRate: the one "hit, headers, refuse" step shared by the API, MCP and incoming webhooks.
import { expect, test } from "bun:test";
import { checkRate, createRateLimiter } from "./rate-limiter.ts";

test("checkRate counts a hit, gives RateLimit headers, and adds Retry-After only when it refuses", () => {
  let t = 1_000_000;
  const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: () => t });
  const first = checkRate(limiter, "u1", "webhook");
  expect(first.allowed).toBe(true);
  expect(first.headers).toEqual({ "ratelimit-policy": '"webhook";q=2;w=60', ratelimit: '"webhook";r=1;t=60' });
  expect(checkRate(limiter, "u1").allowed).toBe(true);
  t += 15_000;
  const refused = checkRate(limiter, "u1");
  expect(refused.allowed).toBe(false);
  expect(refused.headers["retry-after"]).toBe("45");
  expect(refused.headers.ratelimit).toBe('"default";r=0;t=45');
  // Another key has its own window.
  expect(checkRate(limiter, "u2").allowed).toBe(true);
});

// When the next poll happens: cron slots, the 5-minute floor, server hints, exponential backoff; host spacing.
import { describe, expect, test } from "bun:test";
import { createScheduler } from "../../jobs/scheduler.ts";
import { createHostGate } from "./host-gate.ts";
import { failureBackoffMs, MAX_DELAY_MS, maxAgeMs, nextPollAt, retryAfterMs } from "./timing.ts";

const MIN = 60_000;
const scheduler = createScheduler();
const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const at = (now: number, schedule: string, bounds: (number | null)[] = []) =>
  nextPollAt({
    now,
    schedule,
    nextRun: (e, after) => scheduler.nextRun(e, after, { timezone: "UTC" }),
    lowerBoundsMs: bounds,
  });

describe("nextPollAt", () => {
  test("follows the cron slot", () => {
    expect(at(T0 + 2 * MIN, "*/30 * * * *") - T0).toBe(30 * MIN);
    expect(at(T0 + 31 * MIN, "*/30 * * * *") - T0).toBe(60 * MIN);
  });

  test("never sooner than 5 minutes, whatever the cron says", () => {
    expect(at(T0, "* * * * *") - T0).toBe(5 * MIN);
    expect(at(T0 + 30_000, "* * * * *") - T0).toBe(6 * MIN);
  });

  test("server hints and backoff push it out, to the next slot after them, capped at 24 h", () => {
    expect(at(T0, "*/30 * * * *", [2 * 60 * MIN]) - T0).toBe(120 * MIN);
    expect(at(T0, "*/30 * * * *", [61 * MIN, null]) - T0).toBe(90 * MIN);
    expect(at(T0, "* * * * *", [365 * 24 * 60 * MIN]) - T0).toBe(MAX_DELAY_MS);
  });
});

test("backoff doubles from 5 minutes up to 24 hours", () => {
  expect([1, 2, 3, 4].map(failureBackoffMs)).toEqual([5 * MIN, 10 * MIN, 20 * MIN, 40 * MIN]);
  expect(failureBackoffMs(0)).toBe(0);
  expect(failureBackoffMs(9)).toBe(1280 * MIN);
  expect(failureBackoffMs(10)).toBe(MAX_DELAY_MS);
  expect(failureBackoffMs(500)).toBe(MAX_DELAY_MS);
});

test("Retry-After in seconds or as a date; Cache-Control max-age and s-maxage", () => {
  expect(retryAfterMs("120", T0)).toBe(120_000);
  expect(retryAfterMs(new Date(T0 + 90_000).toUTCString(), T0)).toBe(90_000);
  expect(retryAfterMs("soon", T0)).toBeNull();
  expect(retryAfterMs(null, T0)).toBeNull();
  expect(maxAgeMs("public, max-age=3600")).toBe(3_600_000);
  expect(maxAgeMs("max-age=60, s-maxage=600")).toBe(600_000);
  expect(maxAgeMs("no-cache")).toBeNull();
});

describe("host spacing", () => {
  test("a second request to the same host waits; other hosts do not; zero spacing never waits", async () => {
    const gate = createHostGate(60_000);
    await gate.wait("a.example");
    await gate.wait("b.example");
    const controller = new AbortController();
    let settled = false;
    const second = gate.wait("a.example", controller.signal).finally(() => (settled = true));
    await Bun.sleep(0);
    expect(settled).toBe(false);
    controller.abort(new Error("stop"));
    await expect(second).rejects.toThrow("stop");
    const none = createHostGate(0);
    await none.wait("a.example");
    await none.wait("a.example");
  });
});

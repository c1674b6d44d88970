// Scheduler: cron validation, next-run arithmetic, and the bookkeeping of named schedules.
import { afterEach, describe, expect, test } from "bun:test";
import { createLogger } from "../log.ts";
import { createScheduler, type Scheduler } from "./scheduler.ts";
import { fakeClock } from "./testing.ts";

const made: Scheduler[] = [];
function scheduler(deps: Parameters<typeof createScheduler>[0] = {}) {
  const s = createScheduler(deps);
  made.push(s);
  return s;
}
afterEach(() => made.splice(0).forEach((s) => s.stopAll()));

describe("validate", () => {
  test("accepts five-field expressions and nicknames", () => {
    const s = scheduler();
    for (const ok of ["*/30 * * * *", "0 9 * * MON-FRI", "15 3 1 * *", "@hourly", "@daily"])
      expect(s.validate(ok)).toBeNull();
  });

  test("explains what is wrong with anything else", () => {
    const s = scheduler();
    expect(s.validate("61 * * * *")).toContain("minute");
    expect(s.validate("* * * * 8")).toContain("dayOfWeek");
    expect(s.validate("every day")).toContain("five fields");
    expect(s.validate("0 */5 * * * *")).toContain("five fields");
    expect(s.validate("2030-01-01T00:00:00")).toContain("five fields");
    expect(s.validate("")).not.toBeNull();
  });
});

describe("nextRun", () => {
  test("is the first matching time strictly after the reference", () => {
    const s = scheduler();
    const t = Date.UTC(2030, 0, 1, 10, 7, 30);
    expect(s.nextRun("*/30 * * * *", t, { timezone: "UTC" })).toBe(Date.UTC(2030, 0, 1, 10, 30));
    expect(s.nextRun("*/30 * * * *", Date.UTC(2030, 0, 1, 10, 30), { timezone: "UTC" })).toBe(
      Date.UTC(2030, 0, 1, 11, 0),
    );
    expect(s.nextRun("0 9 * * MON", t, { timezone: "UTC" })).toBe(Date.UTC(2030, 0, 7, 9, 0));
    expect(s.nextRun("0 9 * * *", t, { timezone: "Europe/Paris" })).toBe(Date.UTC(2030, 0, 2, 8, 0));
  });

  test("defaults the reference to the injected clock", () => {
    const clock = fakeClock(Date.UTC(2030, 5, 1, 12, 0, 1));
    expect(scheduler({ clock }).nextRun("@hourly", undefined, { timezone: "UTC" })).toBe(Date.UTC(2030, 5, 1, 13, 0));
  });

  test("throws on an invalid expression", () => {
    expect(() => scheduler().nextRun("nope", 0)).toThrow();
  });
});

describe("schedules", () => {
  test("are named, replaceable and removable, and can be run on demand", async () => {
    const s = scheduler();
    const calls: string[] = [];
    s.schedule("feed:1", "*/30 * * * *", () => void calls.push("first"));
    s.schedule("feed:1", "*/15 * * * *", () => void calls.push("second"));
    s.schedule("feed:2", "@daily", async () => void calls.push("other"));
    expect(s.names().sort()).toEqual(["feed:1", "feed:2"]);
    expect(await s.runNow("feed:1")).toBe(true);
    expect(calls).toEqual(["second"]);
    expect(s.unschedule("feed:1")).toBe(true);
    expect(s.unschedule("feed:1")).toBe(false);
    expect(await s.runNow("feed:1")).toBe(false);
    expect(s.has("feed:2")).toBe(true);
    s.stopAll();
    expect(s.names()).toEqual([]);
  });

  test("refuses an invalid expression and keeps the old schedule", () => {
    const s = scheduler();
    s.schedule("x", "@hourly", () => {});
    expect(() => s.schedule("x", "bad", () => {})).toThrow();
    expect(s.has("x")).toBe(true);
  });

  test("a task that throws is logged, not crashing the process", async () => {
    const lines: string[] = [];
    const s = scheduler({ logger: createLogger("debug", (c) => void lines.push(c)) });
    s.schedule("boom", "@hourly", async () => {
      throw new Error("feed unreachable");
    });
    await s.runNow("boom");
    expect(lines.join("")).toContain("feed unreachable");
    expect(s.has("boom")).toBe(true);
  });
});

// The scheduling priority of this process's worker threads, read from /proc (Linux only).
import { expect } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** The nice value in a /proc stat line: field 19, counted after the parenthesised command name. */
function niceOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

/**
 * The process's own nice value and that of each of its Worker threads (Bun names them "Worker"), or
 * null where /proc has no task list.
 */
export function workerPriorities(): { process: number; workers: number[] } | null {
  if (!existsSync("/proc/self/task")) return null;
  const workers = readdirSync("/proc/self/task").flatMap((tid) => {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() !== "Worker") return [];
      return [niceOf(readFileSync(`/proc/self/task/${tid}/stat`, "utf8"))];
    } catch {
      return []; // the thread ended while the list was read
    }
  });
  return { process: niceOf(readFileSync("/proc/self/stat", "utf8")), workers };
}

/** Asserts that worker threads are running and each keeps the process's own nice value (no-op without /proc). */
export function expectWorkersAtProcessPriority(): void {
  const seen = workerPriorities();
  if (!seen) return;
  expect(seen.workers.length).toBeGreaterThan(0);
  expect(new Set(seen.workers)).toEqual(new Set([seen.process]));
}

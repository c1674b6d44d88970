// Test helpers for code that uses jobs: a clock that moves only when told, waiting on conditions, and a
// database several processes can share (a file on SQLite, a schema on PostgreSQL).
import { type TUnknown, Type } from "@sinclair/typebox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseUrl } from "../config.ts";
import { openDatabase, testSchemaName } from "../db/client.ts";
import { pgAsDb } from "../db/pg/as-db.ts";
import { openPostgres } from "../db/pg/client.ts";
import type { EngineDb } from "../db/port.ts";
import type { Clock } from "../time.ts";
import { defineJob, type JobDef } from "./types.ts";

export interface FakeClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function fakeClock(start = Date.UTC(2030, 0, 1)): FakeClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => void (t = ms),
    advance: (ms) => void (t += ms),
  };
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** For state that changes on another connection or timer, with no event to await: checks every few ms. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what = "condition",
  timeoutMs = 10_000,
): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

/**
 * A database that several connections or processes can open, for tests of contention: a file on
 * SQLite, or (DATABASE_URL set) a schema of its own on PostgreSQL, named as `pg:<schema>`. Pass the
 * location to child processes as is; they inherit DATABASE_URL.
 */
export function sharedTestDatabase(): { location: string; cleanup(): void } {
  if (databaseUrl()) return { location: `pg:${testSchemaName()}`, cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), "commonplace-shared-"));
  return { location: join(dir, "test.db"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a location from sharedTestDatabase (each call is a connection, or a pool, of its own). */
export function openSharedDatabase(location: string, opts: { poolSize?: number } = {}): EngineDb {
  if (!location.startsWith("pg:")) return openDatabase(location);
  const url = databaseUrl();
  if (!url) throw new Error(`${location} names a PostgreSQL schema but DATABASE_URL is not set`);
  return pgAsDb(openPostgres(url, { schema: location.slice(3), max: opts.poolSize ?? 4, idleTimeout: 2 }));
}

/** Closes a database and, on PostgreSQL, waits until its pool has ended. */
export async function closeDatabase(db: EngineDb): Promise<void> {
  await db.end();
}

/** A job handle with any payload, for tests of the queue and runner themselves (features define typed ones). */
export function anyJob(type: string): JobDef<TUnknown> {
  return defineJob(type, Type.Unknown());
}

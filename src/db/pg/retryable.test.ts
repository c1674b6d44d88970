// Which errors make a PostgreSQL transaction run again: drizzle wraps the driver's error (DrizzleQueryError
// with the PostgresError as cause), and a wrapped serialisation failure must be retried like a bare one.
import { expect, test } from "bun:test";
import { isRetryable } from "./client.ts";

test("a serialisation failure or deadlock is retryable, bare or wrapped; anything else is not", () => {
  const pgError = (code: string) => Object.assign(new Error("pg"), { code });
  expect(isRetryable(pgError("40001"))).toBe(true);
  expect(isRetryable(pgError("40P01"))).toBe(true);
  expect(isRetryable(new Error("Failed query", { cause: pgError("40001") }))).toBe(true);
  expect(isRetryable(new Error("Failed query", { cause: pgError("23505") }))).toBe(false);
  expect(isRetryable(new Error("plain"))).toBe(false);
  expect(isRetryable(null)).toBe(false);
});

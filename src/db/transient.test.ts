// Which database errors count as passing trouble (the job runs again) and which are the work's fault.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTransientDbError } from "./transient.ts";

test("serialisation failures, deadlocks, lost connections and a busy SQLite writer are transient", () => {
  for (const code of ["40001", "40P01", "08006", "57P01", "53300", "CONNECTION_CLOSED", "SQLITE_BUSY"])
    expect(isTransientDbError({ code })).toBe(true);
  // drizzle wraps the driver's error as its cause.
  expect(isTransientDbError(Object.assign(new Error("Failed query"), { cause: { code: "40001" } }))).toBe(true);
});

test("constraint violations, syntax errors and plain errors are not", () => {
  for (const err of [{ code: "23505" }, { code: "42601" }, new Error("boom"), new TypeError("x is undefined"), null])
    expect(isTransientDbError(err)).toBe(false);
});

test("a real SQLite busy error is recognised", () => {
  const file = join(tmpdir(), `transient-${crypto.randomUUID()}.db`);
  const a = new Database(file);
  const b = new Database(file);
  try {
    a.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x); BEGIN IMMEDIATE; INSERT INTO t VALUES (1)");
    b.exec("PRAGMA busy_timeout = 0");
    let caught: unknown;
    try {
      b.exec("BEGIN IMMEDIATE");
    } catch (err) {
      caught = err;
    }
    expect(isTransientDbError(caught)).toBe(true);
  } finally {
    a.close();
    b.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
});

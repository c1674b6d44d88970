// exclusively(): processes starting together run the guarded start-up work one after another.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../config.ts";
import { openTestDatabase, testSchemaName } from "./client.ts";
import { exclusively } from "./exclusive.ts";
import { pgAsDb } from "./pg/as-db.ts";
import { openPostgres } from "./pg/client.ts";
import type { PgDb } from "./pg/port.ts";

const url = databaseUrl();
const opened: PgDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

/** Three guarded bodies, each yielding mid-way: they must never overlap. */
async function overlaps(dbs: Parameters<typeof exclusively>[0][]): Promise<number> {
  let inside = 0;
  let most = 0;
  await Promise.all(
    dbs.map((db) =>
      exclusively(db, "rebuild", async () => {
        most = Math.max(most, ++inside);
        await Bun.sleep(30);
        inside--;
      }),
    ),
  );
  return most;
}

describe.skipIf(!url)("exclusively (PostgreSQL)", () => {
  test("pools of one schema (three processes' worth) take turns; the lock is free afterwards", async () => {
    const schema = testSchemaName();
    const dbs = [0, 1, 2].map(() => {
      const pg = openPostgres(url!, { schema, max: 2, idleTimeout: 2 });
      opened.push(pg);
      return pgAsDb(pg);
    });
    expect(await overlaps(dbs)).toBe(1);
    // Released after a throw too: the next caller gets in.
    await expect(exclusively(dbs[0]!, "rebuild", () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await exclusively(dbs[1]!, "rebuild", async () => "ran")).toBe("ran");
  }, 30_000);
});

test("the body's result comes back on the test run's engine", async () => {
  const db = openTestDatabase();
  expect(await exclusively(db, "rebuild", async () => 42)).toBe(42);
  db.close();
});

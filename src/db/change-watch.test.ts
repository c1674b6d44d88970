import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "./client.ts";
import { createChangeWatch } from "./change-watch.ts";

test("moves when another connection commits, not for this connection's own writes", () => {
  const file = join(mkdtempSync(join(tmpdir(), "cw-")), "db.sqlite");
  const a = openDatabase(file);
  const b = openDatabase(file);
  let t = 0;
  const watch = createChangeWatch(a.sqlite, { now: () => t });
  const g0 = watch.generation();
  a.sqlite.exec("CREATE TABLE IF NOT EXISTS x (v)");
  a.sqlite.exec("INSERT INTO x VALUES (1)");
  t += 5;
  expect(watch.generation()).toBe(g0);
  b.sqlite.exec("INSERT INTO x VALUES (2)");
  // Within the window the cached answer stands; after it the change is seen.
  expect(watch.generation()).toBe(g0);
  t += 5;
  expect(watch.generation()).toBe(g0 + 1);
  t += 5;
  expect(watch.generation()).toBe(g0 + 1);
});

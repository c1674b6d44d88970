// What a child process started by a test sees of the database: nothing on SQLite; on the PostgreSQL
// lane the server plus a schema per data directory (a server and a CLI on one directory share it).
import { expect, test } from "bun:test";
import { databaseUrl } from "../src/config.ts";
import { childEnv, schemaForDataDir } from "./server-process.ts";

test("children get DATABASE_URL and a schema of their data directory only on the PostgreSQL lane", () => {
  const a = childEnv({ DATA_DIR: "/tmp/a" });
  const url = databaseUrl();
  if (!url) {
    expect(a.DATABASE_URL).toBeUndefined();
    expect(a.DATABASE_SCHEMA).toBeUndefined();
    return;
  }
  expect(a.DATABASE_URL).toBe(url);
  expect(a.DATABASE_SCHEMA).toBe(schemaForDataDir("/tmp/a"));
  expect(childEnv({ DATA_DIR: "/tmp/a/" }).DATABASE_SCHEMA).toBe(a.DATABASE_SCHEMA);
  expect(childEnv({ DATA_DIR: "/tmp/b" }).DATABASE_SCHEMA).not.toBe(a.DATABASE_SCHEMA);
  expect(childEnv({}).DATABASE_SCHEMA).not.toBe(childEnv({}).DATABASE_SCHEMA);
  // A test may still choose: its own schema, or SQLite (an empty DATABASE_URL).
  expect(childEnv({ DATA_DIR: "/tmp/a", DATABASE_SCHEMA: "mine" }).DATABASE_SCHEMA).toBe("mine");
  expect(childEnv({ DATABASE_URL: "" }).DATABASE_SCHEMA).toBeUndefined();
});

test("schema names are valid DATABASE_SCHEMA values", () => {
  for (const s of [schemaForDataDir("/tmp/x"), schemaForDataDir(undefined)])
    expect(s).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
});

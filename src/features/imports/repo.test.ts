import { expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import { createImportsRepo } from "./repo.ts";

test("progressOf (plain SQL) returns the same view as byId (drizzle): every column, no file", async () => {
  const db = openTestDatabase();
  const at = "2026-01-01T00:00:00.000Z";
  db.sqlite
    .query(
      "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES ('usr_1', 'a@example.com', 'a', 'x', 'free', ?, ?)",
    )
    .run(at, at);
  const repo = createImportsRepo(db);
  await repo.insert({
    id: "imp_1",
    userId: "usr_1",
    format: "urls",
    filename: "f.txt",
    fileSha256: "ab",
    file: Buffer.from("x"),
    status: "queued",
    total: 7,
    createdAt: at,
    updatedAt: at,
  });
  await repo.update("imp_1", {
    status: "running",
    position: 3,
    created: 2,
    alreadySaved: 1,
    problems: '[{"entry":1}]',
    problemsTotal: 1,
    startedAt: at,
    error: null,
  });
  const viaDrizzle = (await repo.byId("usr_1", "imp_1"))!;
  expect(viaDrizzle).toMatchObject({
    status: "running",
    position: 3,
    created: 2,
    alreadySaved: 1,
    problemsTotal: 1,
    startedAt: at,
    finishedAt: null,
  });
  expect(await repo.progressOf("imp_1")).toEqual(viaDrizzle);
  expect(Object.keys((await repo.progressOf("imp_1"))!)).not.toContain("file");
  expect(await repo.progressOf("imp_missing")).toBeUndefined();
  // Another user's id sees nothing.
  expect(await repo.byId("usr_2", "imp_1")).toBeUndefined();
  db.close();
});

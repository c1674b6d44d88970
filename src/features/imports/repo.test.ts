import { expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import { insertUser } from "../library/sources/test-rows.ts";
import { createImportsRepo } from "./repo.ts";

test("progressOf (plain SQL) returns the same view as byId (drizzle): every column, no file", async () => {
  const db = openTestDatabase();
  const at = "2026-01-01T00:00:00.000Z";
  await insertUser(db, "usr_1");
  const repo = createImportsRepo(db);
  await repo.insert({
    id: "imp_1",
    userId: "usr_1",
    format: "urls",
    filename: "f.txt",
    fileSha256: "ab",
    file: Buffer.from([0xff, 0x00, 0x78]),
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
  // The file comes back byte for byte (a BLOB on SQLite, bytea on PostgreSQL).
  expect([...new Uint8Array((await repo.withFile("imp_1"))!.file!)]).toEqual([0xff, 0x00, 0x78]);
  expect((await repo.list("usr_1", { limit: 5 })).map((r) => ({ ...r }))).toEqual([viaDrizzle]);
  // Another user's id sees nothing.
  expect(await repo.byId("usr_2", "imp_1")).toBeUndefined();
  db.close();
});

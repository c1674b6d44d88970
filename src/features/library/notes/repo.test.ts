// The notes repository on whichever engine the run uses: the sources a note cites, replaced as a whole.
import { expect, test } from "bun:test";
import { openTestDatabase } from "../../../db/client.ts";
import { createSourcesRepo } from "../sources/repo.ts";
import { insertUser, T0 } from "../sources/test-rows.ts";
import { createNotesRepo } from "./repo.ts";

test("notes: same-note lookup, listing by source and cursor, source lists replaced, scoped delete", async () => {
  const db = openTestDatabase();
  await insertUser(db, "usr_a");
  await insertUser(db, "usr_b");
  const sources = createSourcesRepo(db);
  for (const id of ["src_1", "src_2", "src_3"])
    await sources.insert({ id, userId: "usr_a", url: id, normalizedUrl: id, createdAt: T0, updatedAt: T0 });
  const repo = createNotesRepo(db);
  const note = (id: string, title: string | null, userId = "usr_a") =>
    repo.insert({ id, userId, notebookId: null, title, content: `body ${id}`, createdAt: T0, updatedAt: T0 });
  await note("note_1", null);
  await note("note_2", "Two");
  await note("note_3", "Three");
  await note("note_9", null, "usr_b");
  expect(await repo.hasSame("usr_a", null, "body note_1")).toBe(true);
  expect(await repo.hasSame("usr_a", "Two", "body note_2")).toBe(true);
  expect(await repo.hasSame("usr_a", "Other", "body note_2")).toBe(false);
  expect(await repo.hasSame("usr_b", null, "body note_1")).toBe(false);
  await repo.setSources("note_1", ["src_2", "src_1"]);
  await repo.setSources("note_3", ["src_1"]);
  await repo.setSources("note_3", ["src_3"]);
  expect(await repo.sourceIds(["note_1", "note_2", "note_3"])).toEqual(
    new Map([
      ["note_1", ["src_1", "src_2"]],
      ["note_3", ["src_3"]],
    ]),
  );
  expect((await repo.list("usr_a", { limit: 10, sourceId: "src_1" })).map((n) => n.id)).toEqual(["note_1"]);
  expect((await repo.list("usr_a", { limit: 2 })).map((n) => n.id)).toEqual(["note_3", "note_2"]);
  expect((await repo.list("usr_a", { limit: 5, before: "note_2" })).map((n) => n.id)).toEqual(["note_1"]);
  await repo.setSources("note_1", []);
  expect(await repo.sourceIds(["note_1"])).toEqual(new Map());
  await repo.update("note_2", { content: "new" });
  expect((await repo.byId("usr_a", "note_2"))?.content).toBe("new");
  expect(await repo.byId("usr_b", "note_2")).toBeUndefined();
  await repo.delete("usr_b", "note_2");
  expect(await repo.byId("usr_a", "note_2")).toBeDefined();
  await repo.delete("usr_a", "note_2");
  expect(await repo.byId("usr_a", "note_2")).toBeUndefined();
  db.close();
});

// The notebooks repository on whichever engine the run uses: counts are numbers, names map to the oldest id.
import { expect, test } from "bun:test";
import { openTestDatabase } from "../../../db/client.ts";
import { createNotesRepo } from "../notes/repo.ts";
import { createSourcesRepo } from "../sources/repo.ts";
import { insertUser, T0 } from "../sources/test-rows.ts";
import { createNotebooksRepo } from "./repo.ts";

test("notebooks: counts of sources and notes, scoped reads, names, update and delete", async () => {
  const db = openTestDatabase();
  await insertUser(db, "usr_a");
  await insertUser(db, "usr_b");
  const repo = createNotebooksRepo(db);
  const nb = (id: string, name: string, userId = "usr_a") =>
    repo.insert({ id, userId, name, description: null, createdAt: T0, updatedAt: T0 });
  await nb("nb_1", "Reading");
  await nb("nb_2", "Reading");
  await nb("nb_3", "Work");
  await nb("nb_9", "Theirs", "usr_b");
  const sources = createSourcesRepo(db);
  for (const id of ["src_1", "src_2"]) {
    await sources.insert({ id, userId: "usr_a", url: id, normalizedUrl: id, createdAt: T0, updatedAt: T0 });
    await sources.link("nb_1", id, T0);
  }
  await createNotesRepo(db).insert({
    id: "note_1",
    userId: "usr_a",
    notebookId: "nb_1",
    title: null,
    content: "c",
    createdAt: T0,
    updatedAt: T0,
  });
  expect(await repo.byId("usr_a", "nb_1")).toEqual({
    id: "nb_1",
    userId: "usr_a",
    name: "Reading",
    description: null,
    createdAt: T0,
    updatedAt: T0,
    sourceCount: 2,
    noteCount: 1,
  });
  expect(await repo.byId("usr_b", "nb_1")).toBeUndefined();
  expect(await repo.existingIds("usr_a", ["nb_1", "nb_9", "nb_x"])).toEqual(new Set(["nb_1"]));
  expect(await repo.existingIds("usr_a", [])).toEqual(new Set());
  const page = await repo.list("usr_a", { limit: 2 });
  expect(page.map((r) => [r.id, r.sourceCount, r.noteCount])).toEqual([
    ["nb_3", 0, 0],
    ["nb_2", 0, 0],
  ]);
  expect((await repo.list("usr_a", { limit: 5, before: "nb_2" })).map((r) => r.id)).toEqual(["nb_1"]);
  expect(await repo.idsByName("usr_a")).toEqual(
    new Map([
      ["Reading", "nb_1"],
      ["Work", "nb_3"],
    ]),
  );
  await repo.update("nb_3", { name: "Job", updatedAt: "2026-02-01T00:00:00.000Z" });
  expect((await repo.byId("usr_a", "nb_3"))?.name).toBe("Job");
  await repo.delete("usr_b", "nb_3");
  expect(await repo.byId("usr_a", "nb_3")).toBeDefined();
  await repo.delete("usr_a", "nb_1");
  expect(await repo.byId("usr_a", "nb_1")).toBeUndefined();
  // The links went with it; the note stays, outside any notebook.
  expect(await sources.notebookIds(["src_1"])).toEqual(new Map());
  expect((await createNotesRepo(db).byId("usr_a", "note_1"))?.notebookId).toBeNull();
  db.close();
});

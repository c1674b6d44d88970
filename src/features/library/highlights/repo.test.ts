// The highlights repository on whichever engine the run uses: owner scoping, text order, filters.
import { expect, test } from "bun:test";
import { openTestDatabase } from "../../../db/client.ts";
import type { HighlightRow } from "../../../db/schema/index.ts";
import { createNotebooksRepo } from "../notebooks/repo.ts";
import { createSourcesRepo } from "../sources/repo.ts";
import { insertUser, T0 } from "../sources/test-rows.ts";
import { createHighlightsRepo } from "./repo.ts";

test("highlights: owner-scoped reads and writes, a source's in text order, filters, cascade with the source", async () => {
  const db = openTestDatabase();
  await insertUser(db, "usr_a");
  await insertUser(db, "usr_b");
  const sources = createSourcesRepo(db);
  for (const [id, userId, tags] of [
    ["src_1", "usr_a", '["sea"]'],
    ["src_2", "usr_a", "[]"],
    ["src_9", "usr_b", '["sea"]'],
  ] as const)
    await sources.insert({
      id,
      userId,
      url: `https://e.com/${id}`,
      normalizedUrl: id,
      title: id,
      tags,
      createdAt: T0,
      updatedAt: T0,
    });
  await createNotebooksRepo(db).insert({
    id: "nb_1",
    userId: "usr_a",
    name: "N",
    description: null,
    createdAt: T0,
    updatedAt: T0,
  });
  await sources.link("nb_1", "src_2", T0);
  const repo = createHighlightsRepo(db);
  const row = (id: string, sourceId: string, start: number, userId = "usr_a", createdAt = T0): HighlightRow => ({
    id,
    userId,
    sourceId,
    exact: `quote ${id}`,
    prefix: "",
    suffix: "",
    startPos: start,
    endPos: start + 5,
    color: "yellow",
    note: null,
    orphaned: false,
    createdAt,
    updatedAt: createdAt,
  });
  await repo.insert(row("hl_1", "src_1", 50));
  await repo.insert(row("hl_2", "src_1", 10));
  await repo.insert(row("hl_3", "src_2", 0, "usr_a", "2030-01-01T00:00:00.000Z"));
  await repo.insert(row("hl_9", "src_9", 0, "usr_b"));
  expect((await repo.ofSource("usr_a", "src_1")).map((r) => r.id)).toEqual(["hl_2", "hl_1"]);
  expect(await repo.ofSource("usr_b", "src_1")).toEqual([]);
  const one = await repo.byId("usr_a", "hl_1");
  expect(one).toMatchObject({ id: "hl_1", title: "src_1", url: "https://e.com/src_1", h: { orphaned: false } });
  expect(await repo.byId("usr_b", "hl_1")).toBeUndefined();
  const ids = async (f: Parameters<typeof repo.list>[1]) => (await repo.list("usr_a", f)).map((r) => r.id);
  expect(await ids({ limit: 10 })).toEqual(["hl_3", "hl_2", "hl_1"]);
  expect(await ids({ limit: 10, before: "hl_3" })).toEqual(["hl_2", "hl_1"]);
  expect(await ids({ limit: 10, tag: "sea" })).toEqual(["hl_2", "hl_1"]);
  expect(await ids({ limit: 10, notebookId: "nb_1" })).toEqual(["hl_3"]);
  expect(await ids({ limit: 10, createdAfter: T0 })).toEqual(["hl_3"]);
  expect((await repo.byIds("usr_a", ["hl_1", "hl_9"])).map((r) => r.id)).toEqual(["hl_1"]);
  await repo.update("usr_b", "hl_1", { orphaned: true });
  expect((await repo.byId("usr_a", "hl_1"))!.h.orphaned).toBe(false);
  await repo.update("usr_a", "hl_1", { orphaned: true, note: "n" });
  expect((await repo.byId("usr_a", "hl_1"))!.h).toMatchObject({ orphaned: true, note: "n" });
  await repo.delete("usr_b", "hl_2");
  expect(await repo.byId("usr_a", "hl_2")).toBeDefined();
  await sources.delete("usr_a", "src_1");
  expect(await ids({ limit: 10 })).toEqual(["hl_3"]);
  db.close();
});

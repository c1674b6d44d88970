// The sources repository on whichever engine the run uses (SQLite, or PostgreSQL with DATABASE_URL):
// both implementations must give the same answers, types included (booleans, counts, JSON tags).
import { afterEach, describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../../db/client.ts";
import type { EngineDb } from "../../../db/port.ts";
import { createNotebooksRepo } from "../notebooks/repo.ts";
import { createSourcesRepo } from "./repo.ts";
import { insertUser, T0 } from "./test-rows.ts";

let db: EngineDb;
afterEach(() => db.close());

async function setup() {
  db = openTestDatabase();
  await insertUser(db, "usr_a");
  await insertUser(db, "usr_b");
  const repo = createSourcesRepo(db);
  const notebooks = createNotebooksRepo(db);
  const add = async (id: string, o: { user?: string; tags?: string[]; savedAt?: string; status?: "ready" } = {}) =>
    repo.insert({
      id,
      userId: o.user ?? "usr_a",
      url: `https://example.com/${id}`,
      normalizedUrl: `https://example.com/${id}`,
      title: `Title ${id}`,
      status: o.status ?? "pending",
      tags: JSON.stringify(o.tags ?? []),
      savedAt: o.savedAt ?? T0,
      createdAt: T0,
      updatedAt: T0,
    });
  return { repo, notebooks, add };
}

describe("sources repository", () => {
  test("insertIfNew inserts once per owner and address; booleans come back as booleans", async () => {
    const { repo } = await setup();
    const row = {
      id: "src_1",
      userId: "usr_a",
      url: "https://example.com/x",
      normalizedUrl: "https://example.com/x",
      createdAt: T0,
      updatedAt: T0,
    };
    expect(await repo.insertIfNew(row)).toBe(true);
    expect(await repo.insertIfNew({ ...row, id: "src_2" })).toBe(false);
    expect(await repo.insertIfNew({ ...row, id: "src_3", userId: "usr_b" })).toBe(true);
    const got = (await repo.byNormalizedUrl("usr_a", "https://example.com/x"))!;
    expect(got).toMatchObject({ id: "src_1", status: "pending", archived: false, titleFromUser: false, tags: "[]" });
    expect(await repo.byIdUnscoped("src_2")).toBeUndefined();
    expect(await repo.byId("usr_b", "src_1")).toBeUndefined();
  });

  test("list filters by tag (a whole tag, not a substring), status and cursor, newest first", async () => {
    const { repo, add } = await setup();
    await add("src_1", { tags: ["rust", "web"] });
    await add("src_2", { tags: ["rustic"] });
    await add("src_3", { tags: ['say "hi"', "web"], status: "ready" });
    await add("src_4", { user: "usr_b", tags: ["web"] });
    const ids = async (f: Parameters<typeof repo.list>[1]) => (await repo.list("usr_a", f)).map((r) => r.id);
    expect(await ids({ limit: 10 })).toEqual(["src_3", "src_2", "src_1"]);
    expect(await ids({ limit: 10, tag: "web" })).toEqual(["src_3", "src_1"]);
    expect(await ids({ limit: 10, tag: "rust" })).toEqual(["src_1"]);
    expect(await ids({ limit: 10, tag: 'say "hi"' })).toEqual(["src_3"]);
    expect(await ids({ limit: 10, tag: "nothing" })).toEqual([]);
    expect(await ids({ limit: 10, status: "ready" })).toEqual(["src_3"]);
    expect(await ids({ limit: 1, before: "src_3" })).toEqual(["src_2"]);
  });

  test("sorted by saved time, ties are broken by id and the saved_at|id cursor continues", async () => {
    const { repo, add } = await setup();
    await add("src_1", { savedAt: "2026-01-03T00:00:00.000Z" });
    await add("src_2", { savedAt: "2026-01-01T00:00:00.000Z" });
    await add("src_3", { savedAt: "2026-01-03T00:00:00.000Z" });
    await add("src_4", { savedAt: "2026-01-02T00:00:00.000Z" });
    const page = await repo.list("usr_a", { limit: 2, sort: "saved_at" });
    expect(page.map((r) => r.id)).toEqual(["src_3", "src_1"]);
    const next = await repo.list("usr_a", { limit: 5, sort: "saved_at", before: "2026-01-03T00:00:00.000Z|src_1" });
    expect(next.map((r) => r.id)).toEqual(["src_4", "src_2"]);
  });

  test("a list without text gives every other column as a full read does, and an empty content", async () => {
    const { repo, notebooks, add } = await setup();
    await notebooks.insert({ id: "nb_1", userId: "usr_a", name: "N", description: null, createdAt: T0, updatedAt: T0 });
    await add("src_1", { status: "ready", tags: ["sea"] });
    await add("src_2");
    await repo.update("src_1", { content: "# Tides\n\nThe sea comes back fast.", wordCount: 6, favorite: true });
    await repo.link("nb_1", "src_1", T0);
    for (const f of [{ limit: 5 }, { limit: 5, notebookId: "nb_1" }, { limit: 5, sort: "saved_at" as const }]) {
      const full = await repo.list("usr_a", f);
      const bare = await repo.list("usr_a", { ...f, withoutText: true });
      expect(full.find((r) => r.id === "src_1")!.content).toContain("The sea comes back fast.");
      expect(bare.map((r) => r.content)).toEqual(bare.map(() => ""));
      expect(bare).toEqual(full.map((r) => ({ ...r, content: "" })));
    }
  });

  test("notebook links: new or not, counted, listed by notebook, unlinked", async () => {
    const { repo, notebooks, add } = await setup();
    await notebooks.insert({ id: "nb_1", userId: "usr_a", name: "N", description: null, createdAt: T0, updatedAt: T0 });
    await add("src_1", { status: "ready" });
    await add("src_2");
    await add("src_3", { status: "ready" });
    expect(await repo.link("nb_1", "src_1", T0)).toBe(true);
    expect(await repo.link("nb_1", "src_1", T0)).toBe(false);
    await repo.link("nb_1", "src_2", T0);
    await repo.link("nb_1", "src_3", T0);
    expect(await repo.countInNotebook("nb_1")).toBe(3);
    expect(await repo.countInNotebook("nb_none")).toBe(0);
    expect((await repo.list("usr_a", { limit: 2, notebookId: "nb_1" })).map((r) => r.id)).toEqual(["src_3", "src_2"]);
    expect((await repo.list("usr_a", { limit: 5, notebookId: "nb_1", before: "src_2" })).map((r) => r.id)).toEqual([
      "src_1",
    ]);
    expect(await repo.readyIdsInNotebook("usr_a", "nb_1")).toEqual(["src_1", "src_3"]);
    expect(await repo.readyIdsInNotebook("usr_b", "nb_1")).toEqual([]);
    expect(await repo.notebookIds(["src_1", "src_9"])).toEqual(new Map([["src_1", ["nb_1"]]]));
    expect(await repo.unlink("nb_1", "src_1")).toBe(true);
    expect(await repo.unlink("nb_1", "src_1")).toBe(false);
    expect(await (await notebooks.byId("usr_a", "nb_1"))?.sourceCount).toBe(2);
  });

  test("imported sources: pending pages with a content flag, counts by status", async () => {
    const { repo } = await setup();
    const base = { userId: "usr_a", title: null, tags: '["x"]', savedAt: T0, createdAt: T0, updatedAt: T0 };
    for (const [i, content] of [
      [1, "body"],
      [2, null],
      [3, null],
    ] as const)
      await repo.insertImported({
        ...base,
        id: `src_${i}`,
        url: `https://example.com/${i}`,
        normalizedUrl: `https://example.com/${i}`,
        archived: i === 1,
        content,
        importId: "imp_1",
      });
    await repo.update("src_3", { status: "failed" });
    expect(await repo.pendingOfImport("imp_1", "", 10)).toEqual([
      { id: "src_1", url: "https://example.com/1", hasContent: true },
      { id: "src_2", url: "https://example.com/2", hasContent: false },
    ]);
    expect(await repo.pendingOfImport("imp_1", "src_1", 10)).toHaveLength(1);
    expect(await repo.statusCountsOfImport("imp_1")).toEqual({ pending: 2, failed: 1 });
    expect((await repo.byIdUnscoped("src_1"))!.archived).toBe(true);
    expect((await repo.byIdUnscoped("src_2"))!.archived).toBe(false);
  });

  test("titlesAndUrls and byIds read several rows at once; delete is scoped to the owner", async () => {
    const { repo, add } = await setup();
    await add("src_1");
    await add("src_2", { user: "usr_b" });
    const titles = await repo.titlesAndUrls(["src_1", "src_2", "src_9"]);
    expect(titles.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: "src_1", title: "Title src_1", url: "https://example.com/src_1" },
      { id: "src_2", title: "Title src_2", url: "https://example.com/src_2" },
    ]);
    expect(await repo.titlesAndUrls([])).toEqual([]);
    expect((await repo.byIds("usr_a", ["src_1", "src_2"])).map((r) => r.id)).toEqual(["src_1"]);
    await repo.delete("usr_a", "src_2");
    expect(await repo.byIdUnscoped("src_2")).toBeDefined();
    await repo.delete("usr_b", "src_2");
    expect(await repo.byIdUnscoped("src_2")).toBeUndefined();
  });
});

// The vector index's SQL on its own: reading an owner's codes stops at a limit, float vectors come back by chunk.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, openTestDatabase } from "../../db/client.ts";
import { sqlRows } from "../../db/inspect.ts";
import { createChunksRepo, createVectorsRepo } from "../../stores.ts";
import { createVectorIndex } from "./vectors.ts";

async function library(perOwner: Record<string, number>) {
  const db = openTestDatabase();
  const chunks = createChunksRepo(db);
  const index = createVectorIndex(db, createVectorsRepo(db), { memoryBytes: 0 });
  const slot = await index.ensureSlot("m", 8);
  let n = 0;
  for (const [userId, count] of Object.entries(perOwner)) {
    for (let i = 0; i < count; i++, n++) {
      await chunks.replace({ type: "source", id: `doc_${n}`, userId, title: "" }, [
        { index: 0, text: `chunk ${n}`, start: 0, end: 7, heading: null, tokenCount: 2 },
      ]);
    }
  }
  const rows = await sqlRows<{ rowid: number; userId: string }>(
    db,
    'SELECT id rowid, user_id "userId" FROM chunks ORDER BY id',
  );
  const vectorOf = (rowid: number) => Float32Array.from({ length: 8 }, (_, j) => Math.sin(rowid * (j + 1)));
  await index.upsert(
    slot,
    rows.map((r) => ({ rowid: r.rowid, userId: r.userId, docType: "source", vector: vectorOf(r.rowid) })),
  );
  return { db, repo: createVectorsRepo(db), slot, rows, vectorOf };
}

test("eachOwnerCode visits only the owner's codes and stops when told to", async () => {
  const { repo, slot, rows } = await library({ usr_a: 5, usr_b: 3 });
  const mine = new Set(rows.filter((r) => r.userId === "usr_b").map((r) => r.rowid));
  const all: { rowid: number; docType: string; code: Uint8Array }[] = [];
  await repo.eachOwnerCode(slot.slot, "usr_b", (r) => all.push(r) > 0);
  expect(new Set(all.map((r) => r.rowid))).toEqual(mine);
  expect(all.every((r) => r.docType === "source" && r.code.byteLength > 0)).toBe(true);
  let seen = 0;
  await repo.eachOwnerCode(slot.slot, "usr_a", () => ++seen < 2);
  expect(seen).toBe(2);
});

test("eachOwnerFloat visits the owner's stored vectors only", async () => {
  const { repo, slot, rows, vectorOf } = await library({ usr_a: 4, usr_b: 2 });
  const got: { rowid: number; e: Uint8Array }[] = [];
  await repo.eachOwnerFloat(slot.slot, "usr_a", (rowid, e) => got.push({ rowid, e: e.slice() }));
  got.sort((x, y) => x.rowid - y.rowid);
  expect(got.map((r) => r.rowid)).toEqual(
    rows
      .filter((r) => r.userId === "usr_a")
      .map((r) => r.rowid)
      .sort((x, y) => x - y),
  );
  for (const r of got) expect([...new Float32Array(r.e.buffer, r.e.byteOffset, 8)]).toEqual([...vectorOf(r.rowid)]);
});

test("a memory budget that fits the small owner holds it (with vectors), and the large owner is searched in the table", async () => {
  const { db, slot, vectorOf, rows } = await library({ usr_small: 3, usr_large: 3000 });
  const q = vectorOf(rows[0]!.rowid);
  // What each owner takes in memory when nothing limits it; the budget is set between the two.
  const measure = createVectorIndex(db, createVectorsRepo(db));
  await measure.knn(slot, "usr_small", q, { k: 1, candidates: 16 });
  const small = measure.memoryBytes();
  await measure.knn(slot, "usr_large", q, { k: 1, candidates: 16 });
  const large = measure.memoryBytes() - small;
  expect(large).toBeGreaterThan(small);
  const index = createVectorIndex(db, createVectorsRepo(db), { memoryBytes: Math.floor((small + large) / 2) });
  expect((await index.knn(slot, "usr_small", q, { k: 1, candidates: 16 }))[0]!.rowid).toBe(rows[0]!.rowid);
  const held = index.memoryBytes();
  expect(held).toBeGreaterThan(0);
  // The int8 copies came with the codes: similarities are answered from memory, close to exact.
  const sims = await index.similarities(slot, "usr_small", q, [rows[0]!.rowid]);
  expect(sims.get(rows[0]!.rowid)!).toBeGreaterThan(0.99);
  const first = rows.find((r) => r.userId === "usr_large")!.rowid;
  expect((await index.knn(slot, "usr_large", vectorOf(first), { k: 1, candidates: 64 }))[0]!.rowid).toBe(first);
  expect(index.memoryBytes()).toBe(held);
}, 60_000); // 3,000 vectors loaded and searched: seconds on a busy machine (as long as the PostgreSQL lane allows)

test.skipIf(process.env.DATABASE_URL !== undefined)(
  "on a SQLite file the data version moves for another connection's commit, not for this process's own",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "commonplace-data-version-"));
    const db = openDatabase(join(dir, "db.sqlite"));
    const repo = createVectorsRepo(db);
    try {
      const v0 = await repo.dataVersion();
      // A write of this process (its writer connection): the owners' codes in memory stay as they are.
      await sqlRows(db, "INSERT INTO _migrations (name, applied_at) VALUES ('x-own', 'now')");
      expect(await repo.dataVersion()).toBe(v0);
      // Another connection (the CLI, a second process) commits: the cache must reload.
      const other = openDatabase(join(dir, "db.sqlite"), { migrate: false, readers: false });
      other.sqlite.run("INSERT INTO _migrations (name, applied_at) VALUES ('x-other', 'now')");
      other.close();
      expect(await repo.dataVersion()).not.toBe(v0);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

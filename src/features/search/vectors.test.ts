// The vector index on its own: binary codes, owner partitions, recall against exact search, upkeep.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseUrl } from "../../config.ts";
import { openDatabase, openTestDatabase, testSchemaName } from "../../db/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { pgAsDb } from "../../db/pg/as-db.ts";
import { openPostgres } from "../../db/pg/client.ts";
import type { EngineDb } from "../../db/port.ts";
import { createEncoder } from "./binary-codes.ts";
import type { DocType } from "./chunks-repo.ts";
import { createChunksRepo } from "../../stores.ts";
import { createVectorIndex } from "./vectors.ts";
import { CODES_CHANNEL } from "./vectors-pg-repo.ts";
import { createVectorsRepo } from "../../stores.ts";
import { asPostgres } from "../../db/client.ts";
import { asSqlite } from "../../db/client.ts";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const unit = (v: Float32Array) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** Vectors around a few centres, so there are real neighbours to find. */
function clustered(count: number, dims: number, seed: number): Float32Array[] {
  const r = rng(seed);
  const centres = Array.from({ length: 12 }, () => Float32Array.from({ length: dims }, () => r() - 0.5));
  return Array.from({ length: count }, () => {
    const c = centres[Math.floor(r() * centres.length)]!;
    return unit(c.map((x) => x + (r() - 0.5) * 0.9));
  });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** An index over `vectors`, one chunk each, owned by `userId` (type by index parity). */
async function indexOf(vectors: Float32Array[], opts: { users?: string[] } = {}) {
  const db = openTestDatabase();
  const chunks = createChunksRepo(db);
  const index = createVectorIndex(db, createVectorsRepo(db));
  const users = opts.users ?? ["usr_a"];
  const owner = (i: number) => users[i % users.length]!;
  const type = (i: number): DocType => (i % 2 ? "note" : "source");
  for (const i of vectors.keys()) {
    await chunks.replace({ type: type(i), id: `doc_${i}`, userId: owner(i), title: "" }, [
      { index: 0, text: `chunk ${i}`, start: 0, end: 7, heading: null, tokenCount: 2 },
    ]);
  }
  const rows = await sqlRows<{ rowid: number; docId: string }>(db, 'SELECT id rowid, doc_id "docId" FROM chunks');
  const slot = await index.ensureSlot("test-model", vectors[0]!.length);
  await index.upsert(
    slot,
    rows.map((r) => {
      const i = Number(r.docId.slice(4));
      return { rowid: r.rowid, userId: owner(i), docType: type(i), vector: vectors[i]! };
    }),
  );
  await index.activate(slot.slot);
  const rowOf = new Map(rows.map((r) => [r.rowid, Number(r.docId.slice(4))]));
  return { db, index, slot: (await index.active())!, rowOf, owner, type };
}

describe("binary codes", () => {
  test("are deterministic, sized to a power of two times the blocks, and track the angle", () => {
    const e1 = createEncoder(384);
    const e2 = createEncoder(384);
    expect(e1.shape).toEqual({ padded: 512, blocks: 3, bits: 1536 });
    expect(createEncoder(1536).shape).toEqual({ padded: 2048, blocks: 1, bits: 2048 });
    const [a, b, c] = clustered(3, 384, 7);
    expect(e1.encode(a!)).toEqual(e2.encode(a!));
    const hamming = (x: Uint8Array, y: Uint8Array) => x.reduce((n, byte, i) => n + popcount(byte ^ y[i]!), 0);
    const near = unit(a!.map((x, i) => x + 0.1 * (b![i]! - 0.5)));
    // P(bit differs) = angle / π: a close vector differs in few bits, the opposite one in all of them.
    expect(hamming(e1.encode(a!), e1.encode(near))).toBeLessThan(hamming(e1.encode(a!), e1.encode(c!)));
    expect(hamming(e1.encode(a!), e1.encode(a!.map((x) => -x)))).toBeGreaterThan(1536 * 0.95);
  });

  test("a sparse vector (a short query under the builtin embedder) still gets a balanced code", () => {
    const v = new Float32Array(384);
    v[3] = 0.8;
    v[200] = -0.6;
    const code = createEncoder(384).encode(v);
    const ones = code.reduce((n, byte) => n + popcount(byte), 0);
    expect(ones).toBeGreaterThan(1536 * 0.35);
    expect(ones).toBeLessThan(1536 * 0.65);
  });
});

function popcount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

const postgres = Boolean(databaseUrl());

/** Two connections to one database (two processes' worth): a file on SQLite, one schema on PostgreSQL. */
function twoConnections(file: string): [EngineDb, EngineDb] {
  const url = databaseUrl();
  if (!url) return [openDatabase(file), openDatabase(file)];
  const schema = testSchemaName();
  const open = () => pgAsDb(openPostgres(url, { schema, max: 2, idleTimeout: 2 }));
  return [open(), open()];
}

async function closeAll(...dbs: EngineDb[]): Promise<void> {
  for (const d of dbs) {
    await d.end();
  }
}

describe("knn", () => {
  test("recall@10 against exact cosine search is at least 0.95", async () => {
    const vectors = clustered(4000, 64, 1);
    const { index, slot, rowOf } = await indexOf(vectors);
    const queries = clustered(40, 64, 2);
    let hits = 0;
    for (const q of queries) {
      const exact = vectors
        .map((v, i) => [i, dot(q, v)] as const)
        .sort((x, y) => y[1] - x[1])
        .slice(0, 10)
        .map(([i]) => i);
      const got = (await index.knn(slot, "usr_a", q, { k: 10, candidates: 512 })).map((h) => rowOf.get(h.rowid)!);
      hits += got.filter((i) => exact.includes(i)).length;
    }
    expect(hits / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  test("distances are cosine distances (int8 copies in memory: within 0.01; exact from the table), nearest first", async () => {
    const vectors = clustered(300, 32, 3);
    const { db, index, slot, rowOf } = await indexOf(vectors);
    const q = vectors[17]!;
    const hits = await index.knn(slot, "usr_a", q, { k: 5, candidates: 512 });
    expect(rowOf.get(hits[0]!.rowid)).toBe(17);
    expect(Math.abs(hits[0]!.distance)).toBeLessThan(0.01);
    for (const h of hits) expect(Math.abs(h.distance - (1 - dot(q, vectors[rowOf.get(h.rowid)!]!)))).toBeLessThan(0.01);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.distance).toBeGreaterThanOrEqual(hits[i - 1]!.distance);
    const exact = await createVectorIndex(db, createVectorsRepo(db), { memoryBytes: 0 }).knn(slot, "usr_a", q, {
      k: 5,
      candidates: 512,
    });
    expect(exact[0]!.distance).toBeCloseTo(0, 5);
    for (const h of exact) expect(h.distance).toBeCloseTo(1 - dot(q, vectors[rowOf.get(h.rowid)!]!), 5);
  });

  test("only the owner's vectors are candidates, and the type filter applies", async () => {
    const vectors = clustered(400, 32, 4);
    const { index, slot, rowOf, owner, type } = await indexOf(vectors, { users: ["usr_a", "usr_b"] });
    for (const q of vectors.slice(0, 20)) {
      for (const h of await index.knn(slot, "usr_a", q, { k: 50, candidates: 512 }))
        expect(owner(rowOf.get(h.rowid)!)).toBe("usr_a");
      for (const h of await index.knn(slot, "usr_b", q, { k: 50, candidates: 512, docType: "note" })) {
        expect(owner(rowOf.get(h.rowid)!)).toBe("usr_b");
        expect(type(rowOf.get(h.rowid)!)).toBe("note");
      }
    }
    expect(await index.knn(slot, "usr_nobody", vectors[0]!, { k: 5, candidates: 512 })).toEqual([]);
  });
});

describe("codes held in memory", () => {
  test("a deleted chunk whose rowid comes back under another owner is never shown to the first", async () => {
    const vectors = clustered(300, 32, 11);
    const { db, index, slot, rowOf } = await indexOf(vectors, { users: ["usr_a", "usr_b"] });
    const q = vectors[0]!; // owned by usr_a
    const first = await index.knn(slot, "usr_a", q, { k: 5, candidates: 64 }); // loads usr_a's codes
    const rowid = first[0]!.rowid;
    expect(rowOf.get(rowid)).toBe(0);
    // Deleted by SQL (a trigger path the cache does not see), then the rowid is reused for usr_b.
    await sqlRows(db, "DELETE FROM chunks WHERE id = ?", rowid);
    await sqlRows(
      db,
      "INSERT INTO chunks (id, chunk_id, user_id, doc_type, doc_id, idx, text, start_offset, end_offset, token_count) VALUES (?, 'chk_x', 'usr_b', 'source', 'doc_x', 0, 'x', 0, 1, 1)",
      rowid,
    );
    await index.upsert(slot, [{ rowid, userId: "usr_b", docType: "source", vector: q }]);
    for (let i = 0; i < 2; i++)
      expect((await index.knn(slot, "usr_a", q, { k: 20, candidates: 64 })).map((h) => h.rowid)).not.toContain(rowid);
    const other = first[1]!.rowid; // a plain delete: gone from the results at once
    await sqlRows(db, "DELETE FROM chunks WHERE id = ?", other);
    expect((await index.knn(slot, "usr_a", q, { k: 20, candidates: 64 })).map((h) => h.rowid)).not.toContain(other);
    expect((await index.knn(slot, "usr_b", q, { k: 1, candidates: 64 }))[0]!.rowid).toBe(rowid);
  });

  test("vectors written through another connection are found by a process that had loaded the codes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vec-conn-"));
    try {
      const [one, two] = twoConnections(join(dir, "t.db"));
      const vectors = clustered(50, 16, 12);
      const chunks = createChunksRepo(one);
      for (const i of vectors.keys()) {
        await chunks.replace({ type: "note", id: `doc_${i}`, userId: "usr_a", title: "" }, [
          { index: 0, text: `c ${i}`, start: 0, end: 3, heading: null, tokenCount: 1 },
        ]);
      }
      const rows = await sqlRows<{ rowid: number; docId: string }>(
        one,
        'SELECT id rowid, doc_id "docId" FROM chunks ORDER BY id',
      );
      const a = createVectorIndex(one, createVectorsRepo(one));
      const slot = await a.ensureSlot("m", 16);
      await a.upsert(
        slot,
        rows.slice(0, 25).map((r, i) => ({ rowid: r.rowid, userId: "usr_a", docType: "note", vector: vectors[i]! })),
      );
      await a.activate(slot.slot);
      expect(await a.knn((await a.active())!, "usr_a", vectors[40]!, { k: 50, candidates: 64 })).toHaveLength(25);
      // On PostgreSQL the other process's write reaches this one as a NOTIFY shortly after its commit.
      const announced =
        one.engine === "postgres"
          ? new Promise<void>((ok) => void asPostgres(one).listen(CODES_CHANNEL, () => ok()))
          : null;
      const b = createVectorIndex(two, createVectorsRepo(two));
      await b.upsert(
        (await b.active())!,
        rows.slice(25).map((r, i) => ({ rowid: r.rowid, userId: "usr_a", docType: "note", vector: vectors[25 + i]! })),
      );
      await announced;
      const hits = await a.knn((await a.active())!, "usr_a", vectors[40]!, { k: 50, candidates: 64 });
      expect(hits).toHaveLength(50);
      expect(hits[0]!.rowid).toBe(rows[40]!.rowid);
      await closeAll(one, two);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("with no memory budget the code table is searched instead, with the same results", async () => {
    const vectors = clustered(500, 32, 13);
    const { db, index, slot } = await indexOf(vectors);
    const inTable = createVectorIndex(db, createVectorsRepo(db), { memoryBytes: 0 });
    for (const q of vectors.slice(0, 10)) {
      const viaMemory = await index.knn(slot, "usr_a", q, { k: 3, candidates: 512 });
      const viaTable = await inTable.knn(slot, "usr_a", q, { k: 3, candidates: 512 });
      // The same chunks; near ties may swap (the int8 cosine is within 0.01 of the exact one).
      expect(viaTable.map((h) => h.rowid).sort()).toEqual(viaMemory.map((h) => h.rowid).sort());
      const exactOf = new Map(viaTable.map((h) => [h.rowid, h.distance]));
      for (const h of viaMemory) expect(Math.abs(h.distance - exactOf.get(h.rowid)!)).toBeLessThan(0.01);
    }
    expect(inTable.memoryBytes()).toBe(0);
    expect(index.memoryBytes()).toBeGreaterThan(0);
  });
});

describe("upkeep", () => {
  test("a vector computed for a chunk that was replaced meanwhile is not stored", async () => {
    const { db, index, slot } = await indexOf(clustered(4, 16, 5));
    const chunk = (await sqlRow<{ rowid: number; chunkId: string }>(
      db,
      'SELECT id rowid, chunk_id "chunkId" FROM chunks LIMIT 1',
    ))!;
    await sqlRows(db, "DELETE FROM chunk_vectors WHERE chunk_rowid = ?", chunk.rowid);
    await index.upsert(slot, [
      {
        rowid: chunk.rowid,
        chunkId: "chk_replaced",
        userId: "usr_a",
        docType: "source",
        vector: clustered(1, 16, 6)[0]!,
      },
    ]);
    expect(await sqlRow(db, "SELECT 1 FROM chunk_vectors WHERE chunk_rowid = ?", chunk.rowid)).toBeUndefined();
    await index.upsert(slot, [
      {
        rowid: chunk.rowid,
        chunkId: chunk.chunkId,
        userId: "usr_a",
        docType: "source",
        vector: clustered(1, 16, 6)[0]!,
      },
    ]);
    expect(await sqlRow(db, "SELECT 1 FROM chunk_vectors WHERE chunk_rowid = ?", chunk.rowid)).toBeDefined();
  });

  // vec0 code tables per scheme version are SQLite's; PostgreSQL's one chunk_codes table is tested below.
  test.skipIf(postgres)(
    "a missing code table (after an upgrade) is rebuilt from the float vectors; the old one is dropped",
    async () => {
      const vectors = clustered(200, 32, 8);
      const { db, slot, rowOf } = await indexOf(vectors);
      const t = `vecidx_${slot.slot}`;
      asSqlite(db).sqlite.exec(`DROP TRIGGER chunks_ad_${t}; DROP TABLE ${t}`);
      asSqlite(db).sqlite.exec(
        `CREATE VIRTUAL TABLE vecbin_${slot.slot} USING vec0(user_id text partition key, doc_type text, embedding bit[32])`,
      );
      const fresh = createVectorIndex(db, createVectorsRepo(db)); // a new process
      await fresh.prepare();
      const tables = asSqlite(db)
        .sqlite.query<{ name: string }, []>(
          "SELECT name FROM sqlite_master WHERE name LIKE 'vec%' AND type = 'table' AND name NOT LIKE '%\\_%\\_%' ESCAPE '\\'",
        )
        .all();
      expect(tables.map((r) => r.name)).toEqual([t]);
      expect(asSqlite(db).sqlite.query<{ n: number }, []>(`SELECT count(*) n FROM ${t}`).get()!.n).toBe(200);
      const hits = await fresh.knn((await fresh.active())!, "usr_a", vectors[42]!, { k: 1, candidates: 512 });
      expect(rowOf.get(hits[0]!.rowid)).toBe(42);
      // The delete trigger came back too.
      asSqlite(db).sqlite.query("DELETE FROM chunks WHERE doc_id = 'doc_42'").run();
      expect(asSqlite(db).sqlite.query<{ n: number }, []>(`SELECT count(*) n FROM ${t}`).get()!.n).toBe(199);
    },
  );

  test("activating a new model drops the old model's vectors and codes", async () => {
    const { db, index, slot } = await indexOf(clustered(20, 16, 9));
    const next = await index.ensureSlot("next-model", 8);
    const rows = await sqlRows<{ rowid: number }>(db, "SELECT id rowid FROM chunks");
    await index.upsert(
      next,
      rows.map((r) => ({ rowid: r.rowid, userId: "usr_a", docType: "source", vector: clustered(1, 8, r.rowid)[0]! })),
    );
    await index.activate(next.slot);
    expect((await index.active())!.model).toBe("next-model");
    expect((await sqlRow<{ n: number }>(db, "SELECT count(*) n FROM chunk_vectors WHERE slot = ?", slot.slot))!.n).toBe(
      0,
    );
    if (postgres) {
      expect((await sqlRow<{ n: number }>(db, "SELECT count(*) n FROM chunk_codes WHERE slot = ?", slot.slot))!.n).toBe(
        0,
      );
    } else {
      expect(await sqlRow(db, "SELECT 1 FROM sqlite_master WHERE name = ?", `vecidx_${slot.slot}`)).toBeUndefined();
    }
  });
});

describe.skipIf(!postgres)("upkeep on PostgreSQL", () => {
  test("codes missing for some float vectors (a copy that brought floats only) are rebuilt at prepare", async () => {
    const vectors = clustered(200, 32, 8);
    const { db, slot, rowOf } = await indexOf(vectors);
    await sqlRows(db, "DELETE FROM chunk_codes WHERE slot = ? AND chunk_rowid % 3 = 0", slot.slot);
    const fresh = createVectorIndex(db, createVectorsRepo(db), { memoryBytes: 0 }); // a new process, searching the table
    await fresh.prepare();
    const count = async () =>
      (await sqlRow<{ n: number }>(db, "SELECT count(*) n FROM chunk_codes WHERE slot = ?", slot.slot))!.n;
    expect(await count()).toBe(200);
    const hits = await fresh.knn((await fresh.active())!, "usr_a", vectors[42]!, { k: 1, candidates: 512 });
    expect(rowOf.get(hits[0]!.rowid)).toBe(42);
    // A deleted chunk takes its code and vector with it (foreign keys).
    await sqlRows(db, "DELETE FROM chunks WHERE doc_id = 'doc_42'");
    expect(await count()).toBe(199);
  });
});

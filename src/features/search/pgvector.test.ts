// Vector search through pgvector (against a real pgvector: PGlite over the wire protocol) and the
// detection that keeps the bit-code path wherever the extension cannot be created.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../../config.ts";
import { openTestDatabase } from "../../db/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import type { EngineDb } from "../../db/port.ts";
import type { DocType } from "./chunks-repo.ts";
import { createChunksRepo, createVectorsRepo } from "../../stores.ts";
import { hnswIndexName, knnSql, type Pgvector } from "./pgvector-repo.ts";
import { type PgliteServer, pgliteClient, startPglite } from "./pgvector.fixture.ts";
import { createVectorIndex, type ModelSlot } from "./vectors.ts";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const DIMS = 24;
const USERS = ["usr_a", "usr_b"];
const owner = (i: number) => USERS[i % 2]!;
const type = (i: number): DocType => (i % 3 === 0 ? "note" : "source");

function vectorsOf(count: number, seed: number): Float32Array[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => Float32Array.from({ length: DIMS }, () => r() - 0.5));
}

const cosineDistance = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return 1 - dot / Math.sqrt(na * nb);
};

/** Chunks doc_0…doc_n (owner and type by index), their vectors stored under a slot of `model`. */
async function seed(
  db: EngineDb,
  vectors: Float32Array[],
  opts: { model?: string; pgvector?: "auto" | "off"; from?: number } = {},
) {
  const chunks = createChunksRepo(db);
  const index = createVectorIndex(db, createVectorsRepo(db, { pgvector: opts.pgvector }), { memoryBytes: 0 });
  const from = opts.from ?? 0;
  for (const [j] of vectors.entries()) {
    const i = from + j;
    await chunks.replace({ type: type(i), id: `doc_${i}`, userId: owner(i), title: "" }, [
      { index: 0, text: `chunk ${i}`, start: 0, end: 7, heading: null, tokenCount: 2 },
    ]);
  }
  const rows = await sqlRows<{ rowid: number; docId: string }>(db, 'SELECT id rowid, doc_id "docId" FROM chunks');
  const slot = await index.ensureSlot(opts.model ?? "m1", DIMS);
  const fresh = rows.filter((r) => Number(r.docId.slice(4)) >= from);
  await index.upsert(
    slot,
    fresh.map((r) => {
      const i = Number(r.docId.slice(4));
      return { rowid: r.rowid, userId: owner(i), docType: type(i), vector: vectors[i - from]! };
    }),
  );
  return { index, slot, rowOf: new Map(rows.map((r) => [r.rowid, Number(r.docId.slice(4))])) };
}

/** Exact cosine KNN in TypeScript over the owner's (and type's) vectors: the expected answer. */
function exactKnn(all: Float32Array[], query: Float32Array, userId: string, k: number, docType?: DocType) {
  return all
    .map((v, i) => ({ i, d: cosineDistance(query, v) }))
    .filter((x) => owner(x.i) === userId && (!docType || type(x.i) === docType))
    .sort((a, b) => a.d - b.d)
    .slice(0, k);
}

describe("detection on this test run's engine (no pgvector here)", () => {
  test("answers 'no pgvector' and vector search keeps its recall through the bit codes", async () => {
    const db = openTestDatabase();
    try {
      const all = vectorsOf(120, 3);
      const { index, slot, rowOf } = await seed(db, all);
      expect(await index.annEngine()).toBeNull();
      if (db.engine === "postgres") {
        // The column is added only with the extension: the table is as the migration made it.
        const col = await sqlRow(
          db,
          "SELECT 1 x FROM pg_attribute WHERE attrelid = 'chunk_vectors'::regclass AND attname = 'vec'",
        );
        expect(col).toBeUndefined();
      }
      let found = 0;
      for (const q of vectorsOf(8, 99)) {
        const got = await index.knn(slot, "usr_a", q, { k: 10, candidates: 512 });
        const want = exactKnn(all, q, "usr_a", 10).map((x) => x.i);
        found += got.filter((h) => want.includes(rowOf.get(h.rowid)!)).length;
      }
      expect(found / 80).toBeGreaterThanOrEqual(0.95);
    } finally {
      await db.end();
      if (db.engine !== "postgres") db.close();
    }
  }, 30_000);
});

// PGlite is PostgreSQL 18 with pgvector 0.8; one instance serves every test below, each on a fresh schema.
describe("pgvector (PGlite over the wire protocol)", () => {
  let server: PgliteServer;
  beforeAll(async () => {
    server = await startPglite();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  }, 10_000);

  const pvOf = async (db: EngineDb): Promise<Pgvector> => {
    const row = await sqlRow<{ version: string }>(
      db,
      "SELECT extversion version FROM pg_extension WHERE extname = 'vector'",
    );
    return {
      version: row!.version,
      type: '"public".vector',
      op: 'OPERATOR("public".<=>)',
      opclass: '"public".vector_cosine_ops',
      iterative: true,
    };
  };

  test("detection creates the extension and the column; KNN equals exact cosine KNN, per owner and type", async () => {
    const db = await server.fresh();
    const all = vectorsOf(240, 7);
    const { index, slot, rowOf } = await seed(db, all);
    expect(await index.annEngine()).toMatch(/^pgvector 0\.(8|9)/);
    const repo = createVectorsRepo(db);
    for (const [n, q] of vectorsOf(6, 41).entries()) {
      const userId = owner(n);
      const docType = n % 2 ? type(1) : undefined;
      const want = exactKnn(all, q, userId, 10, docType);
      // Straight through the HNSW query (null would mean "not ready, use the codes").
      const direct = await repo.ann!.knn(slot, userId, q, 10, docType);
      expect(direct).not.toBeNull();
      const got = await index.knn(slot, userId, q, { k: 10, candidates: 512, docType });
      for (const hits of [direct!, got]) {
        expect(hits.map((h) => rowOf.get(h.rowid))).toEqual(want.map((x) => x.i));
        for (const [j, h] of hits.entries()) expect(h.distance).toBeCloseTo(want[j]!.d, 5);
      }
    }
    // Exact distances (re-rank of given chunks) come from <=> too, and still check the owner.
    const q = vectorsOf(1, 5)[0]!;
    const ids = [...rowOf.keys()].slice(0, 20);
    const among = await repo.exactAmong(slot.slot, q, ids);
    expect(among).toHaveLength(20);
    for (const h of among) expect(h.distance).toBeCloseTo(cosineDistance(q, all[rowOf.get(h.rowid)!]!), 5);
    const scoped = await index.exactInScope(slot, q, { userId: "usr_b", docType: "note" }, 7);
    expect(scoped.map((h) => rowOf.get(h.rowid))).toEqual(exactKnn(all, q, "usr_b", 7, "note").map((x) => x.i));
    const reranked = await repo.rerank(slot.slot, q, "usr_a", ids);
    expect(reranked.every((h) => owner(rowOf.get(h.rowid)!) === "usr_a")).toBe(true);
    expect(reranked).toHaveLength(10);
  }, 15_000);

  test("the KNN statement is answered by the slot's HNSW index when the planner may not scan", async () => {
    const db = await server.fresh();
    const { slot } = await seed(db, vectorsOf(60, 8));
    const pv = await pvOf(db);
    const sql = pgliteClient(server.url);
    try {
      const statements = knnSql(pv, slot.slot, DIMS, "usr_a", vectorsOf(1, 9)[0]!, 5).split(";");
      const knn = statements[statements.length - 1]!;
      // One backend session: these settings hold for the EXPLAIN below (and are reset after).
      await sql.unsafe("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off").simple();
      const plan = (await sql.unsafe(`EXPLAIN ${knn}`)).map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain(hnswIndexName(slot.slot));
    } finally {
      await sql.unsafe("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort").simple();
      await sql.end();
    }
  }, 15_000);

  test("deleted chunks and a retired slot leave nothing behind", async () => {
    const db = await server.fresh();
    const all = vectorsOf(60, 11);
    const { index, slot, rowOf } = await seed(db, all);
    await index.activate(slot.slot);
    const q = all[0]!; // doc_0 (usr_a) is its own nearest neighbour
    expect(rowOf.get((await index.knn(slot, "usr_a", q, { k: 1, candidates: 64 }))[0]!.rowid)).toBe(0);
    await createChunksRepo(db).remove("note", "doc_0");
    const after = await index.knn(slot, "usr_a", q, { k: 5, candidates: 64 });
    expect(after.map((h) => rowOf.get(h.rowid))).not.toContain(0);
    expect(after).toHaveLength(5);

    const next = await index.ensureSlot("m2", DIMS);
    expect(await sqlRow(db, "SELECT 1 x FROM pg_indexes WHERE indexname = ?", hnswIndexName(next.slot))).toBeDefined();
    await index.activate(next.slot);
    expect(
      await sqlRow(db, "SELECT 1 x FROM pg_indexes WHERE indexname = ?", hnswIndexName(slot.slot)),
    ).toBeUndefined();
    expect(await sqlRow(db, "SELECT count(*) n FROM chunk_vectors WHERE slot = ?", slot.slot)).toEqual({ n: 0 });
    expect(await sqlRow(db, "SELECT count(*) n FROM chunk_codes WHERE slot = ?", slot.slot)).toEqual({ n: 0 });
  }, 15_000);

  test("rows written without pgvector are backfilled; searches use the codes until then", async () => {
    const db = await server.fresh();
    const first = vectorsOf(80, 21);
    // A deployment that ran without the extension (PGVECTOR=off): no column, vectors as bytes only.
    const before = await seed(db, first, { pgvector: "off" });
    expect(await before.index.annEngine()).toBeNull();
    expect(await sqlRow(db, "SELECT 1 x FROM pg_extension WHERE extname = 'vector'")).toBeUndefined();

    // Next start with auto: the extension and column appear, the old rows lack `vec`.
    const index = createVectorIndex(db, createVectorsRepo(db), { memoryBytes: 0 });
    expect(await index.annEngine()).toMatch(/^pgvector/);
    const repo = createVectorsRepo(db);
    const slot = (await index.bySlot(before.slot.slot)) as ModelSlot;
    const q = vectorsOf(1, 22)[0]!;
    const viaCodes = await before.index.knn(slot, "usr_b", q, { k: 8, candidates: 512 });
    expect(viaCodes.map((h) => before.rowOf.get(h.rowid))).toEqual(exactKnn(first, q, "usr_b", 8).map((x) => x.i));
    // Not ready: null (the caller uses the codes), and the backfill starts in the background. Joined
    // here before anything else runs: PGlite cannot interleave two connections' statements.
    expect(await repo.ann!.knn(slot, "usr_b", q, 8)).toBeNull();
    await repo.ann!.upgrade(slot);
    expect(await sqlRow(db, "SELECT count(*) n FROM chunk_vectors WHERE vec IS NULL")).toEqual({ n: 0 });
    const valid = await sqlRow<{ v: boolean }>(
      db,
      "SELECT indisvalid v FROM pg_index WHERE indexrelid = to_regclass(?)",
      hnswIndexName(slot.slot),
    );
    expect(valid?.v).toBe(true);
    const viaHnsw = await repo.ann!.knn(slot, "usr_b", q, 8);
    expect(viaHnsw!.map((h) => before.rowOf.get(h.rowid))).toEqual(exactKnn(first, q, "usr_b", 8).map((x) => x.i));

    // A process still running PGVECTOR=off rewrites a vector: its `vec` is cleared, not left stale.
    const off = createVectorIndex(db, createVectorsRepo(db, { pgvector: "off" }), { memoryBytes: 0 });
    const [row] = await sqlRows<{ rowid: number }>(db, "SELECT id rowid FROM chunks WHERE doc_id = 'doc_1'");
    await off.upsert(slot, [{ rowid: row!.rowid, userId: "usr_b", docType: type(1), vector: q }]);
    expect(await sqlRow(db, "SELECT count(*) n FROM chunk_vectors WHERE vec IS NULL")).toEqual({ n: 1 });
    await index.upgradeAnn(); // what prepare() starts at every process start
    const nearest = await repo.ann!.knn(slot, "usr_b", q, 1);
    expect(nearest![0]!.rowid).toBe(row!.rowid);
    expect(nearest![0]!.distance).toBeCloseTo(0, 5);
  }, 15_000);
});

if (!databaseUrl()) {
  // On SQLite the vec0 code table is the index: the repository offers no engine index at all.
  test("SQLite has no engine index", () => {
    const db = openTestDatabase();
    expect(createVectorsRepo(db).ann).toBeUndefined();
    db.close();
  });
}

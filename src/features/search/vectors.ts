// The vector index: per embedding model, float vectors for exact re-ranking (chunk_vectors) and a
// sqlite-vec vec0 table of binary codes, partitioned by owner (and shard), also held in memory per
// owner (code-store.ts) and scanned there for candidates. On PostgreSQL with pgvector, owners not held
// in memory are searched through the repository's HNSW index instead of the code table.
import type { Db } from "../../db/port.ts";
import type { Logger } from "../../log.ts";
import { createEncoder, type Encoder } from "./binary-codes.ts";
import { createCodeCache } from "./code-cache.ts";
import type { CodeStore } from "./code-store.ts";
import type { ChunkScope } from "./chunks-repo.ts";
import type { Distance, ModelSlot } from "./vector-types.ts";
import { SHARDS, type VectorsRepo } from "./vectors-repo.ts";

export type { ModelSlot } from "./vector-types.ts";

export interface VectorRow {
  rowid: number;
  /** When given, the vector is stored only if the chunk still has this id (it may have been replaced meanwhile). */
  chunkId?: string;
  userId: string;
  docType: string;
  vector: Float32Array;
}

export interface MissingChunk {
  rowid: number;
  chunkId: string;
  userId: string;
  docType: string;
  text: string;
  title: string;
  heading: string | null;
}

const MAX_K = 4096;
const REBUILD_BATCH = 2048;

export interface VectorIndexOptions {
  /** Budget for owners' codes held in memory; an owner whose codes exceed it is searched in SQLite. */
  memoryBytes?: number;
  logger?: Logger;
}

/** `repo` is the engine's (src/stores.ts): sqlite-vec code tables, or PostgreSQL's (with pgvector when it may). */
export function createVectorIndex(db: Db, repo: VectorsRepo, opts: VectorIndexOptions = {}) {
  const encoders = new Map<number, Encoder>();
  const ready = new Set<number>(); // slots whose code table is known to exist
  const memory = createCodeCache(repo, opts.memoryBytes ?? 256 * 1024 * 1024);
  const slots = () => repo.slots();

  function encoder(dimensions: number): Encoder {
    let e = encoders.get(dimensions);
    if (!e) encoders.set(dimensions, (e = createEncoder(dimensions)));
    return e;
  }

  async function dropCodeTables(slot: number): Promise<void> {
    await repo.dropCodeTables(slot, { current: true });
    ready.delete(slot);
    memory.dropSlot(slot);
  }

  async function createCodeTable(slot: ModelSlot): Promise<void> {
    await repo.createCodeTable(slot.slot, encoder(slot.dimensions).shape.bits, slot.dimensions);
  }

  /** Writes codes for float vectors, replacing any previous code of the same chunk. */
  async function putCodes(
    slot: ModelSlot,
    rows: { rowid: number; userId: string; docType: string; vector: Float32Array }[],
    rebuild = false,
  ): Promise<void> {
    const enc = encoder(slot.dimensions);
    const coded = rows.map((r) => ({ ...r, code: enc.encode(r.vector) }));
    await repo.putCodes(slot.slot, coded);
    const missed = coded.filter((r) => !memory.put(slot.slot, r.userId, r.rowid, r.docType, r.code, r.vector));
    // A store not in memory now may be loaded by a search on another connection before this commits,
    // from a read that cannot see these rows: put them again once they are committed (a store loading
    // then takes them when its load ends). A rebuild runs before any store of its slot is loaded.
    if (missed.length && !rebuild) {
      db.afterCommit(() => {
        for (const r of missed) memory.put(slot.slot, r.userId, r.rowid, r.docType, r.code, r.vector);
      });
    }
  }

  /** Makes sure a slot's code table exists, rebuilding it from the float vectors (after an upgrade). */
  async function ensureCodes(slot: ModelSlot): Promise<void> {
    if (ready.has(slot.slot)) return;
    if (!(await repo.codeTableExists(slot.slot))) {
      await db.tx(async () => {
        if (await repo.codeTableExists(slot.slot)) return; // another job rebuilt it meanwhile
        await repo.dropCodeTables(slot.slot, { current: false });
        await createCodeTable(slot);
        for (let after = 0; ; ) {
          const rows = await repo.floatPage(slot.slot, after, REBUILD_BATCH);
          if (rows.length === 0) break;
          await putCodes(
            slot,
            rows.map((r) => ({
              ...r,
              vector: new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4),
            })),
            true,
          );
          after = rows[rows.length - 1]!.rowid;
        }
      });
    }
    ready.add(slot.slot);
  }

  /** Candidates from the vec0 code table: each shard of the owner's partition asked for its best. */
  async function shardCandidates(
    slot: ModelSlot,
    userId: string,
    code: Uint8Array,
    opts: { candidates: number; docType?: string },
  ): Promise<number[]> {
    const perShard = Math.min(MAX_K, Math.ceil(opts.candidates / SHARDS));
    return repo.shardCandidates(slot.slot, userId, code, perShard, opts.docType);
  }

  /** Exact cosine distances of the given chunks (those with a vector under the slot). */
  const exactAmong = (slot: ModelSlot, query: Float32Array, ids: number[]) => repo.exactAmong(slot.slot, query, ids);

  /**
   * KNN from the owner's codes in memory: candidates by Hamming distance, ordered by the cosine of
   * their int8 vectors (within ~0.01 of the exact one), the best k checked against SQLite for owner
   * and type (a code left behind by a deleted chunk is dropped here and forgotten). Candidates whose
   * vector is not held yet are scored exactly from the float vectors.
   */
  async function fromMemory(
    store: CodeStore,
    slot: ModelSlot,
    userId: string,
    query: Float32Array,
    code: Uint8Array,
    opts: { k: number; candidates: number; docType?: string },
  ) {
    const { hits, unknown } = store.best(code, query, opts.candidates, opts.k, opts.docType);
    const ids = [...hits.map((h) => h.rowid), ...unknown];
    if (ids.length === 0) return [];
    const live = await repo.liveChunks(userId, ids, opts.docType);
    for (const id of ids) if (!live.has(id)) store.remove(id);
    const out = hits.filter((h) => live.has(h.rowid)).map((h) => ({ rowid: h.rowid, distance: 1 - h.cos }));
    const pending = unknown.filter((id) => live.has(id));
    if (pending.length > 0) {
      out.push(...(await exactAmong(slot, query, pending)));
    }
    out.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
    return out.slice(0, opts.k);
  }

  /**
   * The repository detects pgvector once, with DDL on a connection of its own; awaited here before
   * any transaction is opened, so that first detection never waits on a lock this process holds.
   */
  const detected = async (): Promise<void> => {
    await repo.ann?.engine();
  };

  async function upgradeAnn(): Promise<void> {
    const ann = repo.ann;
    if (!ann || !(await ann.engine())) return;
    for (const s of await slots()) if (s.state !== "retired") await ann.upgrade(s);
  }

  return {
    slots,
    async active(): Promise<ModelSlot | null> {
      return (await slots()).find((s) => s.state === "active") ?? null;
    },
    async bySlot(slot: number): Promise<ModelSlot | null> {
      return (await slots()).find((s) => s.slot === slot) ?? null;
    },
    async byModel(model: string): Promise<ModelSlot | null> {
      return (await slots()).find((s) => s.model === model && s.state !== "retired") ?? null;
    },

    /**
     * Builds the code tables that are missing (after an upgrade of the code scheme). Call at start.
     * With pgvector, slots that have vectors are then readied for it in the background (their `vec`
     * backfilled, their HNSW index built): searches use the codes until that is done.
     */
    async prepare(): Promise<void> {
      await detected();
      for (const s of await slots()) if (s.state !== "retired") await ensureCodes(s);
      void upgradeAnn().catch((err) => opts.logger?.warn("pgvector upgrade failed", { err: String(err) }));
    },

    /** The engine's own index readied for every live slot (see prepare); awaited by tests. */
    upgradeAnn,

    /** "pgvector 0.8.0" when the repository searches through pgvector, else null (bit codes). */
    annEngine: async (): Promise<string | null> => (repo.ann ? repo.ann.engine() : null),

    /** The slot for a model, created (state building) with its vec0 table on first use. */
    async ensureSlot(model: string, dimensions: number): Promise<ModelSlot> {
      const usable = (existing: ModelSlot | undefined) => {
        if (!existing || existing.state === "retired") return undefined;
        if (existing.dimensions !== dimensions) {
          throw new Error(
            `embedding model ${model} returned ${dimensions} dimensions; its index has ${existing.dimensions}`,
          );
        }
        return existing;
      };
      const found = usable((await slots()).find((s) => s.model === model));
      if (found) return found;
      await detected();
      return db.tx(async () => {
        // Looked up again inside the transaction: two embed jobs may both have found no slot.
        const existing = (await slots()).find((s) => s.model === model);
        const again = usable(existing);
        if (again) return again;
        const n = await repo.insertSlot(model, dimensions, existing ? existing.slot : null, new Date().toISOString());
        const slot = { slot: n, model, dimensions, state: "building" as const };
        await dropCodeTables(slot.slot); // a slot number can come back after its row was deleted
        await createCodeTable(slot);
        ready.add(slot.slot);
        return slot;
      });
    },

    /** Makes a slot the one searches use and drops the others' data. */
    async activate(slot: number): Promise<void> {
      await detected();
      await db.tx(async () => {
        for (const s of await slots()) {
          if (s.slot === slot || s.state === "retired") continue;
          await dropCodeTables(s.slot);
          await repo.retireSlot(s.slot);
        }
        await repo.markActive(slot, new Date().toISOString());
      });
    },

    async upsert(slot: ModelSlot, rows: VectorRow[]): Promise<void> {
      await detected();
      await ensureCodes(slot);
      for (const r of rows) {
        if (r.vector.length !== slot.dimensions)
          throw new Error(`vector of ${r.vector.length} dimensions for a ${slot.dimensions}-dimension index`);
      }
      await db.tx(async () => putCodes(slot, await repo.putFloats(slot.slot, slot.dimensions, rows)));
    },

    /** Per document: how many chunks it has and how many of them have a vector in this slot. */
    async progress(
      slot: number,
      docType: string,
      ids: string[],
    ): Promise<Map<string, { done: number; total: number }>> {
      const rows = await repo.progress(slot, docType, ids);
      return new Map(rows.map((r) => [r.id, { done: r.done, total: r.total }]));
    },

    /** Chunks of the given documents (or of everyone) that have no vector in this slot yet. */
    async missing(slot: number, limit: number, doc?: { type: string; id: string }): Promise<MissingChunk[]> {
      return repo.missing<MissingChunk>(slot, limit, doc);
    },

    /**
     * Approximate KNN: Hamming-distance candidates (the owner's codes in memory, or the code
     * table's owner partition, each shard, when they do not fit the budget), re-ranked by exact
     * cosine distance over the float vectors. The re-rank checks owner and type in SQLite, so a
     * stale code in memory can cost a candidate but never show another owner's chunk.
     */
    async knn(
      slot: ModelSlot,
      userId: string,
      query: Float32Array,
      opts: { k: number; candidates: number; docType?: string },
    ): Promise<Distance[]> {
      await detected();
      await ensureCodes(slot);
      const code = encoder(slot.dimensions).encode(query);
      const store = await memory.store(slot, userId, encoder(slot.dimensions).shape.bits);
      if (store) return fromMemory(store, slot, userId, query, code, opts);
      const ann = await repo.ann?.knn(slot, userId, query, opts.k, opts.docType);
      if (ann) return ann;
      const cands = await shardCandidates(slot, userId, code, opts);
      if (cands.length === 0) return [];
      const rows = await repo.rerank(slot.slot, query, userId, cands, opts.docType);
      rows.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
      return rows.slice(0, opts.k);
    },

    /**
     * Cosine similarity of some of the owner's chunks with `query`: from the int8 copies held in
     * memory where the owner's codes are loaded, else exactly from the float vectors.
     */
    async similarities(
      slot: ModelSlot,
      userId: string,
      query: Float32Array,
      ids: number[],
    ): Promise<Map<number, number>> {
      const held = (await memory.loaded(slot.slot, userId))?.cosines(query, ids) ?? new Map<number, number>();
      const rest = ids.filter((id) => !held.has(id));
      for (const r of await exactAmong(slot, query, rest)) held.set(r.rowid, 1 - r.distance);
      return held;
    },

    /** Bytes of codes held in memory (all owners). */
    memoryBytes: () => memory.bytes(),

    /** Exact KNN over the chunks a scope selects (a notebook's, some sources'), for filtered searches. */
    async exactInScope(slot: ModelSlot, query: Float32Array, scope: ChunkScope, k: number): Promise<Distance[]> {
      return repo.exactInScope(slot.slot, query, scope, k);
    },
  };
}
export type VectorIndex = ReturnType<typeof createVectorIndex>;

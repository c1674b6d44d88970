// The vector index: per embedding model, float vectors for exact re-ranking (chunk_vectors) and a
// sqlite-vec vec0 table of binary codes, partitioned by owner (and shard), also held in memory per
// owner (code-store.ts) and scanned there for candidates.
import type { Db } from "../../db/port.ts";
import { createEncoder, type Encoder } from "./binary-codes.ts";
import { createCodeCache } from "./code-cache.ts";
import type { CodeStore } from "./code-store.ts";
import type { ChunkScope } from "./chunks-repo.ts";
import { createVectorsRepo, type Distance, SHARDS } from "./vectors-repo.ts";

export interface ModelSlot {
  slot: number;
  model: string;
  dimensions: number;
  state: "building" | "active" | "retired";
}

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
}

export function createVectorIndex(db: Db, opts: VectorIndexOptions = {}) {
  const repo = createVectorsRepo(db);
  const encoders = new Map<number, Encoder>();
  const ready = new Set<number>(); // slots whose code table is known to exist
  const memory = createCodeCache(repo, opts.memoryBytes ?? 256 * 1024 * 1024);
  const slots = () => repo.slots();

  function encoder(dimensions: number): Encoder {
    let e = encoders.get(dimensions);
    if (!e) encoders.set(dimensions, (e = createEncoder(dimensions)));
    return e;
  }

  function dropCodeTables(slot: number): void {
    repo.dropCodeTables(slot, { current: true });
    ready.delete(slot);
    memory.dropSlot(slot);
  }

  function createCodeTable(slot: ModelSlot): void {
    repo.createCodeTable(slot.slot, encoder(slot.dimensions).shape.bits);
  }

  /** Writes codes for float vectors, replacing any previous code of the same chunk. */
  function putCodes(slot: ModelSlot, rows: { rowid: number; userId: string; docType: string; vector: Float32Array }[]): void {
    const enc = encoder(slot.dimensions);
    const coded = rows.map((r) => ({ ...r, code: enc.encode(r.vector) }));
    repo.putCodes(slot.slot, coded);
    for (const r of coded) memory.put(slot.slot, r.userId, r.rowid, r.docType, r.code, r.vector);
  }

  /** Makes sure a slot's code table exists, rebuilding it from the float vectors (after an upgrade). */
  function ensureCodes(slot: ModelSlot): void {
    if (ready.has(slot.slot)) return;
    if (!repo.codeTableExists(slot.slot)) {
      db.tx(() => {
        repo.dropCodeTables(slot.slot, { current: false });
        createCodeTable(slot);
        for (let after = 0; ; ) {
          const rows = repo.floatPage(slot.slot, after, REBUILD_BATCH);
          if (rows.length === 0) break;
          putCodes(
            slot,
            rows.map((r) => ({ ...r, vector: new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4) })),
          );
          after = rows[rows.length - 1]!.rowid;
        }
      });
    }
    ready.add(slot.slot);
  }

  /** Candidates from the vec0 code table: each shard of the owner's partition asked for its best. */
  function shardCandidates(slot: ModelSlot, userId: string, code: Uint8Array, opts: { candidates: number; docType?: string }): number[] {
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
  function fromMemory(store: CodeStore, slot: ModelSlot, userId: string, query: Float32Array, code: Uint8Array, opts: { k: number; candidates: number; docType?: string }) {
    const { hits, unknown } = store.best(code, query, opts.candidates, opts.k, opts.docType);
    const ids = [...hits.map((h) => h.rowid), ...unknown];
    if (ids.length === 0) return [];
    const live = repo.liveChunks(userId, ids, opts.docType);
    for (const id of ids) if (!live.has(id)) store.remove(id);
    const out = hits.filter((h) => live.has(h.rowid)).map((h) => ({ rowid: h.rowid, distance: 1 - h.cos }));
    const pending = unknown.filter((id) => live.has(id));
    if (pending.length > 0) {
      out.push(...exactAmong(slot, query, pending));
    }
    out.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
    return out.slice(0, opts.k);
  }

  return {
    slots,
    active(): ModelSlot | null {
      return slots().find((s) => s.state === "active") ?? null;
    },
    bySlot(slot: number): ModelSlot | null {
      return slots().find((s) => s.slot === slot) ?? null;
    },
    byModel(model: string): ModelSlot | null {
      return slots().find((s) => s.model === model && s.state !== "retired") ?? null;
    },

    /** Builds the code tables that are missing (after an upgrade of the code scheme). Call at start. */
    prepare(): void {
      for (const s of slots()) if (s.state !== "retired") ensureCodes(s);
    },

    /** The slot for a model, created (state building) with its vec0 table on first use. */
    ensureSlot(model: string, dimensions: number): ModelSlot {
      const existing = slots().find((s) => s.model === model);
      if (existing && existing.state !== "retired") {
        if (existing.dimensions !== dimensions) {
          throw new Error(`embedding model ${model} returned ${dimensions} dimensions; its index has ${existing.dimensions}`);
        }
        return existing;
      }
      return db.tx(() => {
        const n = repo.insertSlot(model, dimensions, existing ? existing.slot : null, new Date().toISOString());
        const slot = { slot: n, model, dimensions, state: "building" as const };
        dropCodeTables(slot.slot); // a slot number can come back after its row was deleted
        createCodeTable(slot);
        ready.add(slot.slot);
        return slot;
      });
    },

    /** Makes a slot the one searches use and drops the others' data. */
    activate(slot: number): void {
      db.tx(() => {
        for (const s of slots()) {
          if (s.slot === slot || s.state === "retired") continue;
          dropCodeTables(s.slot);
          repo.retireSlot(s.slot);
        }
        repo.markActive(slot, new Date().toISOString());
      });
    },

    upsert(slot: ModelSlot, rows: VectorRow[]): void {
      ensureCodes(slot);
      for (const r of rows) {
        if (r.vector.length !== slot.dimensions) throw new Error(`vector of ${r.vector.length} dimensions for a ${slot.dimensions}-dimension index`);
      }
      db.tx(() => putCodes(slot, repo.putFloats(slot.slot, slot.dimensions, rows)));
    },

    /** Per document: how many chunks it has and how many of them have a vector in this slot. */
    progress(slot: number, docType: string, ids: string[]): Map<string, { done: number; total: number }> {
      const rows = repo.progress(slot, docType, ids);
      return new Map(rows.map((r) => [r.id, { done: r.done, total: r.total }]));
    },

    /** Chunks of the given documents (or of everyone) that have no vector in this slot yet. */
    missing(slot: number, limit: number, doc?: { type: string; id: string }): MissingChunk[] {
      return repo.missing<MissingChunk>(slot, limit, doc);
    },

    /**
     * Approximate KNN: Hamming-distance candidates (the owner's codes in memory, or the code
     * table's owner partition, each shard, when they do not fit the budget), re-ranked by exact
     * cosine distance over the float vectors. The re-rank checks owner and type in SQLite, so a
     * stale code in memory can cost a candidate but never show another owner's chunk.
     */
    knn(slot: ModelSlot, userId: string, query: Float32Array, opts: { k: number; candidates: number; docType?: string }): Distance[] {
      ensureCodes(slot);
      const code = encoder(slot.dimensions).encode(query);
      const store = memory.store(slot, userId, encoder(slot.dimensions).shape.bits);
      if (store) return fromMemory(store, slot, userId, query, code, opts);
      const cands = shardCandidates(slot, userId, code, opts);
      if (cands.length === 0) return [];
      const rows = repo.rerank(slot.slot, query, userId, cands, opts.docType);
      rows.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
      return rows.slice(0, opts.k);
    },

    /**
     * Cosine similarity of some of the owner's chunks with `query`: from the int8 copies held in
     * memory where the owner's codes are loaded, else exactly from the float vectors.
     */
    similarities(slot: ModelSlot, userId: string, query: Float32Array, ids: number[]): Map<number, number> {
      const held = memory.loaded(slot.slot, userId)?.cosines(query, ids) ?? new Map<number, number>();
      const rest = ids.filter((id) => !held.has(id));
      for (const r of exactAmong(slot, query, rest)) held.set(r.rowid, 1 - r.distance);
      return held;
    },

    /** Bytes of codes held in memory (all owners). */
    memoryBytes: () => memory.bytes(),

    /** Exact KNN over the chunks a scope selects (a notebook's, some sources'), for filtered searches. */
    exactInScope(slot: ModelSlot, query: Float32Array, scope: ChunkScope, k: number): Distance[] {
      return repo.exactInScope(slot.slot, query, scope, k);
    },
  };
}
export type VectorIndex = ReturnType<typeof createVectorIndex>;

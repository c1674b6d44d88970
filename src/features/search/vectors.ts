// The vector index: per embedding model, float vectors for exact re-ranking (chunk_vectors) and a
// sqlite-vec vec0 table of binary codes, partitioned by owner (and shard), also held in memory per
// owner (code-store.ts) and scanned there for candidates.
import type { Database } from "bun:sqlite";
import { createEncoder, type Encoder } from "./binary-codes.ts";
import { createCodeCache } from "./code-cache.ts";
import type { CodeStore } from "./code-store.ts";

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

// The code table's name carries its scheme version: a new scheme gets a new table, rebuilt from the
// float vectors, and the old one is dropped. v1 (vecbin_N) held signs of the raw coordinates.
const indexTable = (slot: number) => `vecidx_${slot}`;
const LEGACY_TABLES = (slot: number) => [`vecbin_${slot}`];
/**
 * vec0 picks its k nearest with a selection whose cost grows with rows × k, so asking one
 * partition for 512 candidates costs ~10× asking 16 shards for 32 each. Rows are spread over
 * shards by rowid; the union of the shards' top candidates is re-ranked exactly.
 */
const SHARDS = 16;
const MAX_K = 4096;
const REBUILD_BATCH = 2048;

const blob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export interface VectorIndexOptions {
  /** Budget for owners' codes held in memory; an owner whose codes exceed it is searched in SQLite. */
  memoryBytes?: number;
}

export function createVectorIndex(sqlite: Database, opts: VectorIndexOptions = {}) {
  const encoders = new Map<number, Encoder>();
  const ready = new Set<number>(); // slots whose code table is known to exist
  const memory = createCodeCache(sqlite, opts.memoryBytes ?? 256 * 1024 * 1024);

  function slots(): ModelSlot[] {
    return sqlite.query<ModelSlot, []>("SELECT slot, model, dimensions, state FROM embedding_models ORDER BY slot").all();
  }

  function encoder(dimensions: number): Encoder {
    let e = encoders.get(dimensions);
    if (!e) encoders.set(dimensions, (e = createEncoder(dimensions)));
    return e;
  }

  function dropCodeTables(slot: number): void {
    for (const t of [indexTable(slot), ...LEGACY_TABLES(slot)]) {
      sqlite.exec(`DROP TRIGGER IF EXISTS chunks_ad_${t}`);
      sqlite.exec(`DROP TABLE IF EXISTS ${t}`);
    }
    ready.delete(slot);
    memory.dropSlot(slot);
  }

  function createCodeTable(slot: ModelSlot): void {
    const t = indexTable(slot.slot);
    sqlite.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${t} USING vec0(user_id text partition key, shard integer partition key, doc_type text, embedding bit[${encoder(slot.dimensions).shape.bits}])`,
    );
    sqlite.exec(`CREATE TRIGGER IF NOT EXISTS chunks_ad_${t} AFTER DELETE ON chunks BEGIN DELETE FROM ${t} WHERE rowid = old.id; END`);
  }

  /** Writes codes for float vectors, replacing any previous code of the same chunk. */
  function putCodes(slot: ModelSlot, rows: { rowid: number; userId: string; docType: string; vector: Float32Array }[]): void {
    const t = indexTable(slot.slot);
    const enc = encoder(slot.dimensions);
    const del = sqlite.prepare(`DELETE FROM ${t} WHERE rowid = ?`);
    const put = sqlite.prepare(`INSERT INTO ${t} (rowid, user_id, shard, doc_type, embedding) VALUES (?, ?, ?, ?, vec_bit(?))`);
    for (const r of rows) {
      del.run(r.rowid);
      const code = enc.encode(r.vector);
      put.run(r.rowid, r.userId, r.rowid % SHARDS, r.docType, code);
      memory.put(slot.slot, r.userId, r.rowid, r.docType, code, r.vector);
    }
  }

  /** Makes sure a slot's code table exists, rebuilding it from the float vectors (after an upgrade). */
  function ensureCodes(slot: ModelSlot): void {
    if (ready.has(slot.slot)) return;
    const exists = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(indexTable(slot.slot));
    if (!exists) {
      sqlite
        .transaction(() => {
          for (const t of LEGACY_TABLES(slot.slot)) {
            sqlite.exec(`DROP TRIGGER IF EXISTS chunks_ad_${t}`);
            sqlite.exec(`DROP TABLE IF EXISTS ${t}`);
          }
          createCodeTable(slot);
          const page = sqlite.query<{ rowid: number; userId: string; docType: string; embedding: Uint8Array }, [number, number, number]>(
            `SELECT v.chunk_rowid rowid, c.user_id userId, c.doc_type docType, v.embedding FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
             WHERE v.slot = ? AND v.chunk_rowid > ? ORDER BY v.chunk_rowid LIMIT ?`,
          );
          for (let after = 0; ; ) {
            const rows = page.all(slot.slot, after, REBUILD_BATCH);
            if (rows.length === 0) break;
            putCodes(
              slot,
              rows.map((r) => ({ ...r, vector: new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4) })),
            );
            after = rows[rows.length - 1]!.rowid;
          }
        })
        .immediate();
    }
    ready.add(slot.slot);
  }

  /** Candidates from the vec0 code table: each shard of the owner's partition asked for its best. */
  function shardCandidates(slot: ModelSlot, userId: string, code: Uint8Array, opts: { candidates: number; docType?: string }): number[] {
    const perShard = Math.min(MAX_K, Math.ceil(opts.candidates / SHARDS));
    const typeFilter = opts.docType ? "AND doc_type = ?" : "";
    const shardQuery = sqlite.query<{ rowid: number }, any[]>(
      `SELECT rowid FROM ${indexTable(slot.slot)} WHERE embedding MATCH vec_bit(?) AND k = ? AND user_id = ? AND shard = ? ${typeFilter}`,
    );
    const cands: number[] = [];
    for (let shard = 0; shard < SHARDS; shard++) {
      const args: (string | number | Uint8Array)[] = [code, perShard, userId, shard];
      if (opts.docType) args.push(opts.docType);
      for (const r of shardQuery.all(...args)) cands.push(r.rowid);
    }
    return cands;
  }

  function exact(slot: ModelSlot, query: Float32Array, rowidsSql: string, rowidsArgs: (string | number)[], k: number): { rowid: number; distance: number }[] {
    return sqlite
      .query<{ rowid: number; distance: number }, any[]>(
        `SELECT chunk_rowid rowid, vec_distance_cosine(embedding, ?) distance FROM chunk_vectors
         WHERE slot = ? AND chunk_rowid IN (${rowidsSql}) ORDER BY distance LIMIT ?`,
      )
      .all(blob(query), slot.slot, ...rowidsArgs, k);
  }

  /** Exact cosine distances of the given chunks (those with a vector under the slot). */
  const exactAmong = (slot: ModelSlot, query: Float32Array, ids: number[]) =>
    ids.length === 0 ? [] : exact(slot, query, "SELECT value FROM json_each(?)", [JSON.stringify(ids)], ids.length);

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
    const typeFilter = opts.docType ? "AND c.doc_type = ?" : "";
    const args: string[] = [userId, JSON.stringify(ids)];
    if (opts.docType) args.push(opts.docType);
    const live = new Set(
      sqlite
        .query<{ id: number }, string[]>(`SELECT c.id FROM chunks c WHERE +c.user_id = ? AND c.id IN (SELECT value FROM json_each(?)) ${typeFilter.replace("c.doc_type", "+c.doc_type")}`)
        .all(...args)
        .map((r) => r.id),
    );
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
      return sqlite
        .transaction(() => {
          if (existing) sqlite.query("DELETE FROM embedding_models WHERE slot = ?").run(existing.slot);
          const row = sqlite
            .query<{ slot: number }, [string, number, string]>(
              "INSERT INTO embedding_models (model, dimensions, state, created_at) VALUES (?, ?, 'building', ?) RETURNING slot",
            )
            .get(model, dimensions, new Date().toISOString())!;
          const slot = { slot: row.slot, model, dimensions, state: "building" as const };
          dropCodeTables(slot.slot); // a slot number can come back after its row was deleted
          createCodeTable(slot);
          ready.add(slot.slot);
          return slot;
        })
        .immediate();
    },

    /** Makes a slot the one searches use and drops the others' data. */
    activate(slot: number): void {
      sqlite
        .transaction(() => {
          for (const s of slots()) {
            if (s.slot === slot || s.state === "retired") continue;
            dropCodeTables(s.slot);
            sqlite.query("DELETE FROM chunk_vectors WHERE slot = ?").run(s.slot);
            sqlite.query("UPDATE embedding_models SET state = 'retired' WHERE slot = ?").run(s.slot);
          }
          sqlite.query("UPDATE embedding_models SET state = 'active', activated_at = ? WHERE slot = ?").run(new Date().toISOString(), slot);
        })
        .immediate();
    },

    upsert(slot: ModelSlot, rows: VectorRow[]): void {
      ensureCodes(slot);
      const putFloat = sqlite.prepare("INSERT OR REPLACE INTO chunk_vectors (chunk_rowid, slot, dimensions, embedding) VALUES (?, ?, ?, ?)");
      const current = sqlite.prepare<{ chunkId: string }, [number]>("SELECT chunk_id chunkId FROM chunks WHERE id = ?");
      sqlite
        .transaction(() => {
          const kept: VectorRow[] = [];
          for (const r of rows) {
            if (r.vector.length !== slot.dimensions) throw new Error(`vector of ${r.vector.length} dimensions for a ${slot.dimensions}-dimension index`);
            // The chunk may have been replaced while it was being embedded (and its rowid reused).
            const now = current.get(r.rowid);
            if (!now || (r.chunkId !== undefined && now.chunkId !== r.chunkId)) continue;
            putFloat.run(r.rowid, slot.slot, slot.dimensions, blob(r.vector));
            kept.push(r);
          }
          putCodes(slot, kept);
        })
        .immediate();
    },

    /** Per document: how many chunks it has and how many of them have a vector in this slot. */
    progress(slot: number, docType: string, ids: string[]): Map<string, { done: number; total: number }> {
      const rows = sqlite
        .query<{ id: string; total: number; done: number }, [number, string, string]>(
          `SELECT c.doc_id id, count(*) total, count(v.chunk_rowid) done FROM chunks c
           LEFT JOIN chunk_vectors v ON v.chunk_rowid = c.id AND v.slot = ?
           WHERE c.doc_type = ? AND c.doc_id IN (SELECT value FROM json_each(?)) GROUP BY c.doc_id`,
        )
        .all(slot, docType, JSON.stringify(ids));
      return new Map(rows.map((r) => [r.id, { done: r.done, total: r.total }]));
    },

    /** Chunks of the given documents (or of everyone) that have no vector in this slot yet. */
    missing(slot: number, limit: number, doc?: { type: string; id: string }): MissingChunk[] {
      const where = doc ? "AND c.doc_type = ? AND c.doc_id = ?" : "";
      const args = doc ? [slot, doc.type, doc.id, limit] : [slot, limit];
      return sqlite
        .query<MissingChunk, any[]>(
          `SELECT c.id rowid, c.chunk_id chunkId, c.user_id userId, c.doc_type docType, c.text, c.title, c.heading FROM chunks c
           WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_rowid = c.id AND v.slot = ?) ${where}
           ORDER BY c.id LIMIT ?`,
        )
        .all(...args);
    },

    /**
     * Approximate KNN: Hamming-distance candidates (the owner's codes in memory, or the code
     * table's owner partition, each shard, when they do not fit the budget), re-ranked by exact
     * cosine distance over the float vectors. The re-rank checks owner and type in SQLite, so a
     * stale code in memory can cost a candidate but never show another owner's chunk.
     */
    knn(slot: ModelSlot, userId: string, query: Float32Array, opts: { k: number; candidates: number; docType?: string }): { rowid: number; distance: number }[] {
      ensureCodes(slot);
      const code = encoder(slot.dimensions).encode(query);
      const store = memory.store(slot, indexTable(slot.slot), userId, encoder(slot.dimensions).shape.bits);
      if (store) return fromMemory(store, slot, userId, query, code, opts);
      const cands = shardCandidates(slot, userId, code, opts);
      if (cands.length === 0) return [];
      const typeFilter = opts.docType ? "AND c.doc_type = ?" : "";
      const args: (string | number | Uint8Array)[] = [blob(query), slot.slot, userId, JSON.stringify(cands)];
      if (opts.docType) args.push(opts.docType);
      const rows = sqlite
        .query<{ rowid: number; distance: number }, any[]>(
          `SELECT v.chunk_rowid rowid, vec_distance_cosine(v.embedding, ?) distance FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
           WHERE v.slot = ? AND c.user_id = ? AND v.chunk_rowid IN (SELECT value FROM json_each(?)) ${typeFilter}`,
        )
        .all(...args);
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

    /** Exact KNN over an explicit set of chunks (a notebook's), for filtered searches. */
    exact,
  };
}
export type VectorIndex = ReturnType<typeof createVectorIndex>;

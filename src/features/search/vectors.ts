// The vector index: per embedding model, float vectors for exact re-ranking (chunk_vectors) and a
// sqlite-vec vec0 table of binary-quantised vectors partitioned by owner for fast candidates.
import type { Database } from "bun:sqlite";

export interface ModelSlot {
  slot: number;
  model: string;
  dimensions: number;
  state: "building" | "active" | "retired";
}

export interface VectorRow {
  rowid: number;
  userId: string;
  docType: string;
  vector: Float32Array;
}

const binTable = (slot: number) => `vecbin_${slot}`;
/** vec_quantize_binary needs a multiple of 8 dimensions; shorter vectors are zero-padded. */
const paddedDims = (d: number) => Math.ceil(d / 8) * 8;

function pad(v: Float32Array, dims: number): Float32Array {
  if (v.length === dims) return v;
  const out = new Float32Array(dims);
  out.set(v);
  return out;
}

const blob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export function createVectorIndex(sqlite: Database) {
  function slots(): ModelSlot[] {
    return sqlite.query<ModelSlot, []>("SELECT slot, model, dimensions, state FROM embedding_models ORDER BY slot").all();
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
          const t = binTable(row.slot);
          sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${t} USING vec0(user_id text partition key, doc_type text, embedding bit[${paddedDims(dimensions)}])`);
          sqlite.exec(`CREATE TRIGGER IF NOT EXISTS chunks_ad_${t} AFTER DELETE ON chunks BEGIN DELETE FROM ${t} WHERE rowid = old.id; END`);
          return { slot: row.slot, model, dimensions, state: "building" as const };
        })
        .immediate();
    },

    /** Makes a slot the one searches use and drops the others' data. */
    activate(slot: number): void {
      sqlite
        .transaction(() => {
          for (const s of slots()) {
            if (s.slot === slot || s.state === "retired") continue;
            const t = binTable(s.slot);
            sqlite.exec(`DROP TRIGGER IF EXISTS chunks_ad_${t}`);
            sqlite.exec(`DROP TABLE IF EXISTS ${t}`);
            sqlite.query("DELETE FROM chunk_vectors WHERE slot = ?").run(s.slot);
            sqlite.query("UPDATE embedding_models SET state = 'retired' WHERE slot = ?").run(s.slot);
          }
          sqlite.query("UPDATE embedding_models SET state = 'active', activated_at = ? WHERE slot = ?").run(new Date().toISOString(), slot);
        })
        .immediate();
    },

    upsert(slot: ModelSlot, rows: VectorRow[]): void {
      const t = binTable(slot.slot);
      const dims = paddedDims(slot.dimensions);
      const putFloat = sqlite.prepare("INSERT OR REPLACE INTO chunk_vectors (chunk_rowid, slot, dimensions, embedding) VALUES (?, ?, ?, ?)");
      const delBin = sqlite.prepare(`DELETE FROM ${t} WHERE rowid = ?`);
      const putBin = sqlite.prepare(`INSERT INTO ${t} (rowid, user_id, doc_type, embedding) VALUES (?, ?, ?, vec_quantize_binary(?))`);
      const exists = sqlite.prepare<{ n: number }, [number]>("SELECT count(*) n FROM chunks WHERE id = ?");
      sqlite
        .transaction(() => {
          for (const r of rows) {
            if (r.vector.length !== slot.dimensions) throw new Error(`vector of ${r.vector.length} dimensions for a ${slot.dimensions}-dimension index`);
            // The chunk may have been replaced while it was being embedded.
            if (exists.get(r.rowid)!.n === 0) continue;
            putFloat.run(r.rowid, slot.slot, slot.dimensions, blob(r.vector));
            delBin.run(r.rowid);
            putBin.run(r.rowid, r.userId, r.docType, blob(pad(r.vector, dims)));
          }
        })
        .immediate();
    },

    /** Chunks of the given documents (or of everyone) that have no vector in this slot yet. */
    missing(slot: number, limit: number, doc?: { type: string; id: string }): { rowid: number; userId: string; docType: string; text: string; title: string; heading: string | null }[] {
      const where = doc ? "AND c.doc_type = ? AND c.doc_id = ?" : "";
      const args = doc ? [slot, doc.type, doc.id, limit] : [slot, limit];
      return sqlite
        .query<{ rowid: number; userId: string; docType: string; text: string; title: string; heading: string | null }, any[]>(
          `SELECT c.id rowid, c.user_id userId, c.doc_type docType, c.text, c.title, c.heading FROM chunks c
           WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_rowid = c.id AND v.slot = ?) ${where}
           ORDER BY c.id LIMIT ?`,
        )
        .all(...args);
    },

    /**
     * Approximate KNN: Hamming-distance candidates from the binary vec0 table (owner partition,
     * optional type filter), re-ranked by exact cosine distance over the float vectors.
     */
    knn(slot: ModelSlot, userId: string, query: Float32Array, opts: { k: number; candidates: number; docType?: string }): { rowid: number; distance: number }[] {
      const t = binTable(slot.slot);
      const typeFilter = opts.docType ? "AND doc_type = ?" : "";
      const args: (string | number | Uint8Array)[] = [blob(pad(query, paddedDims(slot.dimensions))), Math.min(4096, opts.candidates), userId];
      if (opts.docType) args.push(opts.docType);
      const cands = sqlite
        .query<{ rowid: number }, any[]>(`SELECT rowid FROM ${t} WHERE embedding MATCH vec_quantize_binary(?) AND k = ? AND user_id = ? ${typeFilter}`)
        .all(...args);
      if (cands.length === 0) return [];
      return sqlite
        .query<{ rowid: number; distance: number }, [Uint8Array, number, string, number]>(
          `SELECT chunk_rowid rowid, vec_distance_cosine(embedding, ?) distance FROM chunk_vectors
           WHERE slot = ? AND chunk_rowid IN (SELECT value FROM json_each(?)) ORDER BY distance LIMIT ?`,
        )
        .all(blob(query), slot.slot, JSON.stringify(cands.map((c) => c.rowid)), opts.k);
    },

    /** Exact KNN over an explicit set of chunks (a notebook's), for filtered searches. */
    exact(slot: ModelSlot, query: Float32Array, rowidsSql: string, rowidsArgs: (string | number)[], k: number): { rowid: number; distance: number }[] {
      return sqlite
        .query<{ rowid: number; distance: number }, any[]>(
          `SELECT chunk_rowid rowid, vec_distance_cosine(embedding, ?) distance FROM chunk_vectors
           WHERE slot = ? AND chunk_rowid IN (${rowidsSql}) ORDER BY distance LIMIT ?`,
        )
        .all(blob(query), slot.slot, ...rowidsArgs, k);
    },
  };
}
export type VectorIndex = ReturnType<typeof createVectorIndex>;

// SQL of the vector index: embedding model slots, float vectors (chunk_vectors) and the sqlite-vec
// code tables (vecidx_N); the in-memory logic that uses them stays in vectors.ts and code-cache.ts.
import type { Conn, SqliteDb } from "../../db/port.ts";
import { type ChunkScope, scopeConditions } from "./chunks-repo.ts";
import type { Logger } from "../../log.ts";
import type { Distance, ModelSlot, PgvectorMode } from "./vector-types.ts";

// The code table's name carries its scheme version: a new scheme gets a new table, rebuilt from the
// float vectors, and the old one is dropped. v1 (vecbin_N) held signs of the raw coordinates.
export const indexTable = (slot: number) => `vecidx_${slot}`;
const LEGACY_TABLES = (slot: number) => [`vecbin_${slot}`];
/**
 * vec0 picks its k nearest with a selection whose cost grows with rows × k, so asking one
 * partition for 512 candidates costs ~10× asking 16 shards for 32 each. Rows are spread over
 * shards by rowid; the union of the shards' top candidates is re-ranked exactly.
 */
export const SHARDS = 16;

const blob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export type { Distance } from "./vector-types.ts";

function dropTables(c: Conn, tables: string[]): void {
  for (const t of tables) {
    c.sqlite.exec(`DROP TRIGGER IF EXISTS chunks_ad_${t}`);
    c.sqlite.exec(`DROP TABLE IF EXISTS ${t}`);
  }
}

export interface VectorsRepoOptions {
  /** PostgreSQL only: whether pgvector may be used when the extension can be created. */
  pgvector?: PgvectorMode;
  logger?: Logger;
}

/**
 * An engine's own nearest-neighbour index (pgvector's HNSW on PostgreSQL), used for owners whose
 * codes are not held in memory. Absent on SQLite, whose vec0 code table is the index.
 */
export interface AnnSearch {
  /** The engine in use after detection (e.g. "pgvector 0.8.0"), or null for the code path. */
  engine(): Promise<string | null>;
  /** The owner's k nearest (exact distances), or null when the slot is not ready: use the codes. */
  knn(slot: ModelSlot, userId: string, query: Float32Array, k: number, docType?: string): Promise<Distance[] | null>;
  /** Readies a slot that has vectors already (backfill, index build); long for a large slot. */
  upgrade(slot: ModelSlot): Promise<void>;
}

export function createVectorsSqliteRepo(db: SqliteDb): VectorsRepo {
  /** Exact cosine distances of the float vectors of the chunks `rowidsSql` selects, nearest first. */
  const exact = async (
    slot: number,
    query: Float32Array,
    rowidsSql: string,
    args: (string | number)[],
    k: number,
  ): Promise<Distance[]> =>
    db.query((c) =>
      c.sqlite
        .query<Distance, any[]>(
          `SELECT chunk_rowid rowid, vec_distance_cosine(embedding, ?) distance FROM chunk_vectors
           WHERE slot = ? AND chunk_rowid IN (${rowidsSql}) ORDER BY distance LIMIT ?`,
        )
        .all(blob(query), slot, ...args, k),
    );

  return {
    async slots() {
      return db.query((c) =>
        c.sqlite
          .query<ModelSlot, []>("SELECT slot, model, dimensions, state FROM embedding_models ORDER BY slot")
          .all(),
      );
    },
    async codeTableExists(slot) {
      return db.query(
        (c) =>
          c.sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(indexTable(slot)) !==
          null,
      );
    },
    /** Drops a slot's code tables of earlier schemes (and with `current`, of this one too). */
    async dropCodeTables(slot, opts) {
      await db.exec((c) => dropTables(c, [...(opts.current ? [indexTable(slot)] : []), ...LEGACY_TABLES(slot)]));
    },
    async createCodeTable(slot, bits, _dimensions?) {
      const t = indexTable(slot);
      await db.exec((c) => {
        c.sqlite.exec(
          `CREATE VIRTUAL TABLE IF NOT EXISTS ${t} USING vec0(user_id text partition key, shard integer partition key, doc_type text, embedding bit[${bits}])`,
        );
        c.sqlite.exec(
          `CREATE TRIGGER IF NOT EXISTS chunks_ad_${t} AFTER DELETE ON chunks BEGIN DELETE FROM ${t} WHERE rowid = old.id; END`,
        );
      });
    },
    /** Writes binary codes, replacing any previous code of the same chunk. */
    async putCodes(slot, rows) {
      const t = indexTable(slot);
      await db.exec((c) => {
        const del = c.sqlite.query(`DELETE FROM ${t} WHERE rowid = ?`);
        const put = c.sqlite.query(
          `INSERT INTO ${t} (rowid, user_id, shard, doc_type, embedding) VALUES (?, ?, ?, ?, vec_bit(?))`,
        );
        for (const r of rows) {
          del.run(r.rowid);
          put.run(r.rowid, r.userId, r.rowid % SHARDS, r.docType, r.code);
        }
      });
    },
    /** A page of a slot's float vectors with their chunk's owner and type, by chunk rowid after `after`. */
    async floatPage(slot, after, limit) {
      return db.query((c) =>
        c.sqlite
          .query<{ rowid: number; userId: string; docType: string; embedding: Uint8Array }, [number, number, number]>(
            `SELECT v.chunk_rowid rowid, c.user_id userId, c.doc_type docType, v.embedding FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
             WHERE v.slot = ? AND v.chunk_rowid > ? ORDER BY v.chunk_rowid LIMIT ?`,
          )
          .all(slot, after, limit),
      );
    },
    /** Candidates from the code table: each shard of the owner's partition asked for its `perShard` best. */
    async shardCandidates(slot, userId, code, perShard, docType?) {
      const typeFilter = docType ? "AND doc_type = ?" : "";
      return db.query((c) => {
        const shardQuery = c.sqlite.query<{ rowid: number }, any[]>(
          `SELECT rowid FROM ${indexTable(slot)} WHERE embedding MATCH vec_bit(?) AND k = ? AND user_id = ? AND shard = ? ${typeFilter}`,
        );
        const cands: number[] = [];
        for (let shard = 0; shard < SHARDS; shard++) {
          const args: (string | number | Uint8Array)[] = [code, perShard, userId, shard];
          if (docType) args.push(docType);
          for (const r of shardQuery.all(...args)) cands.push(r.rowid);
        }
        return cands;
      });
    },
    /** Exact nearest of the chunks a scope selects (a notebook's, some sources'). */
    async exactInScope(slot, query, scope, k) {
      const { conds, args } = scopeConditions(scope);
      return exact(slot, query, `SELECT c.id FROM chunks c WHERE ${conds.join(" AND ")}`, args, k);
    },
    /** Exact cosine distances of the given chunks (those with a vector under the slot). */
    async exactAmong(slot, query, ids) {
      return ids.length === 0
        ? []
        : exact(slot, query, "SELECT value FROM json_each(?)", [JSON.stringify(ids)], ids.length);
    },
    /** Exact cosine distances of candidates, keeping only the owner's chunks (of the type). */
    async rerank(slot, query, userId, cands, docType?) {
      const typeFilter = docType ? "AND c.doc_type = ?" : "";
      const args: (string | number | Uint8Array)[] = [blob(query), slot, userId, JSON.stringify(cands)];
      if (docType) args.push(docType);
      return db.query((c) =>
        c.sqlite
          .query<Distance, any[]>(
            `SELECT v.chunk_rowid rowid, vec_distance_cosine(v.embedding, ?) distance FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
             WHERE v.slot = ? AND c.user_id = ? AND v.chunk_rowid IN (SELECT value FROM json_each(?)) ${typeFilter}`,
          )
          .all(...args),
      );
    },
    /** Which of these chunks still exist and belong to the owner (and type). */
    async liveChunks(userId, ids, docType?) {
      const typeFilter = docType ? "AND +c.doc_type = ?" : "";
      const args: string[] = [userId, JSON.stringify(ids)];
      if (docType) args.push(docType);
      const rows = await db.query((c) =>
        c.sqlite
          .query<{ id: number }, string[]>(
            `SELECT c.id FROM chunks c WHERE +c.user_id = ? AND c.id IN (SELECT value FROM json_each(?)) ${typeFilter}`,
          )
          .all(...args),
      );
      return new Set(rows.map((r) => r.id));
    },
    /** A new slot (state building) for a model, replacing a retired slot's row of the same model. */
    async insertSlot(model, dimensions, replacing, at) {
      return db.exec((c) => {
        if (replacing !== null) c.sqlite.query("DELETE FROM embedding_models WHERE slot = ?").run(replacing);
        return c.sqlite
          .query<{ slot: number }, [string, number, string]>(
            "INSERT INTO embedding_models (model, dimensions, state, created_at) VALUES (?, ?, 'building', ?) RETURNING slot",
          )
          .get(model, dimensions, at)!.slot;
      });
    },
    /** Retires a slot: its float vectors go (its code tables are dropped separately). */
    async retireSlot(slot) {
      await db.exec((c) => {
        c.sqlite.query("DELETE FROM chunk_vectors WHERE slot = ?").run(slot);
        c.sqlite.query("UPDATE embedding_models SET state = 'retired' WHERE slot = ?").run(slot);
      });
    },
    async markActive(slot, at) {
      await db.exec((c) =>
        c.sqlite.query("UPDATE embedding_models SET state = 'active', activated_at = ? WHERE slot = ?").run(at, slot),
      );
    },
    /**
     * Stores float vectors of chunks that still have the given chunk id (a chunk may have been
     * replaced while it was embedded, and its rowid reused); returns the rows stored.
     */
    async putFloats<R extends { rowid: number; chunkId?: string; vector: Float32Array }>(
      slot: number,
      dimensions: number,
      rows: R[],
    ): Promise<R[]> {
      return db.exec((c) => {
        const putFloat = c.sqlite.query(
          "INSERT OR REPLACE INTO chunk_vectors (chunk_rowid, slot, dimensions, embedding) VALUES (?, ?, ?, ?)",
        );
        const current = c.sqlite.query<{ chunkId: string }, [number]>(
          "SELECT chunk_id chunkId FROM chunks WHERE id = ?",
        );
        const kept: R[] = [];
        for (const r of rows) {
          const now = current.get(r.rowid);
          if (!now || (r.chunkId !== undefined && now.chunkId !== r.chunkId)) continue;
          putFloat.run(r.rowid, slot, dimensions, blob(r.vector));
          kept.push(r);
        }
        return kept;
      });
    },
    /** Per document: how many chunks it has and how many of them have a vector in this slot. */
    async progress(slot, docType, ids) {
      return db.query((c) =>
        c.sqlite
          .query<{ id: string; total: number; done: number }, [number, string, string]>(
            `SELECT c.doc_id id, count(*) total, count(v.chunk_rowid) done FROM chunks c
             LEFT JOIN chunk_vectors v ON v.chunk_rowid = c.id AND v.slot = ?
             WHERE c.doc_type = ? AND c.doc_id IN (SELECT value FROM json_each(?)) GROUP BY c.doc_id`,
          )
          .all(slot, docType, JSON.stringify(ids)),
      );
    },
    /** Chunks of the given document (or of everyone) that have no vector in this slot yet. */
    async missing<T>(slot: number, limit: number, doc?: { type: string; id: string }): Promise<T[]> {
      const where = doc ? "AND c.doc_type = ? AND c.doc_id = ?" : "";
      const args = doc ? [slot, doc.type, doc.id, limit] : [slot, limit];
      return db.query((c) =>
        c.sqlite
          .query<T, any[]>(
            `SELECT c.id rowid, c.chunk_id chunkId, c.user_id userId, c.doc_type docType, c.text, c.title, c.heading FROM chunks c
             WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_rowid = c.id AND v.slot = ?) ${where}
             ORDER BY c.id LIMIT ?`,
          )
          .all(...args),
      );
    },
    /**
     * Changes whenever another connection commits (the in-memory code cache then reloads). Read on
     * the writer: it never changes for the writer's own commits, which keep the cache in step
     * themselves. On the reader it changed with every write this process made, and each one made
     * the next vector search reload every owner's codes (~250 MB of garbage at 100k chunks).
     */
    async dataVersion() {
      return db.sqlite.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
    },
    /** Up to `limit` of the owner's binary codes (the cache asks for one more than would fit its budget). */
    /**
     * Visits the owner's codes one row at a time, inside one read (nothing is collected); `visit`
     * returns false to stop early. Loading an owner into memory streams through this.
     */
    async eachOwnerCode(slot, userId, visit) {
      await db.query((c) => {
        const rows = c.sqlite.query<{ rowid: number; docType: string; code: Uint8Array }, [string]>(
          `SELECT rowid, doc_type docType, embedding code FROM ${indexTable(slot)} WHERE user_id = ?`,
        );
        for (const r of rows.iterate(userId)) if (!visit(r)) break;
      });
    },
    /** Visits the owner's float vectors under a slot one row at a time, inside one read. */
    async eachOwnerFloat(slot, userId, visit) {
      await db.query((c) => {
        const rows = c.sqlite.query<{ rowid: number; e: Uint8Array }, [number, string]>(
          "SELECT v.chunk_rowid rowid, v.embedding e FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid WHERE v.slot = ? AND c.user_id = ?",
        );
        for (const r of rows.iterate(slot, userId)) visit(r.rowid, r.e);
      });
    },
  };
}
/** What the feature needs of its vectors table(s); SQLite below, PostgreSQL in vectors-pg-repo.ts (src/stores.ts chooses). */
export interface VectorsRepo {
  slots(): Promise<ModelSlot[]>;
  codeTableExists(slot: number): Promise<boolean>;
  /** Drops a slot's code tables of earlier schemes (and with `current`, of this one too). */
  dropCodeTables(
    slot: number,
    opts: {
      current: boolean;
    },
  ): Promise<void>;
  createCodeTable(slot: number, bits: number, _dimensions?: number): Promise<void>;
  /** Writes binary codes, replacing any previous code of the same chunk. */
  putCodes(
    slot: number,
    rows: {
      rowid: number;
      userId: string;
      docType: string;
      code: Uint8Array;
    }[],
  ): Promise<void>;
  /** A page of a slot's float vectors with their chunk's owner and type, by chunk rowid after `after`. */
  floatPage(
    slot: number,
    after: number,
    limit: number,
  ): Promise<
    {
      rowid: number;
      userId: string;
      docType: string;
      embedding: Uint8Array;
    }[]
  >;
  /** Candidates from the code table: each shard of the owner's partition asked for its `perShard` best. */
  shardCandidates(
    slot: number,
    userId: string,
    code: Uint8Array,
    perShard: number,
    docType?: string,
  ): Promise<number[]>;
  /** Exact nearest of the chunks a scope selects (a notebook's, some sources'). */
  exactInScope(slot: number, query: Float32Array, scope: ChunkScope, k: number): Promise<Distance[]>;
  /** Exact cosine distances of the given chunks (those with a vector under the slot). */
  exactAmong(slot: number, query: Float32Array, ids: number[]): Promise<Distance[]>;
  /** Exact cosine distances of candidates, keeping only the owner's chunks (of the type). */
  rerank(slot: number, query: Float32Array, userId: string, cands: number[], docType?: string): Promise<Distance[]>;
  /** Which of these chunks still exist and belong to the owner (and type). */
  liveChunks(userId: string, ids: number[], docType?: string): Promise<Set<number>>;
  /** A new slot (state building) for a model, replacing a retired slot's row of the same model. */
  insertSlot(model: string, dimensions: number, replacing: number | null, at: string): Promise<number>;
  /** Retires a slot: its float vectors go (its code tables are dropped separately). */
  retireSlot(slot: number): Promise<void>;
  markActive(slot: number, at: string): Promise<void>;
  /**
   * Stores float vectors of chunks that still have the given chunk id (a chunk may have been
   * replaced while it was embedded, and its rowid reused); returns the rows stored.
   */
  putFloats<
    R extends {
      rowid: number;
      chunkId?: string;
      vector: Float32Array;
    },
  >(slot: number, dimensions: number, rows: R[]): Promise<R[]>;
  /** Per document: how many chunks it has and how many of them have a vector in this slot. */
  progress(
    slot: number,
    docType: string,
    ids: string[],
  ): Promise<
    {
      id: string;
      total: number;
      done: number;
    }[]
  >;
  /** Chunks of the given document (or of everyone) that have no vector in this slot yet. */
  missing<T>(
    slot: number,
    limit: number,
    doc?: {
      type: string;
      id: string;
    },
  ): Promise<T[]>;
  /** Changes whenever another connection commits (the in-memory code cache then reloads). */
  dataVersion(): Promise<number>;
  /** Up to `limit` of the owner's binary codes (the cache asks for one more than would fit its budget). */
  /**
   * Visits the owner's codes one row at a time, inside one read (nothing is collected); `visit`
   * returns false to stop early. Loading an owner into memory streams through this.
   */
  eachOwnerCode(
    slot: number,
    userId: string,
    visit: (r: { rowid: number; docType: string; code: Uint8Array }) => boolean,
  ): Promise<void>;
  /** Visits the owner's float vectors under a slot one row at a time, inside one read. */
  eachOwnerFloat(slot: number, userId: string, visit: (rowid: number, e: Uint8Array) => void): Promise<void>;
  /** PostgreSQL with pgvector: nearest neighbours through the HNSW index for owners not held in memory. */
  ann?: AnnSearch;
}

// SQL of the vector index on PostgreSQL: the twin of vectors-repo.ts. Codes live in one narrow table
// (chunk_codes, bit varying) whose Hamming prefilter is bit_count(code # query); exact cosine
// distances are computed here from the float32 vectors, as sqlite-vec's vec_distance_cosine does.
// With pgvector (pgvector-repo.ts) the vectors are also stored as `vector`, distances come from `<=>`
// and owners not held in memory are searched through a per-slot HNSW index.
import { type PgDb, type PgSql, pgArray } from "../../db/pg/port.ts";
import type { ChunkScope } from "./chunks-repo.ts";
import { params, pgScopeConditions } from "./chunks-pg-repo.ts";
import {
  createSlotIndex,
  detectPgvector,
  dropSlotIndex,
  floatsOf,
  type Pgvector,
  type PgvectorState,
  pgvectorKnn,
  upgradeSlot,
  vectorText,
} from "./pgvector-repo.ts";
import type { Distance, VectorsRepo, VectorsRepoOptions } from "./vectors-repo.ts";
import { SHARDS } from "./vectors-repo.ts";

/** Other processes' code writes are announced here at commit (the in-memory code cache reloads). */
export const CODES_CHANNEL = "search_codes";

// A code's bit i is bit i % 8 of byte i / 8 (binary-codes.ts); as a bit string, character i.
const BYTE_BITS = Array.from({ length: 256 }, (_, b) =>
  Array.from({ length: 8 }, (_, i) => ((b >> i) & 1 ? "1" : "0")).join(""),
);
const BITS_BYTE = new Map(BYTE_BITS.map((s, b) => [s, b]));

export function codeToBits(code: Uint8Array): string {
  let out = "";
  for (const b of code) out += BYTE_BITS[b];
  return out;
}

export function bitsToCode(bits: string): Uint8Array {
  const out = new Uint8Array(bits.length >> 3);
  for (let i = 0; i < out.length; i++) out[i] = BITS_BYTE.get(bits.slice(i * 8, i * 8 + 8))!;
  return out;
}

const blob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** 1 − cosine, as vec_distance_cosine; float32 bytes as stored. */
function cosineDistance(q: Float32Array, qNorm: number, e: Uint8Array): number {
  const v = floatsOf(e);
  let dot = 0;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    dot += q[i]! * v[i]!;
    n += v[i]! * v[i]!;
  }
  return 1 - dot / (qNorm * Math.sqrt(n));
}

/** Distances of the selected rows' embeddings to the query, nearest first, at most k. */
function rank(query: Float32Array, rows: { rowid: number; e: Uint8Array }[], k: number): Distance[] {
  const qNorm = Math.sqrt(query.reduce((s, x) => s + x * x, 0));
  return rows
    .map((r) => ({ rowid: r.rowid, distance: cosineDistance(query, qNorm, r.e) }))
    .sort((a, b) => a.distance - b.distance || a.rowid - b.rowid)
    .slice(0, k);
}

type Row = { rowid: number; e: Uint8Array };
/** With pgvector: the distance from `<=>`, or (a row still lacking `vec`) the bytes to compute it from. */
type DistRow = { rowid: number; d: number | null; e: Uint8Array | null };

/** Distances from SQL where `vec` was there, from the bytes where it was not; nearest first, at most k. */
function merge(query: Float32Array, rows: DistRow[], k: number): Distance[] {
  const known = rows.filter((r) => r.d !== null).map((r) => ({ rowid: r.rowid, distance: r.d! }));
  const rest = rows.filter((r) => r.d === null && r.e) as Row[];
  const all = rest.length > 0 ? [...known, ...rank(query, rest, rest.length)] : known;
  return all.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid).slice(0, k);
}

export function createVectorsPgRepo(db: PgDb, opts: VectorsRepoOptions = {}): VectorsRepo {
  // The cache's version: bumped by another process's (or index instance's) code writes, announced
  // with NOTIFY at commit, and when the listening connection comes back (announcements were lost).
  const instance = crypto.randomUUID();
  let version = 0;
  let listening: Promise<void> | null = null;
  const floats = (text: string, values: unknown[]) => db.query((c) => c.sql.unsafe<Row[]>(text, values as never[]));
  const dists = (text: string, values: unknown[]) => db.query((c) => c.sql.unsafe<DistRow[]>(text, values as never[]));

  // Detected once per repository (a failed detection, e.g. a lost connection, is tried again).
  let detecting: Promise<PgvectorState> | null = null;
  const detect = (): Promise<PgvectorState> => {
    detecting ??= detectPgvector(db, opts.pgvector ?? "auto").then(
      (st) => {
        opts.logger?.info(st.pv ? "vector search through pgvector" : "vector search through bit codes", {
          pgvector: st.pv?.version ?? null,
          mode: opts.pgvector ?? "auto",
        });
        return st;
      },
      (err) => {
        detecting = null;
        throw err;
      },
    );
    return detecting;
  };
  const pgv = async (): Promise<Pgvector | null> => (await detect()).pv;
  /** `<=>` distances of the rows `from` selects (aliases v, c), with the bytes of rows lacking `vec`. */
  const distSelect = (pv: Pgvector, qParam: string) =>
    `SELECT v.chunk_rowid rowid, v.vec ${pv.op} ${qParam}::${pv.type} d, CASE WHEN v.vec IS NULL THEN v.embedding END e`;
  // One background upgrade (backfill, index build) per slot at a time in this process.
  const upgrading = new Map<number, Promise<void>>();
  const upgrade = (slot: { slot: number; dimensions: number }): Promise<void> => {
    let p = upgrading.get(slot.slot);
    if (!p) {
      p = (async () => {
        const pv = await pgv();
        if (pv) await upgradeSlot(db, pv, slot.slot, slot.dimensions);
      })().finally(() => upgrading.delete(slot.slot));
      upgrading.set(slot.slot, p);
    }
    return p;
  };

  return {
    async slots() {
      return db.query((c) => c.sql`SELECT slot, model, dimensions, state FROM embedding_models ORDER BY slot`);
    },
    /** True when every float vector of the slot has its code (false after a copy that brought floats only). */
    async codeTableExists(slot) {
      const rows = await db.query(
        (c) => c.sql`SELECT 1 FROM chunk_vectors v WHERE v.slot = ${slot}
          AND NOT EXISTS (SELECT 1 FROM chunk_codes k WHERE k.slot = v.slot AND k.chunk_rowid = v.chunk_rowid) LIMIT 1`,
      );
      return rows.length === 0;
    },
    async dropCodeTables(slot, opts) {
      // One table holds every slot's codes; the scheme is versioned by migrations, not by table name.
      if (!opts.current) return;
      await db.exec(async (c) => {
        await c.sql`DELETE FROM chunk_codes WHERE slot = ${slot}`;
        // The slot's HNSW index goes with its codes (a slot number can come back for a new model).
        if ((await detect()).column) await dropSlotIndex(c.sql, slot);
      });
    },
    async createCodeTable(slot, _bits, dimensions) {
      // chunk_codes exists from the migration; with pgvector the slot gets its (empty) HNSW index.
      const pv = await pgv();
      if (pv && dimensions !== undefined) await db.exec((c) => createSlotIndex(c.sql, pv, slot, dimensions));
    },
    async putCodes(slot, rows) {
      if (rows.length === 0) return;
      await db.exec(async (c) => {
        for (let i = 0; i < rows.length; i += 2000) {
          const batch = rows.slice(i, i + 2000).map((r) => ({
            slot,
            chunk_rowid: r.rowid,
            user_id: r.userId,
            doc_type: r.docType,
            code: codeToBits(r.code),
          }));
          await c.sql`INSERT INTO chunk_codes ${c.sql(batch)} ON CONFLICT (slot, chunk_rowid)
              DO UPDATE SET user_id = excluded.user_id, doc_type = excluded.doc_type, code = excluded.code`;
        }
      });
      await db.notify(CODES_CHANNEL, instance);
    },
    async floatPage(slot, after, limit) {
      return db.query(
        (c) => c.sql<{ rowid: number; userId: string; docType: string; embedding: Uint8Array }[]>`
          SELECT v.chunk_rowid rowid, c.user_id "userId", c.doc_type "docType", v.embedding FROM chunk_vectors v
          JOIN chunks c ON c.id = v.chunk_rowid WHERE v.slot = ${slot} AND v.chunk_rowid > ${after}
          ORDER BY v.chunk_rowid LIMIT ${limit}`,
      );
    },
    /** The owner's nearest codes by Hamming distance; one ordered scan stands in for vec0's shards. */
    async shardCandidates(slot, userId, code, perShard, docType) {
      const rows = await db.query(
        (c) => c.sql<{ rowid: number }[]>`
          SELECT chunk_rowid rowid FROM chunk_codes WHERE slot = ${slot} AND user_id = ${userId}
          ${docType ? c.sql`AND doc_type = ${docType}` : c.sql``}
          ORDER BY bit_count(code # ${codeToBits(code)}::varbit) LIMIT ${perShard * SHARDS}`,
      );
      return rows.map((r) => r.rowid);
    },
    async exactInScope(slot, query, scope: ChunkScope, k) {
      const pv = await pgv();
      const p = params();
      if (pv) {
        const q = p.add(vectorText(query));
        const conds = pgScopeConditions(scope, p);
        const from = `FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid WHERE v.slot = ${p.add(slot)} AND ${conds.join(" AND ")}`;
        // The k nearest by `<=>`, plus every row still lacking `vec` (none once backfilled).
        const rows = await dists(
          `(${distSelect(pv, q)} ${from} AND v.vec IS NOT NULL ORDER BY d, rowid LIMIT ${p.add(k)})
           UNION ALL (${distSelect(pv, q)} ${from} AND v.vec IS NULL)`,
          p.values,
        );
        return merge(query, rows, k);
      }
      const conds = pgScopeConditions(scope, p);
      const rows = await floats(
        `SELECT v.chunk_rowid rowid, v.embedding e FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
         WHERE v.slot = ${p.add(slot)} AND ${conds.join(" AND ")}`,
        p.values,
      );
      return rank(query, rows, k);
    },
    async exactAmong(slot, query, ids) {
      if (ids.length === 0) return [];
      const pv = await pgv();
      if (pv) {
        const rows = await dists(
          `${distSelect(pv, "$1")} FROM chunk_vectors v WHERE v.slot = $2 AND v.chunk_rowid = ANY($3::bigint[])`,
          [vectorText(query), slot, pgArray(ids)],
        );
        return merge(query, rows, ids.length);
      }
      const rows = await floats(
        "SELECT chunk_rowid rowid, embedding e FROM chunk_vectors WHERE slot = $1 AND chunk_rowid = ANY($2::bigint[])",
        [slot, pgArray(ids)],
      );
      return rank(query, rows, ids.length);
    },
    async rerank(slot, query, userId, cands, docType) {
      const pv = await pgv();
      if (pv) {
        const rows = await dists(
          `${distSelect(pv, "$1")} FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
           WHERE v.slot = $2 AND c.user_id = $3 AND v.chunk_rowid = ANY($4::bigint[]) ${docType ? "AND c.doc_type = $5" : ""}`,
          [vectorText(query), slot, userId, pgArray(cands), ...(docType ? [docType] : [])],
        );
        return merge(query, rows, rows.length);
      }
      const rows = await floats(
        `SELECT v.chunk_rowid rowid, v.embedding e FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
         WHERE v.slot = $1 AND c.user_id = $2 AND v.chunk_rowid = ANY($3::bigint[]) ${docType ? "AND c.doc_type = $4" : ""}`,
        docType ? [slot, userId, pgArray(cands), docType] : [slot, userId, pgArray(cands)],
      );
      return rank(query, rows, rows.length);
    },
    async liveChunks(userId, ids, docType) {
      const rows = await db.query(
        (c) => c.sql<
          { id: number }[]
        >`SELECT id FROM chunks WHERE user_id = ${userId} AND id = ANY(${pgArray(ids)}::bigint[])
          ${docType ? c.sql`AND doc_type = ${docType}` : c.sql``}`,
      );
      return new Set(rows.map((r) => r.id));
    },
    async insertSlot(model, dimensions, replacing, at) {
      return db.tx(() =>
        db.exec(async (c) => {
          if (replacing !== null) await c.sql`DELETE FROM embedding_models WHERE slot = ${replacing}`;
          const [row] = await c.sql<
            { slot: number }[]
          >`INSERT INTO embedding_models (model, dimensions, state, created_at)
            VALUES (${model}, ${dimensions}, 'building', ${at}) RETURNING slot`;
          return row!.slot;
        }),
      );
    },
    async retireSlot(slot) {
      await db.tx(() =>
        db.exec(async (c) => {
          await c.sql`DELETE FROM chunk_vectors WHERE slot = ${slot}`;
          await c.sql`UPDATE embedding_models SET state = 'retired' WHERE slot = ${slot}`;
        }),
      );
    },
    async markActive(slot, at) {
      await db.exec(
        (c) => c.sql`UPDATE embedding_models SET state = 'active', activated_at = ${at} WHERE slot = ${slot}`,
      );
    },
    async putFloats(slot, dimensions, rows) {
      if (rows.length === 0) return [];
      const st = await detect();
      return db.tx(() =>
        db.exec(async (c) => {
          const current = await c.sql<{ id: number; chunkId: string }[]>`
            SELECT id, chunk_id "chunkId" FROM chunks WHERE id = ANY(${pgArray(rows.map((r) => r.rowid))}::bigint[])`;
          const now = new Map(current.map((r) => [r.id, r.chunkId]));
          const kept = rows.filter(
            (r) => now.has(r.rowid) && (r.chunkId === undefined || now.get(r.rowid) === r.chunkId),
          );
          await putFloatRows(c.sql, st, slot, dimensions, kept);
          return kept;
        }),
      );
    },
    async progress(slot, docType, ids) {
      return db.query(
        (c) => c.sql<{ id: string; total: number; done: number }[]>`
          SELECT c.doc_id id, count(*) total, count(v.chunk_rowid) done FROM chunks c
          LEFT JOIN chunk_vectors v ON v.chunk_rowid = c.id AND v.slot = ${slot}
          WHERE c.doc_type = ${docType} AND c.doc_id = ANY(${pgArray(ids)}::text[]) GROUP BY c.doc_id`,
      );
    },
    async missing<T>(slot: number, limit: number, doc?: { type: string; id: string }): Promise<T[]> {
      return db.query(
        (c) => c.sql`
          SELECT c.id rowid, c.chunk_id "chunkId", c.user_id "userId", c.doc_type "docType", c.text, c.title, c.heading
          FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_rowid = c.id AND v.slot = ${slot})
          ${doc ? c.sql`AND c.doc_type = ${doc.type} AND c.doc_id = ${doc.id}` : c.sql``}
          ORDER BY c.id LIMIT ${limit}`,
      ) as unknown as Promise<T[]>;
    },
    async dataVersion() {
      listening ??= db
        .listen(
          CODES_CHANNEL,
          (from) => {
            if (from !== instance) version++;
          },
          () => version++,
        )
        .catch((err) => {
          listening = null;
          throw err;
        });
      await listening;
      return version;
    },
    async eachOwnerCode(slot, userId, visit) {
      await db.query(async (c) => {
        const cursor = c.sql<{ rowid: number; docType: string; code: string }[]>`
          SELECT chunk_rowid rowid, doc_type "docType", code FROM chunk_codes WHERE slot = ${slot} AND user_id = ${userId}`.cursor(
          1000,
        );
        for await (const rows of cursor) {
          for (const r of rows) {
            if (!visit({ rowid: r.rowid, docType: r.docType, code: bitsToCode(r.code) })) return;
          }
        }
      });
    },
    async eachOwnerFloat(slot, userId, visit) {
      await db.query(async (c) => {
        const cursor = c.sql<Row[]>`
          SELECT v.chunk_rowid rowid, v.embedding e FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
          WHERE v.slot = ${slot} AND c.user_id = ${userId}`.cursor(1000);
        for await (const rows of cursor) for (const r of rows) visit(r.rowid, r.e);
      });
    },
    ann: {
      async engine() {
        const pv = await pgv();
        return pv ? `pgvector ${pv.version}` : null;
      },
      async knn(slot, userId, query, k, docType) {
        const pv = await pgv();
        if (!pv) return null;
        const { hits, pending } = await pgvectorKnn(db, pv, slot, userId, query, k, docType);
        // Rows lacking `vec` (written before the extension, or by a PGVECTOR=off process): fill them.
        if (pending) void upgrade(slot).catch((err) => opts.logger?.warn("pgvector backfill failed", { err }));
        return hits;
      },
      upgrade,
    },
  };
}

/**
 * Upserts float vectors; with pgvector the `vec` copy is written in the same row. Without it (this
 * process runs PGVECTOR=off) a `vec` column another process added is cleared on update, so it can
 * never disagree with the bytes; the row is then backfilled like any row lacking it.
 */
async function putFloatRows(
  sql: PgSql,
  st: PgvectorState,
  slot: number,
  dimensions: number,
  rows: { rowid: number; vector: Float32Array }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    const batch = rows.slice(i, i + 2000).map((r) => ({
      chunk_rowid: r.rowid,
      slot,
      dimensions,
      embedding: blob(r.vector),
      // With the column present, `vec` is written (pgvector in use) or cleared (PGVECTOR=off here).
      ...(st.column ? { vec: st.pv ? vectorText(r.vector) : null } : {}),
    }));
    await (st.column
      ? sql`INSERT INTO chunk_vectors ${sql(batch)} ON CONFLICT (chunk_rowid, slot)
          DO UPDATE SET dimensions = excluded.dimensions, embedding = excluded.embedding, vec = excluded.vec`
      : sql`INSERT INTO chunk_vectors ${sql(batch)} ON CONFLICT (chunk_rowid, slot)
          DO UPDATE SET dimensions = excluded.dimensions, embedding = excluded.embedding`);
  }
}

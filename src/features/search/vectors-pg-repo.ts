// SQL of the vector index on PostgreSQL: the twin of vectors-repo.ts. Codes live in one narrow table
// (chunk_codes, bit varying) whose Hamming prefilter is bit_count(code # query); exact cosine
// distances are computed here from the float32 vectors, as sqlite-vec's vec_distance_cosine does.
import { type PgDb, type PgSql, pgArray } from "../../db/pg/port.ts";
import type { ChunkScope } from "./chunks-repo.ts";
import { params, pgScopeConditions } from "./chunks-pg-repo.ts";
import type { Distance, VectorsRepo } from "./vectors-repo.ts";
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
  const v = new Float32Array(e.buffer.slice(e.byteOffset, e.byteOffset + e.byteLength));
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

export function createVectorsPgRepo(db: PgDb): VectorsRepo {
  // The cache's version: bumped by another process's (or index instance's) code writes, announced
  // with NOTIFY at commit, and when the listening connection comes back (announcements were lost).
  const instance = crypto.randomUUID();
  let version = 0;
  let listening: Promise<void> | null = null;
  const floats = (text: string, values: unknown[]) => db.query((c) => c.sql.unsafe<Row[]>(text, values as never[]));

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
      if (opts.current) await db.exec((c) => c.sql`DELETE FROM chunk_codes WHERE slot = ${slot}`);
    },
    async createCodeTable() {
      // chunk_codes exists from the migration.
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
      const p = params();
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
      const rows = await floats(
        "SELECT chunk_rowid rowid, embedding e FROM chunk_vectors WHERE slot = $1 AND chunk_rowid = ANY($2::bigint[])",
        [slot, pgArray(ids)],
      );
      return rank(query, rows, ids.length);
    },
    async rerank(slot, query, userId, cands, docType) {
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
      return db.tx(() =>
        db.exec(async (c) => {
          const current = await c.sql<{ id: number; chunkId: string }[]>`
            SELECT id, chunk_id "chunkId" FROM chunks WHERE id = ANY(${pgArray(rows.map((r) => r.rowid))}::bigint[])`;
          const now = new Map(current.map((r) => [r.id, r.chunkId]));
          const kept = rows.filter(
            (r) => now.has(r.rowid) && (r.chunkId === undefined || now.get(r.rowid) === r.chunkId),
          );
          await putFloatRows(c.sql, slot, dimensions, kept);
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
  };
}

async function putFloatRows(
  sql: PgSql,
  slot: number,
  dimensions: number,
  rows: { rowid: number; vector: Float32Array }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    const batch = rows
      .slice(i, i + 2000)
      .map((r) => ({ chunk_rowid: r.rowid, slot, dimensions, embedding: blob(r.vector) }));
    await sql`INSERT INTO chunk_vectors ${sql(batch)} ON CONFLICT (chunk_rowid, slot)
      DO UPDATE SET dimensions = excluded.dimensions, embedding = excluded.embedding`;
  }
}

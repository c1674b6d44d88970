// pgvector on PostgreSQL, when `CREATE EXTENSION vector` succeeds (or an administrator created it):
// detection, the `vec` column beside the float32 bytes in chunk_vectors, a per-slot HNSW index, the
// backfill of rows stored without `vec`, and the SQL of KNN and exact distances with `<=>`.
import { type PgDb, type PgSql, pgArray } from "../../db/pg/port.ts";
import type { Distance, PgvectorMode } from "./vector-types.ts";

export type { PgvectorMode } from "./vector-types.ts";

export interface Pgvector {
  version: string;
  /** Schema-qualified names, so the extension may live in any schema, on the search_path or not. */
  type: string;
  op: string;
  opclass: string;
  /** pgvector ≥ 0.8: a filtered HNSW scan goes on until LIMIT rows pass the filter (hnsw.iterative_scan). */
  iterative: boolean;
}

export interface PgvectorState {
  /** null: the bit-code path (no extension, too old, not allowed, or PGVECTOR=off). */
  pv: Pgvector | null;
  /** chunk_vectors has a `vec` column (another process may have added it while this one runs `off`). */
  column: boolean;
}

/** Database-wide: the extension is one per database, whatever schema a deployment uses. */
const LOCK = "commonplace:pgvector";
/** pgvector's HNSW index holds at most 2,000 dimensions of `vector`; wider slots keep the code path. */
export const HNSW_MAX_DIMENSIONS = 2000;
const BACKFILL_BATCH = 500;

export const hnswIndexName = (slot: number) => `chunk_vectors_hnsw_${int(slot)}`;

/** Integers are written into SQL text (partial-index predicates must be literals to be matched). */
function int(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return n;
}

function quoteIdent(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/** A string literal for the simple-query protocol (standard_conforming_strings is on since 9.1). */
function literal(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

function atLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(".").map((x) => Number.parseInt(x, 10));
  return a > major || (a === major && b >= minor);
}

/** pgvector's text form; a float32 printed as its shortest double reads back as the same float32. */
export function vectorText(v: Float32Array): string {
  return `[${Array.from(v, (x) => (Number.isFinite(x) ? String(x) : "0")).join(",")}]`;
}

/**
 * Creates the extension when allowed (errors swallowed: not installed, not permitted), then, when
 * it exists and is recent enough for HNSW (≥ 0.5), adds the `vec` column and the index that finds
 * rows still lacking it. Serialised by a transaction advisory lock, so processes starting together
 * (or deployments in other schemas of the database) never race on the DDL; idempotent. Runs on a
 * connection of its own, never inside a caller's transaction (whose rollback would undo the DDL
 * this process then believes in); a lock timeout bounds a wait on a caller holding the table.
 */
export async function detectPgvector(db: PgDb, mode: PgvectorMode): Promise<PgvectorState> {
  return db.session(
    (own) =>
      own.begin("isolation level read committed", async (sql) => {
        await sql`SET LOCAL lock_timeout = '10s'`;
        const column = async () =>
          (
            await sql`SELECT 1 FROM pg_attribute WHERE attrelid = 'chunk_vectors'::regclass
              AND attname = 'vec' AND NOT attisdropped`
          ).length > 0;
        if (mode === "off") return { pv: null, column: await column() };
        await sql`SELECT pg_advisory_xact_lock(hashtext(${LOCK}))`;
        await sql.unsafe(`DO $$ BEGIN
          BEGIN
            CREATE EXTENSION IF NOT EXISTS vector SCHEMA public;
          EXCEPTION WHEN OTHERS THEN
            NULL; -- not installed or not allowed: the bit-code path (docs/postgres.md)
          END;
        END $$`);
        const [ext] = await sql<{ schema: string; version: string }[]>`
          SELECT n.nspname "schema", e.extversion "version" FROM pg_extension e
          JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`;
        if (!ext || !atLeast(ext.version, 0, 5)) return { pv: null, column: await column() };
        const s = quoteIdent(ext.schema);
        const pv: Pgvector = {
          version: ext.version,
          type: `${s}.vector`,
          op: `OPERATOR(${s}.<=>)`,
          opclass: `${s}.vector_cosine_ops`,
          iterative: atLeast(ext.version, 0, 8),
        };
        // Checked first: ADD COLUMN IF NOT EXISTS would still take an exclusive lock on every start.
        if (!(await column())) await sql.unsafe(`ALTER TABLE chunk_vectors ADD COLUMN vec ${pv.type}`);
        await sql`CREATE INDEX IF NOT EXISTS chunk_vectors_novec ON chunk_vectors (slot) WHERE vec IS NULL`;
        return { pv, column: true };
      }) as Promise<PgvectorState>,
  );
}

/** CREATE INDEX for a slot's HNSW graph over `vec` cast to the slot's dimension. */
export function hnswIndexSql(pv: Pgvector, slot: number, dimensions: number, concurrently: boolean): string {
  return `CREATE INDEX ${concurrently ? "CONCURRENTLY " : ""}IF NOT EXISTS ${hnswIndexName(slot)} ON chunk_vectors
    USING hnsw ((vec::${pv.type}(${int(dimensions)})) ${pv.opclass}) WHERE slot = ${int(slot)}`;
}

/** Creates a slot's index unless it exists (an empty new slot: inside the caller's transaction). */
export async function createSlotIndex(sql: PgSql, pv: Pgvector, slot: number, dimensions: number): Promise<void> {
  if (dimensions > HNSW_MAX_DIMENSIONS) return;
  await sql.unsafe(hnswIndexSql(pv, slot, dimensions, false));
}

export async function dropSlotIndex(sql: PgSql, slot: number): Promise<void> {
  await sql.unsafe(`DROP INDEX IF EXISTS ${hnswIndexName(slot)}`);
}

/**
 * Brings a slot that already has vectors onto pgvector: fills `vec` where it is missing, then builds
 * its HNSW index CONCURRENTLY (writes go on meanwhile). One process at a time per schema (a session
 * advisory lock tried, not waited for: another process is doing it). An index left invalid by an
 * interrupted build is dropped and built again. Returns false when another process holds the lock.
 */
export async function upgradeSlot(db: PgDb, pv: Pgvector, slot: number, dimensions: number): Promise<boolean> {
  return db.session(async (own) => {
    const key = `${LOCK}:${db.schema}:${int(slot)}`;
    const [got] = await own<{ ok: boolean }[]>`SELECT pg_try_advisory_lock(hashtext(${key})) ok`;
    if (!got?.ok) return false;
    try {
      while ((await backfillBatch(db, pv, slot)) > 0) {}
      if (dimensions > HNSW_MAX_DIMENSIONS) return true;
      const [idx] = await own<{ valid: boolean }[]>`
        SELECT indisvalid valid FROM pg_index WHERE indexrelid = to_regclass(${hnswIndexName(slot)})`;
      if (idx?.valid) return true;
      if (idx) await dropSlotIndex(own, slot);
      await own.unsafe(hnswIndexSql(pv, slot, dimensions, true));
      return true;
    } finally {
      await own`SELECT pg_advisory_unlock(hashtext(${key}))`;
    }
  });
}

/**
 * Fills `vec` for up to one batch of a slot's rows lacking it, from their float32 bytes; rows are
 * locked (SKIP LOCKED) so a concurrent upsert of the same row waits rather than being overwritten
 * with an older vector. Returns the rows filled.
 */
export async function backfillBatch(db: PgDb, pv: Pgvector, slot: number): Promise<number> {
  return db.tx(
    () =>
      db.exec(async (c) => {
        const rows = await c.sql<{ id: number; e: Uint8Array }[]>`
          SELECT id, embedding e FROM chunk_vectors WHERE slot = ${slot} AND vec IS NULL
          ORDER BY id LIMIT ${BACKFILL_BATCH} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        const texts = rows.map((r) => vectorText(floatsOf(r.e)));
        await c.sql.unsafe(
          `UPDATE chunk_vectors v SET vec = u.vec::${pv.type}
           FROM unnest($1::bigint[], $2::text[]) AS u(id, vec) WHERE v.id = u.id`,
          [pgArray(rows.map((r) => r.id)), pgArray(texts)],
        );
        return rows.length;
      }),
    { isolation: "read committed" },
  );
}

export function floatsOf(e: Uint8Array): Float32Array {
  return new Float32Array(e.buffer.slice(e.byteOffset, e.byteOffset + e.byteLength));
}

/**
 * The owner's k nearest chunks by cosine distance through the slot's HNSW index, in one round trip
 * (a simple-protocol batch, an implicit transaction, so SET LOCAL holds for the query only). The
 * batch also says whether the slot is usable: its index exists and is valid, and no row lacks `vec`
 * (rows written before the extension appeared, or by a process running PGVECTOR=off). When not,
 * the caller uses the code path and the result is ignored. `relaxed_order` may return neighbours
 * slightly out of order, so the outer query sorts them; iterative scans keep filtered queries (one
 * owner among many) at k results instead of what survives the first ef_search candidates.
 */
export function knnSql(
  pv: Pgvector,
  slot: number,
  dimensions: number,
  userId: string,
  query: Float32Array,
  k: number,
  docType?: string,
): string {
  const t = `${pv.type}(${int(dimensions)})`;
  const q = `${literal(vectorText(query))}::${t}`;
  const settings = [`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(64, int(k) * 2))}`];
  if (pv.iterative) settings.push("SET LOCAL hnsw.iterative_scan = relaxed_order");
  return `${settings.join("; ")};
    SELECT EXISTS (SELECT 1 FROM chunk_vectors WHERE slot = ${int(slot)} AND vec IS NULL) pending,
      coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(${literal(hnswIndexName(slot))})), false) indexed;
    WITH nn AS MATERIALIZED (
      SELECT v.chunk_rowid rowid, v.vec::${t} ${pv.op} ${q} distance
      FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid
      WHERE v.slot = ${int(slot)} AND c.user_id = ${literal(userId)}${docType ? ` AND c.doc_type = ${literal(docType)}` : ""}
      ORDER BY v.vec::${t} ${pv.op} ${q} LIMIT ${int(k)}
    ) SELECT rowid, distance FROM nn ORDER BY distance, rowid`;
}

/** KNN through pgvector, or null when the slot is not ready for it (see knnSql). */
export async function pgvectorKnn(
  db: PgDb,
  pv: Pgvector,
  slot: { slot: number; dimensions: number },
  userId: string,
  query: Float32Array,
  k: number,
  docType?: string,
): Promise<{ hits: Distance[] | null; pending: boolean }> {
  if (slot.dimensions > HNSW_MAX_DIMENSIONS || query.length !== slot.dimensions) return { hits: null, pending: false };
  const text = knnSql(pv, slot.slot, slot.dimensions, userId, query, k, docType);
  const results = (await db.query((c) => c.sql.unsafe(text).simple())) as unknown as Record<string, unknown>[][];
  const state = results[results.length - 2]![0] as { pending: boolean; indexed: boolean };
  if (state.pending || !state.indexed) return { hits: null, pending: state.pending };
  const hits = results[results.length - 1]! as unknown as Distance[];
  return { hits: hits.map((h) => ({ rowid: Number(h.rowid), distance: Number(h.distance) })), pending: false };
}

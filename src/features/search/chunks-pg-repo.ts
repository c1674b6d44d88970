// SQL for chunks on PostgreSQL: the twin of chunks-repo.ts. Full text is a generated weighted
// tsvector under GIN; ranking is FTS5's BM25 (k1 1.2, b 0.75, weights 4/2/1) computed in SQL.
import { type PgDb, type PgSql, pgArray } from "../../db/pg/port.ts";
import { newId } from "../../ids.ts";
import type { ChunkRow, ChunkScope, ChunksRepo, DocType } from "./chunks-repo.ts";

const COLS = `c.id rowid, c.chunk_id "chunkId", c.user_id "userId", c.doc_type "docType", c.doc_id "docId", c.idx, c.title,
  c.heading, c.text, c.start_offset start, c.end_offset "end"`;

/** Numbered parameters for a statement built from pieces. */
export function params() {
  const values: unknown[] = [];
  return {
    values,
    add(v: unknown): string {
      values.push(v);
      return `$${values.length}`;
    },
  };
}
export type Params = ReturnType<typeof params>;

/** Conditions on `c` (chunks) for a scope; PostgreSQL's form of scopeConditions. */
export function pgScopeConditions(scope: ChunkScope, p: Params): string[] {
  const conds = [`c.user_id = ${p.add(scope.userId)}`];
  if (scope.docType) conds.push(`c.doc_type = ${p.add(scope.docType)}`);
  if (scope.notebookId) {
    const nb = p.add(scope.notebookId);
    conds.push(`((c.doc_type = 'source' AND c.doc_id IN (SELECT source_id FROM notebook_sources WHERE notebook_id = ${nb}))
      OR (c.doc_type = 'note' AND c.doc_id IN (SELECT id FROM notes WHERE notebook_id = ${nb}))
      OR (c.doc_type = 'highlight' AND c.doc_id IN (SELECT h.id FROM highlights h
          JOIN notebook_sources ns ON ns.source_id = h.source_id WHERE ns.notebook_id = ${nb})))`);
  }
  if (scope.sourceIds) {
    // The sources, and the highlights made in them.
    const ids = p.add(pgArray(scope.sourceIds));
    conds.push(`((c.doc_type = 'source' AND c.doc_id = ANY(${ids}::text[]))
      OR (c.doc_type = 'highlight' AND c.doc_id IN (SELECT id FROM highlights WHERE source_id = ANY(${ids}::text[]))))`);
  }
  return conds;
}

/** The quoted terms of an FTS5 expression built by ftsExpression ("a" OR "b"). */
export function matchTerms(match: string): string[] {
  return [...match.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"'));
}

// Rows of chunks per INSERT: 11 parameters each, far below PostgreSQL's 65535.
const INSERT_BATCH = 1000;
/** An owner's chunk_stats deltas are folded into one row once a search sums more than this many. */
export const STATS_FOLD_AT = 256;

/**
 * BM25 as FTS5 computes it: per query lexeme, idf = ln((N − n + 0.5) / (n + 0.5)) (at least 1e-6)
 * times f·(k1+1) / (f + k1·(1 − b + b·|D|/avgdl)), where f counts occurrences weighted by column
 * (title 4, heading 2, text 1) and |D| is the chunk's token count. f comes from ts_rank_cd with one
 * lexeme and no normalisation, which is the sum of its occurrences' label weights (D, C, B, A = 0.1,
 * 0.25, 0.5, 1, times 4): a lookup in the tsvector instead of unnesting it, ~4× faster at 100k chunks
 * and equal to counting positions (chunks-pg-repo.test.ts). N, n and avgdl are the owner's:
 * a library is its own corpus. Candidates are the GIN matches of any lexeme; n is counted among the
 * owner's chunks (taken from the candidates when the search is not narrowed by a scope); N and avgdl
 * are the sums of the owner's chunk_stats deltas (migration 0007), exact at the statement's snapshot.
 */
function bm25Sql(conds: string[], p: Params, terms: string[], scoped: boolean, limit: number, userId: string) {
  const user = p.add(userId);
  const df = scoped
    ? `SELECT l.lexeme, (SELECT count(*) FROM chunks d WHERE d.user_id = ${user} AND d.tsv @@ quote_literal(l.lexeme)::tsquery)::float8 n
         FROM (SELECT DISTINCT lexeme FROM tf) l`
    : "SELECT lexeme, count(*)::float8 n FROM tf GROUP BY lexeme";
  return `
    WITH lex AS (SELECT DISTINCT t.lexeme FROM unnest(to_tsvector('cp_search', ${p.add(terms.join(" "))})) t),
    q AS (SELECT string_agg(quote_literal(lexeme), ' | ')::tsquery tsq FROM lex),
    cand AS (SELECT c.id, c.tsv, c.doc_len FROM chunks c, q WHERE c.tsv @@ q.tsq AND ${conds.join(" AND ")}),
    tf AS (
      SELECT * FROM (
        SELECT cand.id, cand.doc_len, l.lexeme,
          4 * ts_rank_cd('{0.1, 0.25, 0.5, 1}', cand.tsv, quote_literal(l.lexeme)::tsquery, 0)::float8 f
        FROM cand CROSS JOIN lex l
      ) t WHERE f > 0
    ),
    df AS (${df}),
    stats AS (
      SELECT coalesce(sum(chunks), 0)::float8 n, greatest(sum(tokens)::float8 / nullif(sum(chunks), 0), 1) avgdl,
        count(*) deltas FROM chunk_stats WHERE user_id = ${user}
    )
    SELECT tf.id rowid,
      -sum(greatest(ln((s.n - df.n + 0.5) / (df.n + 0.5)), 1e-6) * tf.f * 2.2 / (tf.f + 1.2 * (0.25 + 0.75 * tf.doc_len / s.avgdl))) rank,
      min(s.deltas) deltas
    FROM tf JOIN df USING (lexeme) CROSS JOIN stats s
    GROUP BY tf.id ORDER BY rank, rowid LIMIT ${p.add(limit)}`;
}

async function insertChunks(
  sql: PgSql,
  doc: { type: DocType; id: string; userId: string; title: string },
  chunks: Parameters<ChunksRepo["replace"]>[1],
): Promise<void> {
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const rows = chunks.slice(i, i + INSERT_BATCH).map((ch) => ({
      chunk_id: newId("chunk"),
      user_id: doc.userId,
      doc_type: doc.type,
      doc_id: doc.id,
      idx: ch.index,
      title: doc.title,
      heading: ch.heading,
      text: ch.text,
      start_offset: ch.start,
      end_offset: ch.end,
      token_count: ch.tokenCount,
    }));
    await sql`INSERT INTO chunks ${sql(rows)}`;
  }
}

export function createChunksPgRepo(
  db: PgDb,
): ChunksRepo & { foldStats(userId: string): Promise<void>; foldsSettled(): Promise<void> } {
  const folding = new Map<string, Promise<void>>();

  /**
   * Folds an owner's statistics deltas into one row. READ COMMITTED and one statement: the rows it
   * deletes are those committed when it starts (a writer's uncommitted delta stays, to be folded
   * later), and a concurrent fold that deleted them first leaves this one nothing to sum.
   */
  async function foldStats(userId: string): Promise<void> {
    await db.tx(
      () =>
        db.exec(
          (c) => c.sql`WITH gone AS (DELETE FROM chunk_stats WHERE user_id = ${userId} RETURNING chunks, tokens)
            INSERT INTO chunk_stats (user_id, chunks, tokens)
            SELECT ${userId}, sum(chunks), sum(tokens) FROM gone HAVING count(*) > 0`,
        ),
      { isolation: "read committed" },
    );
  }

  return {
    async replace(doc, chunks) {
      // Two statements: atomic even when the caller is not in a transaction (a savepoint when it is).
      await db.tx(() =>
        db.exec(async (c) => {
          await c.sql`DELETE FROM chunks WHERE doc_type = ${doc.type} AND doc_id = ${doc.id}`;
          await insertChunks(c.sql, doc, chunks);
        }),
      );
    },
    async remove(type, id) {
      await db.exec((c) => c.sql`DELETE FROM chunks WHERE doc_type = ${type} AND doc_id = ${id}`);
    },
    async keysByRowids(rowids) {
      if (rowids.length === 0) return new Map();
      const rows = await db.query(
        (c) =>
          c.sql<Pick<ChunkRow, "rowid" | "userId" | "docType" | "docId">[]>`
            SELECT id rowid, user_id "userId", doc_type "docType", doc_id "docId" FROM chunks WHERE id = ANY(${pgArray(rowids)}::bigint[])`,
      );
      return new Map(rows.map((r) => [r.rowid, r]));
    },
    async byRowids(rowids) {
      if (rowids.length === 0) return new Map();
      const rows = await db.query((c) =>
        c.sql.unsafe<ChunkRow[]>(`SELECT ${COLS} FROM chunks c WHERE c.id = ANY($1::bigint[])`, [pgArray(rowids)]),
      );
      return new Map(rows.map((r) => [r.rowid, r]));
    },
    async forDoc(type, id) {
      return db.query((c) =>
        c.sql.unsafe<ChunkRow[]>(
          `SELECT ${COLS} FROM chunks c WHERE c.doc_type = $1 AND c.doc_id = $2 ORDER BY c.idx`,
          [type, id],
        ),
      );
    },
    async count() {
      return db.query(async (c) => (await c.sql<{ n: number }[]>`SELECT count(*) n FROM chunks`)[0]!.n);
    },
    async fts(userId, match, opts) {
      const terms = matchTerms(match);
      if (terms.length === 0) return [];
      const p = params();
      const conds = pgScopeConditions({ userId, ...opts }, p);
      const scoped = Boolean(opts.docType || opts.notebookId || opts.sourceIds);
      const text = bm25Sql(conds, p, terms, scoped, opts.limit, userId);
      const rows = await db.query((c) =>
        c.sql.unsafe<{ rowid: number; rank: number; deltas: number }[]>(text, p.values as never[]),
      );
      if ((rows[0]?.deltas ?? 0) > STATS_FOLD_AT && !folding.has(userId)) {
        // Beside the search, one at a time per owner in this process; a failure is retried by a later search.
        const done = foldStats(userId)
          .catch(() => {})
          .finally(() => folding.delete(userId));
        folding.set(userId, done);
      }
      return rows.map((r) => ({ rowid: r.rowid, rank: r.rank }));
    },
    foldStats,
    /** Resolves once the folds searches started have finished (for tests). */
    async foldsSettled(): Promise<void> {
      await Promise.all(folding.values());
    },
  };
}

// Search: text (FTS5 BM25), vector (binary candidates + exact cosine) and hybrid (score-aware fusion, see fuse),
// results grouped per source, note or highlight with the best chunk as snippet. Always scoped to the owner.
import { type CollectorPacer, createCollectorPacer } from "./collector-pacer.ts";
import type { Embedder } from "../../ai/embedder/port.ts";
import { AIError, aiErrorToAppError } from "../../ai/openai-client.ts";
import type { Actor } from "../../actor.ts";
import { invalid } from "../../errors.ts";
import type { LibraryReader } from "../library/reader.ts";
import type { ChunkRow, ChunkScope, ChunksRepo, DocType } from "./chunks-repo.ts";
import { stem } from "../../ai/embedder/builtin.ts";
import { contentTerms, ftsExpression, makeSnippet } from "./query.ts";
import type { SearchHit, SearchMode } from "./schema.ts";
import type { VectorIndex } from "./vectors.ts";

const POOL = 100;
/** Binary-code candidates re-ranked per vector search; sized for recall@10 ≥ 0.95 (see docs/performance.md). */
const CANDIDATES = 1024;
/** In hybrid mode the vector half only feeds the fusion with the text ranking: half as many. */
const HYBRID_CANDIDATES = 512;
/** Text hits whose share of the query's words is measured for the relevance floor. */
const COVERAGE_HITS = 8;

export interface Ranked {
  rowid: number;
  score: number;
}

export interface SearchOptions {
  mode: SearchMode;
  types?: DocType[];
  notebookId?: string;
  limit: number;
  /** Restrict to these sources (ask with source_ids). */
  sourceIds?: string[];
}

/**
 * Score-aware fusion, fitted on the development data (the held-out pages' dev split and the project's
 * own sets) by `scripts/fit-fusion.ts --own-sets` (see docs/quality.md, "Held-out pages"). A chunk's text evidence is t = b / (b + textSaturation), b its
 * BM25 score: BM25 already sums the idf of the query terms the chunk holds, so t grows with how many
 * and how rare they are and saturates (one common word adds little). Ranking: cosine +
 * (textWeight + coverageWeight · coverage^coverageExponent) · t — the fit (docs/quality.md, on the
 * enlarged dev split) gives text a steady say and more again to chunks holding most of the query's
 * content words: a question written from a page names its words and text is right, a paraphrase
 * does not and the cosine decides.
 * Relevance: cosine − floor + gateWeight · coverage · t, the cosine's margin above the embedder's
 * floor plus the text evidence weighed by the share of the query's content words the chunk holds
 * (one rare word of four — "Iceland" in a question about volcanoes — is a weak sign); the question
 * is about something in the library only when some chunk's relevance is above zero, and then
 * chunks down to `band` below zero are listed.
 */
export const FUSION = {
  textWeight: 0.6,
  textSaturation: 32,
  gateWeight: 0.8,
  band: 0,
  coverageWeight: 0.8,
  coverageExponent: 2,
} as const;
export type FusionParams = {
  textWeight: number;
  textSaturation: number;
  gateWeight: number;
  band: number;
  /**
   * More trust in the text evidence of a chunk holding (nearly) all of the query's words: its rank
   * weight is textWeight + coverageWeight · coverage^coverageExponent.
   */
  coverageWeight?: number;
  coverageExponent?: number;
};

/**
 * Combines a text ranking (BM25 scores) with the cosine of every candidate. One floor for the
 * question as a whole: when no chunk's relevance clears it, the library does not cover the subject
 * and nothing is returned (a few shared common words or a "nearest" neighbour are not relevance).
 * Text hits without a vector yet (not embedded) are kept, ranked by their text part alone.
 */
export function fuse(
  text: Ranked[],
  cos: Map<number, number>,
  floor: number,
  p: FusionParams = FUSION,
  coverage?: Map<number, number>,
): Ranked[] {
  const bm = new Map(text.map((t) => [t.rowid, Math.max(0, t.score)]));
  const t = (rowid: number) => {
    const b = bm.get(rowid) ?? 0;
    return b / (b + p.textSaturation);
  };
  let relevant = false;
  const out: Ranked[] = [];
  for (const [rowid, c] of cos) {
    const relevance = c - floor + p.gateWeight * (coverage ? (coverage.get(rowid) ?? 0) : 1) * t(rowid);
    if (relevance > 0) relevant = true;
    const cov = coverage?.get(rowid) ?? 0;
    const weight = p.textWeight + (p.coverageWeight ?? 0) * cov ** (p.coverageExponent ?? 1);
    if (relevance > -p.band) out.push({ rowid, score: c + weight * t(rowid) });
  }
  for (const rowid of bm.keys()) {
    if (cos.has(rowid)) continue;
    relevant = true;
    out.push({ rowid, score: p.textWeight * t(rowid) });
  }
  return relevant ? out.sort((a, b) => b.score - a.score || a.rowid - b.rowid) : [];
}

/** Share of the query's content words (stemmed) that a text holds. */
export function termCoverage(query: string, text: string): number {
  const q = new Set(contentTerms(query).map(stem));
  if (q.size === 0) return 0;
  const have = new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem));
  let n = 0;
  for (const t of q) if (have.has(t)) n++;
  return n / q.size;
}

/** Vector hits under the same floor: none when the best is not above it, else those within `band` of it. */
export function gateVector(hits: Ranked[], floor: number, band: number = FUSION.band): Ranked[] {
  if (!hits.some((h) => h.score > floor)) return [];
  return hits.filter((h) => h.score > floor - band);
}

export function createSearchService(deps: {
  chunks: ChunksRepo;
  /** Notebooks a search is scoped to; titles and addresses of the sources hits come from. */
  library: Pick<LibraryReader, "existingNotebookIds" | "sourceTitlesAndUrls" | "highlightsByIds">;
  vectors: VectorIndex;
  embedderFor: (model: string) => Embedder | null;
  /** Schedules collections between searches (see collector-pacer.ts); one per service by default. */
  pacer?: CollectorPacer;
}) {
  const { chunks, vectors, library } = deps;
  const pacer = deps.pacer ?? createCollectorPacer();

  async function textRanking(userId: string, query: string, o: SearchOptions, pool: number): Promise<Ranked[]> {
    const match = ftsExpression(query);
    if (!match) return [];
    const docType = o.types?.length === 1 ? o.types[0] : undefined;
    return (
      await chunks.fts(userId, match, { limit: pool, docType, notebookId: o.notebookId, sourceIds: o.sourceIds })
    ).map((r) => ({ rowid: r.rowid, score: -r.rank }));
  }

  /** The query's vector; null when it has no features at all (only punctuation): it has no neighbours. */
  async function embedQuery(embedder: Embedder, query: string): Promise<Float32Array | null> {
    let v: Float32Array | undefined;
    try {
      [v] = await embedder.embed([query], "query");
    } catch (err) {
      throw err instanceof AIError ? aiErrorToAppError(err) : err;
    }
    return v?.some((x) => x !== 0) ? v : null;
  }

  /** The chunks a filtered search may return, or null for "all of the user's". */
  function scope(userId: string, o: SearchOptions, docType: DocType | undefined): ChunkScope | null {
    if (!o.notebookId && !o.sourceIds) return null;
    return { userId, docType, notebookId: o.notebookId, sourceIds: o.sourceIds };
  }

  /** The active slot's embedder, its floor and the query's vector; null when vector search cannot run. */
  async function queryVector(query: string) {
    const slot = await vectors.active();
    if (!slot) return null;
    const embedder = deps.embedderFor(slot.model);
    if (!embedder) return null;
    const q = await embedQuery(embedder, query);
    // Cosine ≤ 0: nothing in common with the query, however "nearest" it is.
    return q ? { slot, q, floor: Math.max(0, embedder.relevanceFloor ?? 0) } : null;
  }

  async function vectorRanking(userId: string, query: string, o: SearchOptions, pool: number): Promise<Ranked[]> {
    const qv = await queryVector(query);
    return qv ? vectorHits(userId, qv, o, pool) : [];
  }

  async function vectorHits(
    userId: string,
    qv: NonNullable<Awaited<ReturnType<typeof queryVector>>>,
    o: SearchOptions,
    pool: number,
    candidates = CANDIDATES,
  ): Promise<Ranked[]> {
    const docType = o.types?.length === 1 ? o.types[0] : undefined;
    const scoped = scope(userId, o, docType);
    const hits = scoped
      ? await vectors.exactInScope(qv.slot, qv.q, scoped, pool)
      : await vectors.knn(qv.slot, userId, qv.q, { k: pool, candidates: Math.max(candidates, pool * 2), docType });
    // Below the calibrated floor a query is about nothing in the library: it finds nothing.
    return gateVector(
      hits.map((h) => ({ rowid: h.rowid, score: 1 - h.distance })),
      qv.floor,
    );
  }

  /**
   * What each ranker says about a query: the text ranking with its BM25 scores, and the cosine of
   * every candidate (vector neighbours and text hits alike). Null cosines: no vector search (no
   * active model, or a query without features).
   */
  async function evidence(
    userId: string,
    query: string,
    o: SearchOptions,
    pool: number,
  ): Promise<{ text: Ranked[]; cos: Map<number, number> | null; floor: number; coverage: Map<number, number> }> {
    const text = await textRanking(userId, query, o, pool);
    const qv = await queryVector(query);
    const coverage = new Map<number, number>();
    if (!qv) return { text, cos: null, floor: 0, coverage };
    // How much of the query the best text hits hold: the relevance floor's text evidence.
    const rows = await chunks.byRowids(text.slice(0, COVERAGE_HITS).map((t) => t.rowid));
    for (const [rowid, r] of rows) coverage.set(rowid, termCoverage(query, `${r.title} ${r.heading ?? ""} ${r.text}`));
    const vector = await vectorHits(userId, { ...qv, floor: -1 }, o, pool, HYBRID_CANDIDATES);
    const cos = new Map(vector.map((v) => [v.rowid, v.score]));
    const textIds = text.filter((t) => !cos.has(t.rowid)).map((t) => t.rowid);
    if (textIds.length) {
      for (const [rowid, c] of await vectors.similarities(qv.slot, userId, qv.q, textIds)) cos.set(rowid, c);
    }
    return { text, cos, floor: qv.floor, coverage };
  }

  /**
   * Text and vector evidence combined by score (see fuse): a chunk's cosine above the embedder's
   * floor plus its BM25 evidence, kept when the sum clears the hybrid floor. Without vectors the
   * text ranking stands as it is.
   */
  async function hybridRanking(userId: string, query: string, o: SearchOptions, pool: number): Promise<Ranked[]> {
    const e = await evidence(userId, query, o, pool);
    if (!e.cos) return e.text;
    return fuse(e.text, e.cos, e.floor, FUSION, e.coverage);
  }

  /** Chunk rankings for a mode (best first), before grouping. */
  async function rank(actor: Actor, query: string, o: SearchOptions, pool = POOL): Promise<Ranked[]> {
    pacer.searched();
    if (o.notebookId && (await library.existingNotebookIds(actor.userId, [o.notebookId])).size === 0) return [];
    if (o.mode === "text") return textRanking(actor.userId, query, o, pool);
    if (o.mode === "vector") return vectorRanking(actor.userId, query, o, pool);
    return hybridRanking(actor.userId, query, o, pool);
  }

  async function docInfo(
    userId: string,
    rows: ChunkRow[],
  ): Promise<Map<string, { title: string | null; url: string | null; sourceId?: string }>> {
    const out = new Map<string, { title: string | null; url: string | null; sourceId?: string }>();
    const srcIds = rows.filter((r) => r.docType === "source").map((r) => r.docId);
    if (srcIds.length) {
      for (const s of await library.sourceTitlesAndUrls(srcIds))
        out.set(`source:${s.id}`, { title: s.title, url: s.url });
    }
    // A highlight shows its source's title and address, and names the source.
    const hlIds = rows.filter((r) => r.docType === "highlight").map((r) => r.docId);
    if (hlIds.length) {
      for (const h of await library.highlightsByIds(userId, hlIds))
        out.set(`highlight:${h.id}`, { title: h.title, url: h.url, sourceId: h.sourceId });
    }
    for (const r of rows) if (r.docType === "note") out.set(`note:${r.docId}`, { title: r.title || null, url: null });
    return out;
  }

  return {
    rank,
    /** The rankers' evidence for a query, for fitting the fusion (scripts/fit-fusion.ts). */
    evidence: (actor: Actor, query: string, o: SearchOptions, pool = POOL) => evidence(actor.userId, query, o, pool),
    /**
     * Ranked chunks with their rows, filtered to the requested sources and their highlights (for
     * ask). A highlight's passage carries its source's id, title and address.
     */
    async passages(
      actor: Actor,
      query: string,
      o: SearchOptions,
      k: number,
    ): Promise<{ row: ChunkRow; score: number; source?: { id: string; title: string | null; url: string } }[]> {
      const ranked = await rank(actor, query, o, Math.max(POOL, k * 4));
      const rows = await chunks.byRowids(ranked.map((r) => r.rowid));
      const hlIds = [...rows.values()].filter((r) => r.docType === "highlight").map((r) => r.docId);
      const hl = new Map(
        (await library.highlightsByIds(actor.userId, hlIds)).map((h) => [
          h.id,
          { id: h.sourceId, title: h.title, url: h.url },
        ]),
      );
      const allowed = o.sourceIds ? new Set(o.sourceIds) : null;
      const out: { row: ChunkRow; score: number; source?: { id: string; title: string | null; url: string } }[] = [];
      for (const r of ranked) {
        const row = rows.get(r.rowid);
        if (!row || row.userId !== actor.userId) continue;
        const source = row.docType === "highlight" ? hl.get(row.docId) : undefined;
        if (row.docType === "highlight" && !source) continue; // deleted meanwhile
        if (allowed && !allowed.has(source?.id ?? (row.docType === "source" ? row.docId : ""))) continue;
        out.push(source ? { row, score: r.score, source } : { row, score: r.score });
        if (out.length >= k) break;
      }
      return out;
    },

    async search(actor: Actor, query: string, o: SearchOptions): Promise<SearchHit[]> {
      if (!query.trim()) throw invalid("query", "must not be empty");
      const ranked = await rank(actor, query, o);
      // The best chunk per document, chosen on keys only; the text is read for the chosen ones.
      const keys = await chunks.keysByRowids(ranked.map((r) => r.rowid));
      const picked = new Map<string, { rowid: number; score: number }>();
      for (const r of ranked) {
        const k = keys.get(r.rowid);
        if (!k || k.userId !== actor.userId) continue;
        if (o.types && !o.types.includes(k.docType)) continue;
        const key = `${k.docType}:${k.docId}`;
        if (!picked.has(key)) picked.set(key, { rowid: r.rowid, score: r.score });
        if (picked.size >= o.limit) break;
      }
      const rows = await chunks.byRowids([...picked.values()].map((p) => p.rowid));
      const best = [...picked.values()].flatMap((p) => {
        const row = rows.get(p.rowid);
        return row && row.userId === actor.userId ? [{ row, score: p.score }] : [];
      });
      const info = await docInfo(
        actor.userId,
        best.map((b) => b.row),
      );
      return best.map(({ row, score }): SearchHit => {
        const { snippet, highlights } = makeSnippet(row.text, query);
        const meta = info.get(`${row.docType}:${row.docId}`);
        return {
          type: row.docType,
          id: row.docId,
          ...(meta?.sourceId ? { source_id: meta.sourceId } : {}),
          title: meta?.title ?? null,
          url: meta?.url ?? null,
          snippet,
          highlights,
          score: Math.round(score * 1e6) / 1e6,
          chunk_id: row.chunkId,
        };
      });
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;

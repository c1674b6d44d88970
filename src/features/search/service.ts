// Search: text (FTS5 BM25), vector (binary candidates + exact cosine) and hybrid (RRF, k = 60),
// results grouped per source, note or highlight with the best chunk as snippet. Always scoped to the owner.
import type { Embedder } from "../../ai/embedder/port.ts";
import { AIError, aiErrorToAppError } from "../../ai/openai-client.ts";
import type { Actor } from "../../actor.ts";
import { invalid } from "../../errors.ts";
import type { LibraryReader } from "../library/reader.ts";
import type { ChunkRow, ChunkScope, ChunksRepo, DocType } from "./chunks-repo.ts";
import { ftsExpression, makeSnippet } from "./query.ts";
import type { SearchHit, SearchMode } from "./schema.ts";
import type { VectorIndex } from "./vectors.ts";

export const RRF_K = 60;
const POOL = 100;
/** Binary-code candidates re-ranked per vector search; sized for recall@10 ≥ 0.95 (see docs/performance.md). */
const CANDIDATES = 1024;
/** In hybrid mode the vector half only feeds the fusion with the text ranking: half as many. */
const HYBRID_CANDIDATES = 512;

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

/** Reciprocal rank fusion of several rankings (best first). */
export function rrf(lists: Ranked[][], k = RRF_K): Ranked[] {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach((r, i) => scores.set(r.rowid, (scores.get(r.rowid) ?? 0) + 1 / (k + i + 1)));
  return [...scores].map(([rowid, score]) => ({ rowid, score })).sort((a, b) => b.score - a.score);
}

/**
 * Reorders an RRF-fused list so that a hit found only by vector never precedes a text hit at least
 * as similar to the query (`cos`: cosine per chunk; a text hit without one counts as more similar,
 * it is not embedded yet). Vector-only hits never move up; scores stay RRF's, clamped so that they
 * never rise down the list.
 */
export function keepTextAhead(fused: Ranked[], inText: Set<number>, cos: Map<number, number>): Ranked[] {
  // Each vector-only hit goes after the last text hit at least as similar (text hits not yet
  // embedded count as more similar) and never earlier than RRF put it.
  const textOrder = fused.filter((r) => inText.has(r.rowid));
  const after = new Map<number, number>(); // vector-only rowid → how many text hits precede it
  let seen = 0;
  for (const r of fused) {
    if (inText.has(r.rowid)) {
      seen++;
      continue;
    }
    const c = cos.get(r.rowid)!;
    let last = -1;
    textOrder.forEach((t, i) => {
      if ((cos.get(t.rowid) ?? Infinity) >= c) last = i;
    });
    after.set(r.rowid, Math.max(seen, last + 1));
  }
  const out: Ranked[] = [];
  const place = (k: number) => {
    for (const r of fused) if (after.get(r.rowid) === k) out.push(r);
  };
  place(0);
  textOrder.forEach((t, i) => {
    out.push(t);
    place(i + 1);
  });
  let prev = Infinity;
  return out.map((r) => ({ rowid: r.rowid, score: (prev = Math.min(prev, r.score)) }));
}

export function createSearchService(deps: {
  chunks: ChunksRepo;
  /** Notebooks a search is scoped to; titles and addresses of the sources hits come from. */
  library: Pick<LibraryReader, "existingNotebookIds" | "sourceTitlesAndUrls" | "highlightsByIds">;
  vectors: VectorIndex;
  embedderFor: (model: string) => Embedder | null;
}) {
  const { chunks, vectors, library } = deps;

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
    // Below the calibrated floor a chunk is unrelated: a query about nothing in the library finds nothing.
    return hits.filter((h) => 1 - h.distance > qv.floor).map((h) => ({ rowid: h.rowid, score: 1 - h.distance }));
  }

  /**
   * Text and vector rankings fused by RRF. Vector hits below the floor are already gone, so a
   * query that shares no word and no meaning with the library finds nothing. Text hits all stay:
   * a rare word ("APY") is strong evidence even when the chunk's vector is not close, and chunks
   * not embedded yet must stay findable. A hit found only by vector never ranks above a text hit
   * at least as similar to the query.
   */
  async function hybridRanking(userId: string, query: string, o: SearchOptions, pool: number): Promise<Ranked[]> {
    const text = await textRanking(userId, query, o, pool);
    const qv = await queryVector(query);
    if (!qv) return text;
    const vector = await vectorHits(userId, qv, o, pool, HYBRID_CANDIDATES);
    const cos = new Map(vector.map((v) => [v.rowid, v.score]));
    const textIds = text.filter((t) => !cos.has(t.rowid)).map((t) => t.rowid);
    if (textIds.length) {
      for (const [rowid, c] of await vectors.similarities(qv.slot, userId, qv.q, textIds)) cos.set(rowid, c);
    }
    return keepTextAhead(rrf([text, vector]), new Set(text.map((t) => t.rowid)), cos);
  }

  /** Chunk rankings for a mode (best first), before grouping. */
  async function rank(actor: Actor, query: string, o: SearchOptions, pool = POOL): Promise<Ranked[]> {
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

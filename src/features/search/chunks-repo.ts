// SQL for chunks and the FTS5 index over them (kept in sync by triggers in the same transaction).
import type { SqliteDb } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import type { Chunk } from "./chunker.ts";

export type DocType = "source" | "note" | "highlight";

export interface ChunkRow {
  rowid: number;
  chunkId: string;
  userId: string;
  docType: DocType;
  docId: string;
  idx: number;
  title: string;
  heading: string | null;
  text: string;
  start: number;
  end: number;
}

const COLS = `c.id rowid, c.chunk_id chunkId, c.user_id userId, c.doc_type docType, c.doc_id docId, c.idx, c.title, c.heading, c.text,
  c.start_offset start, c.end_offset "end"`;

/** SQL selecting the chunk rowids of some of a user's sources and of their highlights (a JSON array of source ids, twice). */
export const SOURCES_CHUNKS_SQL = `SELECT c.id FROM chunks c WHERE c.user_id = ? AND (
  (c.doc_type = 'source' AND c.doc_id IN (SELECT value FROM json_each(?)))
  OR (c.doc_type = 'highlight' AND c.doc_id IN (SELECT id FROM highlights WHERE source_id IN (SELECT value FROM json_each(?)))))`;

/** SQL selecting the chunk rowids of a user's notebook: its sources, their highlights, and its notes. */
export const NOTEBOOK_CHUNKS_SQL = `SELECT c.id FROM chunks c WHERE c.user_id = ? AND (
  (c.doc_type = 'source' AND c.doc_id IN (SELECT source_id FROM notebook_sources WHERE notebook_id = ?))
  OR (c.doc_type = 'note' AND c.doc_id IN (SELECT id FROM notes WHERE notebook_id = ?))
  OR (c.doc_type = 'highlight' AND c.doc_id IN (SELECT h.id FROM highlights h
      JOIN notebook_sources ns ON ns.source_id = h.source_id WHERE ns.notebook_id = ?)))`;

/** Which of a user's chunks a filtered search may return. */
export interface ChunkScope {
  userId: string;
  docType?: DocType;
  notebookId?: string;
  sourceIds?: string[];
}

/** Conditions on `c` (chunks) for a scope, and their arguments in order. */
export function scopeConditions(scope: ChunkScope): { conds: string[]; args: (string | number)[] } {
  const conds = ["c.user_id = ?"];
  const args: (string | number)[] = [scope.userId];
  if (scope.docType) {
    conds.push("c.doc_type = ?");
    args.push(scope.docType);
  }
  if (scope.notebookId) {
    conds.push(`c.id IN (${NOTEBOOK_CHUNKS_SQL})`);
    args.push(scope.userId, scope.notebookId, scope.notebookId, scope.notebookId);
  }
  if (scope.sourceIds) {
    conds.push(`c.id IN (${SOURCES_CHUNKS_SQL})`);
    args.push(scope.userId, JSON.stringify(scope.sourceIds), JSON.stringify(scope.sourceIds));
  }
  return { conds, args };
}

const INSERT_SQL = `INSERT INTO chunks (chunk_id, user_id, doc_type, doc_id, idx, title, heading, text, start_offset, end_offset, token_count)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const DELETE_SQL = "DELETE FROM chunks WHERE doc_type = ? AND doc_id = ?";

export function createChunksSqliteRepo(db: SqliteDb): ChunksRepo {
  return {
    /** Replaces a document's chunks; call inside the transaction that changed the document. */
    async replace(doc, chunks) {
      await db.exec((c) => {
        c.sqlite.query(DELETE_SQL).run(doc.type, doc.id);
        const insert = c.sqlite.query(INSERT_SQL);
        for (const ch of chunks) {
          insert.run(
            newId("chunk"),
            doc.userId,
            doc.type,
            doc.id,
            ch.index,
            doc.title,
            ch.heading,
            ch.text,
            ch.start,
            ch.end,
            ch.tokenCount,
          );
        }
      });
    },
    async remove(type, id) {
      await db.exec((c) => c.sqlite.query(DELETE_SQL).run(type, id));
    },
    /** Owner and document of chunks, without their text (picking hits reads many rows, shows few). */
    async keysByRowids(rowids) {
      if (rowids.length === 0) return new Map();
      const rows = await db.query((c) =>
        c.sqlite
          .query<Pick<ChunkRow, "rowid" | "userId" | "docType" | "docId">, [string]>(
            "SELECT c.id rowid, c.user_id userId, c.doc_type docType, c.doc_id docId FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))",
          )
          .all(JSON.stringify(rowids)),
      );
      return new Map(rows.map((r) => [r.rowid, r]));
    },
    async byRowids(rowids) {
      if (rowids.length === 0) return new Map();
      const rows = await db.query((c) =>
        c.sqlite
          .query<ChunkRow, [string]>(`SELECT ${COLS} FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(rowids)),
      );
      return new Map(rows.map((r) => [r.rowid, r]));
    },
    async forDoc(type, id) {
      return db.query((c) =>
        c.sqlite
          .query<ChunkRow, [string, string]>(
            `SELECT ${COLS} FROM chunks c WHERE c.doc_type = ? AND c.doc_id = ? ORDER BY c.idx`,
          )
          .all(type, id),
      );
    },
    async count() {
      return db.query((c) => c.sqlite.query<{ n: number }, []>("SELECT count(*) n FROM chunks").get()!.n);
    },

    /** BM25 over title (weighted highest), heading and text, scoped to the owner and filters. */
    async fts(userId, match, opts) {
      const { conds, args } = scopeConditions({ userId, ...opts });
      return db.query((c) =>
        c.sqlite
          .query<{ rowid: number; rank: number }, any[]>(
            `SELECT f.rowid rowid, bm25(chunks_fts, 4.0, 2.0, 1.0) rank FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
             WHERE chunks_fts MATCH ? AND ${conds.join(" AND ")} ORDER BY rank LIMIT ?`,
          )
          .all(match, ...args, opts.limit),
      );
    },
  };
}
/** What the feature needs of its chunks table(s); SQLite below, PostgreSQL in chunks-pg-repo.ts (src/stores.ts chooses). */
export interface ChunksRepo {
  /** Replaces a document's chunks; call inside the transaction that changed the document. */
  replace(
    doc: {
      type: DocType;
      id: string;
      userId: string;
      title: string;
    },
    chunks: Chunk[],
  ): Promise<void>;
  remove(type: DocType, id: string): Promise<void>;
  /** Owner and document of chunks, without their text (picking hits reads many rows, shows few). */
  keysByRowids(rowids: number[]): Promise<Map<number, Pick<ChunkRow, "rowid" | "userId" | "docType" | "docId">>>;
  byRowids(rowids: number[]): Promise<Map<number, ChunkRow>>;
  forDoc(type: DocType, id: string): Promise<ChunkRow[]>;
  count(): Promise<number>;
  /** BM25 over title (weighted highest), heading and text, scoped to the owner and filters. */
  fts(
    userId: string,
    match: string,
    opts: {
      limit: number;
      docType?: DocType;
      notebookId?: string;
      sourceIds?: string[];
    },
  ): Promise<
    {
      rowid: number;
      rank: number;
    }[]
  >;
}

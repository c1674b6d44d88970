// Owners' binary codes held in memory for vector search (a cache over the vec0 code table).
import type { Database } from "bun:sqlite";
import { type CodeStore, createCodeStore } from "./code-store.ts";
import type { ModelSlot } from "./vectors.ts";

/**
 * Owners' codes in memory, loaded lazily from the code table, kept up to date by this index's own
 * writes, least recently used owners evicted beyond the byte budget. Another connection's commit
 * (the CLI, another process) changes `PRAGMA data_version`: everything is reloaded on demand then.
 */
export function createCodeCache(sqlite: Database, budget: number) {
  const stores = new Map<string, CodeStore>(); // "slot:user" → store, least recently used first
  const tooBig = new Set<string>();
  let version = -1;
  const key = (slot: number, userId: string) => `${slot}:${userId}`;
  const total = () => [...stores.values()].reduce((n, s) => n + s.bytes, 0);

  function checkVersion(): void {
    const v = sqlite.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
    if (v !== version) {
      stores.clear();
      tooBig.clear();
      version = v;
    }
  }

  return {
    bytes: total,
    dropSlot(slot: number): void {
      for (const k of [...stores.keys()]) if (k.startsWith(`${slot}:`)) stores.delete(k);
    },
    /** Keeps a loaded store in step with a code written to the table (unloaded ones load it later). */
    put(slot: number, userId: string, rowid: number, docType: string, code: Uint8Array, vector: Float32Array): void {
      stores.get(key(slot, userId))?.put(rowid, docType, code, vector);
    },
    /** The owner's codes if they are in memory now (never loads them). */
    loaded(slot: number, userId: string): CodeStore | undefined {
      checkVersion();
      return stores.get(key(slot, userId));
    },
    /** The owner's codes in memory, loading them if they fit; null means "search the table". */
    store(slot: ModelSlot, table: string, userId: string, bits: number): CodeStore | null {
      checkVersion();
      const k = key(slot.slot, userId);
      const hit = stores.get(k);
      if (hit) {
        stores.delete(k); // most recently used goes last
        stores.set(k, hit);
        return hit;
      }
      if (tooBig.has(k)) return null;
      const rows = sqlite.query<{ rowid: number; docType: string; code: Uint8Array }, [string]>(
        `SELECT rowid, doc_type docType, embedding code FROM ${table} WHERE user_id = ?`,
      );
      const store = createCodeStore(bits, 1024, { dims: slot.dimensions });
      for (const r of rows.iterate(userId)) {
        store.put(r.rowid, r.docType, r.code);
        if (store.bytes > budget) {
          tooBig.add(k);
          return null;
        }
      }
      const floats = sqlite.query<{ rowid: number; e: Uint8Array }, [number, string]>(
        "SELECT v.chunk_rowid rowid, v.embedding e FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_rowid WHERE v.slot = ? AND c.user_id = ?",
      );
      let n = 0;
      for (const r of floats.iterate(slot.slot, userId)) {
        store.setVector(r.rowid, new Float32Array(r.e.buffer, r.e.byteOffset, r.e.byteLength / 4));
        // Each row is a fresh blob the collector does not hurry to free: without this, loading
        // 100k vectors left ~300 MB of garbage behind (peak RSS).
        if (++n % 16384 === 0) Bun.gc(false);
      }
      stores.set(k, store);
      for (const other of stores.keys()) {
        if (total() <= budget || other === k) break;
        stores.delete(other);
      }
      return store;
    },
  };
}

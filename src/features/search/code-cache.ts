// Owners' binary codes held in memory for vector search (a cache over the vec0 code table).
import { type CodeStore, codeBytes, createCodeStore } from "./code-store.ts";
import type { ModelSlot } from "./vectors.ts";
import type { VectorsRepo } from "./vectors-repo.ts";

/** Float vectors read per query while loading an owner (each page's blobs are then let go). */
const FLOAT_PAGE = 16384;

/**
 * Owners' codes in memory, loaded lazily from the code table, kept up to date by this index's own
 * writes, least recently used owners evicted beyond the byte budget. Another connection's commit
 * (the CLI, another process) changes `PRAGMA data_version`: everything is reloaded on demand then.
 */
export function createCodeCache(repo: VectorsRepo, budget: number) {
  const stores = new Map<string, CodeStore>(); // "slot:user" → store, least recently used first
  const tooBig = new Set<string>();
  let version = -1;
  const key = (slot: number, userId: string) => `${slot}:${userId}`;
  const total = () => [...stores.values()].reduce((n, s) => n + s.bytes, 0);

  async function checkVersion(): Promise<void> {
    const v = await repo.dataVersion();
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
    async loaded(slot: number, userId: string): Promise<CodeStore | undefined> {
      await checkVersion();
      return stores.get(key(slot, userId));
    },
    /** The owner's codes in memory, loading them if they fit; null means "search the table". */
    async store(slot: ModelSlot, userId: string, bits: number): Promise<CodeStore | null> {
      await checkVersion();
      const k = key(slot.slot, userId);
      const hit = stores.get(k);
      if (hit) {
        stores.delete(k); // most recently used goes last
        stores.set(k, hit);
        return hit;
      }
      if (tooBig.has(k)) return null;
      // Each code costs the store at least its bytes, its int8 vector and its rowid: more rows than
      // this cannot fit, so no more are read (an owner far over the budget is not read whole).
      const fits = Math.floor(budget / (codeBytes(bits) + slot.dimensions + 8)) + 1;
      const store = createCodeStore(bits, 1024, { dims: slot.dimensions });
      const codes = await repo.ownerCodes(slot.slot, userId, fits);
      for (const r of codes) {
        store.put(r.rowid, r.docType, r.code);
        if (store.bytes > budget) {
          tooBig.add(k);
          return null;
        }
      }
      // The float vectors of the chunks just loaded (a code exists for every vector), a page at a time.
      for (let i = 0; i < codes.length; i += FLOAT_PAGE) {
        const page = await repo.floatsOf(
          slot.slot,
          codes.slice(i, i + FLOAT_PAGE).map((r) => r.rowid),
        );
        for (const r of page)
          store.setVector(r.rowid, new Float32Array(r.e.buffer, r.e.byteOffset, r.e.byteLength / 4));
        // Each row is a fresh blob the collector does not hurry to free: without this, loading
        // 100k vectors left ~300 MB of garbage behind (peak RSS).
        if (page.length === FLOAT_PAGE) Bun.gc(false);
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

// Owners' binary codes held in memory for vector search (a cache over the vec0 code table).
import { type CodeStore, createCodeStore } from "./code-store.ts";
import type { ModelSlot } from "./vector-types.ts";
import type { VectorsRepo } from "./vectors-repo.ts";

/**
 * Owners' codes in memory, loaded lazily from the code table, kept up to date by this index's own
 * writes, least recently used owners evicted beyond the byte budget. Another connection's commit
 * (the CLI, another process) changes `PRAGMA data_version`: everything is reloaded on demand then.
 */
export function createCodeCache(repo: VectorsRepo, budget: number) {
  const stores = new Map<string, CodeStore>(); // "slot:user" → store, least recently used first
  const tooBig = new Set<string>();
  /** Codes written while an owner's store is being loaded: applied once the load ends. */
  type Entry = [rowid: number, docType: string, code: Uint8Array, vector: Float32Array];
  const loading = new Map<string, Entry[]>();
  /** One load per owner at a time: a second search waits for the first one's. */
  const inflight = new Map<string, Promise<CodeStore | null>>();
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
    /**
     * Keeps a loaded store in step with a code written to the table (unloaded ones load it later); a
     * store being loaded gets it when its load ends. Returns whether the owner's store was in memory.
     */
    put(slot: number, userId: string, rowid: number, docType: string, code: Uint8Array, vector: Float32Array): boolean {
      const k = key(slot, userId);
      const store = stores.get(k);
      if (store) store.put(rowid, docType, code, vector);
      else loading.get(k)?.push([rowid, docType, code, vector]);
      return store !== undefined;
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
      const running = inflight.get(k);
      if (running) return running;
      const store = createCodeStore(bits, 1024, { dims: slot.dimensions });
      const queued: Entry[] = [];
      loading.set(k, queued);
      const done = load(k, slot, userId, store, queued).finally(() => {
        loading.delete(k);
        inflight.delete(k);
      });
      inflight.set(k, done);
      return done;
    },
  };

  async function load(k: string, slot: ModelSlot, userId: string, store: CodeStore, queued: Entry[]) {
    {
      // Streamed row by row (one read), so loading never holds the owner's rows twice; a store
      // over the budget stops the read at once (an owner far over it is not read whole).
      let over = false;
      await repo.eachOwnerCode(slot.slot, userId, (r) => {
        store.put(r.rowid, r.docType, r.code);
        over = store.bytes > budget;
        return !over;
      });
      if (over) {
        tooBig.add(k);
        return null;
      }
      let n = 0;
      await repo.eachOwnerFloat(slot.slot, userId, (rowid, e) => {
        store.setVector(rowid, new Float32Array(e.buffer, e.byteOffset, e.byteLength / 4));
        // Each row is a fresh blob the collector does not hurry to free: without this, loading
        // 100k vectors left ~300 MB of garbage behind (peak RSS).
        if (++n % 16384 === 0) Bun.gc(false);
      });
      // Codes written meanwhile (their transaction may have committed after this read began).
      for (const [rowid, docType, code, vector] of queued) store.put(rowid, docType, code, vector);
      stores.set(k, store);
      for (const other of stores.keys()) {
        if (total() <= budget || other === k) break;
        stores.delete(other);
      }
      return store;
    }
  }
}

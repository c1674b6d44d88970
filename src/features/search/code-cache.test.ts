// The in-memory code cache against a store that commits while a search is loading an owner's codes
// (PostgreSQL: the load runs on another connection and cannot see the writer's uncommitted rows).
import { describe, expect, test } from "bun:test";
import { createCodeCache } from "./code-cache.ts";
import type { VectorsRepo } from "./vectors-repo.ts";

const slot = { slot: 1, dimensions: 4 } as Parameters<ReturnType<typeof createCodeCache>["store"]>[0];
const code = (n: number) => new Uint8Array(8).fill(n);
const vec = () => new Float32Array([1, 0, 0, 0]);

/** A code table whose reads can be held half-way, as a slow load on another connection would be. */
function table(rows: number[]) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let began: () => void = () => {};
  const reading = new Promise<void>((r) => {
    began = r;
  });
  const repo = {
    dataVersion: async () => 1,
    async eachOwnerCode(
      _slot: number,
      _user: string,
      visit: (r: { rowid: number; docType: string; code: Uint8Array }) => boolean,
    ) {
      const seen = [...rows]; // the snapshot the read began with
      began();
      await gate;
      for (const rowid of seen) if (!visit({ rowid, docType: "source", code: code(rowid) })) break;
    },
    async eachOwnerFloat() {},
  } as unknown as VectorsRepo;
  return { repo, release, reading };
}

describe("code cache", () => {
  test("a code written while the owner's store is loading is in the store once the load ends", async () => {
    const { repo, release, reading } = table([1, 2]);
    const cache = createCodeCache(repo, 1 << 30);
    const loading = cache.store(slot, "u", 64);
    await reading;
    // Committed after the load's read began: the read cannot see it; the cache must not lose it.
    expect(cache.put(1, "u", 3, "source", code(3), vec())).toBe(false);
    release();
    const store = (await loading)!;
    expect(store.size).toBe(3);
  });

  test("two searches loading one owner share one load", async () => {
    const { repo, release } = table([1]);
    const cache = createCodeCache(repo, 1 << 30);
    const a = cache.store(slot, "u", 64);
    const b = cache.store(slot, "u", 64);
    release();
    expect(await a).toBe((await b)!);
  });

  test("a code written to a loaded store goes in at once; to an owner not loaded, nowhere", async () => {
    const { repo, release } = table([1]);
    release();
    const cache = createCodeCache(repo, 1 << 30);
    expect(cache.put(1, "other", 9, "source", code(9), vec())).toBe(false);
    const store = (await cache.store(slot, "u", 64))!;
    expect(cache.put(1, "u", 5, "source", code(5), vec())).toBe(true);
    expect(store.size).toBe(2);
  });
});

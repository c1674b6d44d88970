// The in-memory code store: the WebAssembly kernel against plain counting, and the two-stage scan.
import { describe, expect, test } from "bun:test";
import { createCodeStore } from "./code-store.ts";
import { createHammingMemory } from "./hamming.ts";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}
const randomCode = (r: () => number, bytes: number) => Uint8Array.from({ length: bytes }, () => Math.floor(r() * 256));
const popcount = (x: number) => {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
};
const hamming = (a: Uint8Array, b: Uint8Array) => a.reduce((n, x, i) => n + popcount(x ^ b[i]!), 0);

describe("hamming kernel", () => {
  test("the WebAssembly kernel loads here and agrees with the JS fallback and with plain counting", () => {
    const r = rng(1);
    const codes = Array.from({ length: 50 }, () => randomCode(r, 192));
    const q = randomCode(r, 192);
    const results = [false, true].map((forceJs) => {
      const m = createHammingMemory(192 * 52 + 200, { forceJs });
      const u8 = new Uint8Array(m.memory.buffer);
      u8.set(q, 0);
      codes.forEach((c, i) => u8.set(c, 192 * (i + 1)));
      m.distances(0, 192, codes.length, 24, 192 * 51);
      return { wasm: m.wasm, d: [...new Uint16Array(m.memory.buffer, 192 * 51, codes.length)] };
    });
    expect(results[0]!.wasm).toBe(true);
    expect(results[1]!.wasm).toBe(false);
    const expected = codes.map((c) => hamming(q, c));
    expect(results[0]!.d).toEqual(expected);
    expect(results[1]!.d).toEqual(expected);
  });

  test("the gather kernel reads codes by index, in the list's order, in WebAssembly and in JS", () => {
    const r = rng(3);
    const codes = Array.from({ length: 40 }, () => randomCode(r, 192));
    const q = randomCode(r, 192);
    const list = [39, 0, 17, 17, 5, 22, 38];
    const base = 192;
    const listAt = 192 * 41;
    const out = listAt + 64;
    for (const forceJs of [false, true]) {
      const m = createHammingMemory(out + 64, { forceJs });
      const u8 = new Uint8Array(m.memory.buffer);
      u8.set(q, 0);
      codes.forEach((c, i) => u8.set(c, base + 192 * i));
      new Int32Array(m.memory.buffer, listAt, list.length).set(list);
      m.gather(0, base, listAt, list.length, 24, 192, out);
      expect(m.wasm).toBe(!forceJs);
      expect([...new Uint16Array(m.memory.buffer, out, list.length)]).toEqual(list.map((i) => hamming(q, codes[i]!)));
    }
  });
});

describe("code store", () => {
  test("finds the nearest codes through growth, replacement, removal and a type filter", () => {
    const r = rng(2);
    const store = createCodeStore(1536, 16);
    const all = new Map<number, { code: Uint8Array; type: string }>();
    for (let i = 1; i <= 12000; i++) {
      const e = { code: randomCode(r, 192), type: i % 3 ? "source" : "note" };
      all.set(i, e);
      store.put(i, e.type, e.code);
    }
    for (let i = 1; i <= 12000; i += 7) {
      store.remove(i);
      all.delete(i);
    }
    const replaced = randomCode(r, 192);
    store.put(2, "note", replaced);
    all.set(2, { code: replaced, type: "note" });
    expect(store.size).toBe(all.size);
    expect(store.size).toBeGreaterThan(8192); // more than the first stage keeps: both stages run
    for (let t = 0; t < 5; t++) {
      // A query near a stored code, so the true neighbours stand out from the random codes.
      const target = [...all.keys()][Math.floor(r() * all.size)]!;
      const q = all.get(target)!.code.map((b) => (r() < 0.1 ? b ^ (1 << Math.floor(r() * 8)) : b));
      for (const type of [undefined, "note"]) {
        const got = store.nearest(q, 20, type);
        expect(got.length).toBe(20);
        const d = [...all]
          .filter(([, e]) => !type || e.type === type)
          .map(([id, e]) => [id, hamming(q, e.code)] as const);
        d.sort((a, b) => a[1] - b[1]);
        const cut = d[19]![1];
        for (const id of got) {
          expect(!type || all.get(id)!.type === type).toBe(true);
          expect(hamming(q, all.get(id)!.code)).toBeLessThanOrEqual(cut + 40); // prefix stage may swap near ties
        }
        if (!type || all.get(target)!.type === type) expect(got).toContain(target);
      }
    }
    expect(store.nearest(randomCode(r, 192), 5, "unknown-type")).toEqual([]);
  });
});

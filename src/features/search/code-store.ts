// One owner's binary codes held in memory (WebAssembly linear memory) and scanned per query for the
// candidates with the smallest Hamming distance. A cache: SQLite stays the source of truth.
//
// Two stages, because the full scan is memory-bound: every code's first 512 bits (a coarser
// SimHash: any subset of the bits is one) are kept in a dense array and scanned first; the best
// `PREFILTER` of them are compared on all their bits.
import { createHammingMemory, type HammingMemory, PAGE } from "./hamming.ts";

/** Code bytes rounded up to whole 64-bit words (the kernel reads 8 bytes at a time). */
export const codeBytes = (bits: number) => Math.ceil(bits / 64) * 8;
const PREFIX_BYTES = 64;
/** First-stage survivors per wanted candidate, and at least this many. */
const PREFILTER_FACTOR = 8;
const PREFILTER_MIN = 4096;

/**
 * Indices of the `k` smallest distances (ties at the cut in index order), optionally only among
 * entries of one type. A histogram finds the cut in one pass; a second pass collects.
 */
function select(d: Uint16Array, n: number, k: number, maxD: number, types: Uint8Array | null, want: number, out: Int32Array): number {
  const hist = new Int32Array(maxD + 2);
  if (types) {
    for (let i = 0; i < n; i++) if (types[i] === want) hist[d[i]!]!++;
  } else for (let i = 0; i < n; i++) hist[d[i]!]!++;
  let cut = 0;
  let below = 0;
  while (cut <= maxD && below + hist[cut]! < k) below += hist[cut++]!;
  let atCut = k - below;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const x = d[i]!;
    if (x > cut || (types && types[i] !== want)) continue;
    if (x < cut) out[m++] = i;
    else if (atCut > 0) {
      out[m++] = i;
      atCut--;
    }
  }
  return m;
}

export function createCodeStore(bits: number, initialCapacity = 1024, opts: { forceJs?: boolean } = {}) {
  const width = codeBytes(bits);
  const prefix = Math.min(width, PREFIX_BYTES);
  let capacity = Math.max(16, initialCapacity);
  let count = 0;
  let rowids = new Float64Array(capacity);
  let types = new Uint8Array(capacity);
  const typeIds = new Map<string, number>();
  const at = new Map<number, number>(); // rowid → position
  // Layout: [query: width][distances: cap × 2, rounded to 8][prefixes: cap × prefix][codes: cap × width][scratch]
  const distOff = () => width;
  const prefixOff = (cap = capacity) => width + Math.ceil((cap * 2) / 8) * 8;
  const fullOff = (cap = capacity) => prefixOff(cap) + cap * prefix;
  const scratchOff = () => fullOff() + capacity * width;
  const mem: HammingMemory = createHammingMemory(scratchOff(), opts);

  function ensureBytes(bytes: number): void {
    const need = Math.ceil(bytes / PAGE) - mem.memory.buffer.byteLength / PAGE;
    if (need > 0) mem.memory.grow(need);
  }

  function grow(): void {
    const next = capacity * 2;
    ensureBytes(fullOff(next) + next * width);
    const u8 = new Uint8Array(mem.memory.buffer);
    // Both regions move up: the farther one first, so neither overwrites the other.
    u8.copyWithin(fullOff(next), fullOff(), fullOff() + count * width);
    u8.copyWithin(prefixOff(next), prefixOff(), prefixOff() + count * prefix);
    const r = new Float64Array(next);
    r.set(rowids);
    rowids = r;
    const t = new Uint8Array(next);
    t.set(types);
    types = t;
    capacity = next;
  }

  function typeId(type: string): number {
    let id = typeIds.get(type);
    if (id === undefined) typeIds.set(type, (id = typeIds.size + 1));
    return id;
  }

  return {
    get size() {
      return count;
    },
    /** Bytes of memory this store holds (linear memory plus the side arrays). */
    get bytes() {
      return mem.memory.buffer.byteLength + rowids.byteLength + types.byteLength + at.size * 40;
    },
    wasm: mem.wasm,
    has: (rowid: number) => at.has(rowid),

    /** Adds or replaces a chunk's code. */
    put(rowid: number, type: string, code: Uint8Array): void {
      let i = at.get(rowid);
      if (i === undefined) {
        if (count === capacity) grow();
        i = count++;
        at.set(rowid, i);
      }
      rowids[i] = rowid;
      types[i] = typeId(type);
      const full = new Uint8Array(mem.memory.buffer, fullOff() + i * width, width);
      full.fill(0);
      full.set(code.subarray(0, width));
      new Uint8Array(mem.memory.buffer, prefixOff() + i * prefix, prefix).set(full.subarray(0, prefix));
    },

    /** Forgets a chunk's code: the last code moves into its place. */
    remove(rowid: number): void {
      const i = at.get(rowid);
      if (i === undefined) return;
      at.delete(rowid);
      const last = --count;
      if (i !== last) {
        const u8 = new Uint8Array(mem.memory.buffer);
        u8.copyWithin(fullOff() + i * width, fullOff() + last * width, fullOff() + (last + 1) * width);
        u8.copyWithin(prefixOff() + i * prefix, prefixOff() + last * prefix, prefixOff() + (last + 1) * prefix);
        rowids[i] = rowids[last]!;
        types[i] = types[last]!;
        at.set(rowids[i]!, i);
      }
    },

    /** The rowids of about the `k` codes nearest to `code` (exact Hamming order after a prefix filter). */
    nearest(code: Uint8Array, k: number, type?: string): number[] {
      if (count === 0 || k <= 0) return [];
      const want = type === undefined ? 0 : typeIds.get(type);
      if (want === undefined) return [];
      const filter = want ? types : null;
      const q = new Uint8Array(mem.memory.buffer, 0, width);
      q.fill(0);
      q.set(code.subarray(0, width));
      const idx = new Int32Array(count);
      let m: number;
      const first = Math.max(PREFILTER_MIN, k * PREFILTER_FACTOR);
      if (prefix < width && count > first) {
        // Stage 1: prefixes only, keep the best `first`.
        mem.distances(0, prefixOff(), count, prefix / 8, distOff());
        m = select(new Uint16Array(mem.memory.buffer, distOff(), count), count, first, prefix * 8, filter, want, idx);
        // Stage 2: their full codes, copied side by side into scratch space.
        const scratch = scratchOff();
        ensureBytes(scratch + m * width + m * 2 + 8);
        const u8 = new Uint8Array(mem.memory.buffer);
        const base = fullOff();
        for (let j = 0; j < m; j++) {
          const from = base + idx[j]! * width;
          u8.copyWithin(scratch + j * width, from, from + width);
        }
        const dOut = scratch + m * width;
        mem.distances(0, scratch, m, width / 8, dOut);
        const pick = new Int32Array(m);
        const got = select(new Uint16Array(mem.memory.buffer, dOut, m), m, k, width * 8, null, 0, pick);
        const res = new Array<number>(got);
        for (let j = 0; j < got; j++) res[j] = rowids[idx[pick[j]!]!]!;
        return res;
      }
      mem.distances(0, fullOff(), count, width / 8, distOff());
      m = select(new Uint16Array(mem.memory.buffer, distOff(), count), count, k, width * 8, filter, want, idx);
      const res = new Array<number>(m);
      for (let j = 0; j < m; j++) res[j] = rowids[idx[j]!]!;
      return res;
    },
  };
}
export type CodeStore = ReturnType<typeof createCodeStore>;

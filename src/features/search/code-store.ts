// One owner's binary codes held in memory (WebAssembly linear memory) and scanned per query for the
// candidates with the smallest Hamming distance. A cache: SQLite stays the source of truth.
//
// Two stages, because the full scan is memory-bound: every code's first 512 bits (a coarser
// SimHash: any subset of the bits is one) are kept in a dense array and scanned first; the best
// `PREFILTER` of them are compared on all their bits.
//
// With `dims`, the store also keeps each vector quantised to int8 (one scale per vector) so that
// the Hamming candidates can be ordered by (near-exact) cosine in memory: only the best `k` of them
// then need their float vectors read from SQLite, instead of every candidate.
import { createHammingMemory, type HammingMemory, PAGE } from "./hamming.ts";

/** Code bytes rounded up to whole 64-bit words (the kernel reads 8 bytes at a time). */
export const codeBytes = (bits: number) => Math.ceil(bits / 64) * 8;
const PREFIX_BYTES = 64;
/** First-stage survivors per wanted candidate, and at least this many. */
const PREFILTER_FACTOR = 16;
const PREFILTER_MIN = 8192;

/**
 * Indices of the `k` smallest distances (ties at the cut in index order), optionally only among
 * entries of one type. A histogram finds the cut in one pass; a second pass collects.
 */
function select(
  d: Uint16Array,
  n: number,
  k: number,
  maxD: number,
  types: Uint8Array | null,
  want: number,
  out: Int32Array,
): number {
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

export function createCodeStore(bits: number, initialCapacity = 1024, opts: { forceJs?: boolean; dims?: number } = {}) {
  const dims = opts.dims ?? 0;
  const width = codeBytes(bits);
  const prefix = Math.min(width, PREFIX_BYTES);
  let capacity = Math.max(16, initialCapacity);
  let count = 0;
  let rowids = new Float64Array(capacity);
  let types = new Uint8Array(capacity);
  let quant = new Int8Array(capacity * dims);
  let scales = new Float32Array(dims ? capacity : 0); // value = scale × int8; 0 = no vector held
  const typeIds = new Map<string, number>();
  const at = new Map<number, number>(); // rowid → position
  let idxBuf = new Int32Array(0);
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
    if (dims) {
      const qn = new Int8Array(next * dims);
      qn.set(quant);
      quant = qn;
      const sc = new Float32Array(next);
      sc.set(scales);
      scales = sc;
    }
    capacity = next;
  }

  /** Stores a vector as int8 with its scale folded with 1/|v|, so a dot product with a unit query is its cosine. */
  function quantise(i: number, v: Float32Array): void {
    let max = 0;
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      const x = v[j]!;
      norm += x * x;
      if (Math.abs(x) > max) max = Math.abs(x);
    }
    if (max === 0 || v.length !== dims) {
      scales[i] = 0;
      return;
    }
    const base = i * dims;
    for (let j = 0; j < dims; j++) quant[base + j] = Math.round((v[j]! / max) * 127);
    scales[i] = max / 127 / Math.sqrt(norm);
  }

  function nearestPositions(code: Uint8Array, k: number, type?: string): Int32Array {
    if (count === 0 || k <= 0) return new Int32Array(0);
    const want = type === undefined ? 0 : typeIds.get(type);
    if (want === undefined) return new Int32Array(0);
    const filter = want ? types : null;
    const q = new Uint8Array(mem.memory.buffer, 0, width);
    q.fill(0);
    q.set(code.subarray(0, width));
    if (idxBuf.length < count) idxBuf = new Int32Array(capacity); // reused: a query allocates no O(n) array
    const idx = idxBuf;
    const first = Math.max(PREFILTER_MIN, k * PREFILTER_FACTOR);
    if (prefix < width && count > first) {
      // Stage 1: prefixes only, keep the best `first`.
      mem.distances(0, prefixOff(), count, prefix / 8, distOff());
      const m = select(
        new Uint16Array(mem.memory.buffer, distOff(), count),
        count,
        first,
        prefix * 8,
        filter,
        want,
        idx,
      );
      // Stage 2: their full codes, picked in place by index (the list goes to scratch space).
      const scratch = scratchOff();
      const dOut = scratch + Math.ceil((m * 4) / 8) * 8;
      ensureBytes(dOut + m * 2 + 8);
      new Int32Array(mem.memory.buffer, scratch, m).set(idx.subarray(0, m));
      mem.gather(0, fullOff(), scratch, m, width / 8, width, dOut);
      const pick = new Int32Array(m);
      const got = select(new Uint16Array(mem.memory.buffer, dOut, m), m, k, width * 8, null, 0, pick);
      const out = new Int32Array(got);
      for (let j = 0; j < got; j++) out[j] = idx[pick[j]!]!;
      return out;
    }
    mem.distances(0, fullOff(), count, width / 8, distOff());
    const m = select(new Uint16Array(mem.memory.buffer, distOff(), count), count, k, width * 8, filter, want, idx);
    return idx.slice(0, m);
  }

  /** The query scaled to unit length, or null when int8 vectors are not kept (or the sizes differ). */
  function unitOf(query: Float32Array): Float32Array | null {
    if (!dims || query.length !== dims) return null;
    let qn = 0;
    for (let j = 0; j < dims; j++) qn += query[j]! * query[j]!;
    const unit = new Float32Array(dims);
    for (let j = 0; j < dims; j++) unit[j] = query[j]! / Math.sqrt(qn || 1);
    return unit;
  }

  /** Cosine of the vector at position i with a unit query; null when no vector is held there. */
  function cosineAt(i: number, unit: Float32Array): number | null {
    const sc = scales[i]!;
    if (sc === 0) return null;
    let dot = 0;
    for (let j = 0, b = i * dims; j < dims; j++) dot += quant[b + j]! * unit[j]!;
    return dot * sc;
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
      return (
        mem.memory.buffer.byteLength +
        rowids.byteLength +
        types.byteLength +
        quant.byteLength +
        scales.byteLength +
        at.size * 40
      );
    },
    wasm: mem.wasm,
    has: (rowid: number) => at.has(rowid),

    /** Adds or replaces a chunk's code. */
    put(rowid: number, type: string, code: Uint8Array, vector?: Float32Array): void {
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
      if (dims) {
        if (vector) quantise(i, vector);
        else scales[i] = 0;
      }
    },

    /** Sets the vector of a chunk whose code is held (when loading: codes and vectors come apart). */
    setVector(rowid: number, vector: Float32Array): void {
      const i = at.get(rowid);
      if (i !== undefined && dims) quantise(i, vector);
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
        if (dims) {
          quant.copyWithin(i * dims, last * dims, (last + 1) * dims);
          scales[i] = scales[last]!;
        }
        at.set(rowids[i]!, i);
      }
    },

    /** The rowids of about the `k` codes nearest to `code` (exact Hamming order after a prefix filter). */
    nearest(code: Uint8Array, k: number, type?: string): number[] {
      return Array.from(nearestPositions(code, k, type), (i) => rowids[i]!);
    },

    /**
     * The `candidates` nearest codes, ordered by the cosine of their int8 vectors with `query`: the
     * best `k` with that cosine, and apart every candidate without a vector held (order unknown).
     */
    best(
      code: Uint8Array,
      query: Float32Array,
      candidates: number,
      k: number,
      type?: string,
    ): { hits: { rowid: number; cos: number }[]; unknown: number[] } {
      const pos = nearestPositions(code, candidates, type);
      const unit = unitOf(query);
      if (!unit) return { hits: [], unknown: Array.from(pos, (i) => rowids[i]!) };
      const scored: { i: number; cos: number }[] = [];
      const unknown: number[] = [];
      for (const i of pos) {
        const cos = cosineAt(i, unit);
        if (cos === null) unknown.push(rowids[i]!);
        else scored.push({ i, cos });
      }
      scored.sort((a, b) => b.cos - a.cos);
      return { hits: scored.slice(0, k).map((s) => ({ rowid: rowids[s.i]!, cos: s.cos })), unknown };
    },

    /** The int8 cosine of held chunks with `query`; chunks not held (or without a vector) are left out. */
    cosines(query: Float32Array, ids: number[]): Map<number, number> {
      const out = new Map<number, number>();
      const unit = unitOf(query);
      if (!unit) return out;
      for (const id of ids) {
        const i = at.get(id);
        const cos = i === undefined ? null : cosineAt(i, unit);
        if (cos !== null) out.set(id, cos);
      }
      return out;
    },
  };
}
export type CodeStore = ReturnType<typeof createCodeStore>;

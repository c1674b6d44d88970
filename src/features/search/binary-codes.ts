// Binary codes for the vector index: signs of randomly rotated copies of a vector (SimHash through
// randomized Hadamard transforms), so that Hamming distance between codes tracks the angle.
//
// Why not the signs of the raw coordinates: short queries under the builtin embedder are sparse
// (most coordinates exactly 0), and those zeros turn into bits that say nothing yet count in every
// Hamming distance; recall against exact search fell to 0.2. After a random rotation every bit is
// a random hyperplane through the origin: P(bit differs) = angle / π, whatever the embedder.
// Several independent rotations give more bits, i.e. a finer angle estimate.
//
// The signs are fixed forever by CODE_SEED: codes already stored depend on them. Changing the
// scheme means a new table version (see vectors.ts), which rebuilds codes from the float vectors.

const CODE_SEED = 0x5eed_c0de;
const MIN_BITS = 1536;
const ROUNDS = 3;

export interface CodeShape {
  /** Power of two the vector is zero-padded to. */
  padded: number;
  /** Independent rotations; bits = padded × blocks. */
  blocks: number;
  bits: number;
}

export function codeShape(dimensions: number): CodeShape {
  let padded = 8;
  while (padded < dimensions) padded *= 2;
  const blocks = Math.max(1, Math.ceil(MIN_BITS / padded));
  return { padded, blocks, bits: padded * blocks };
}

/** mulberry32: the random signs must be the same in every process and on every machine. */
function signTable(length: number): Int8Array {
  let a = CODE_SEED >>> 0;
  const out = new Int8Array(length);
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 1 ? 1 : -1;
  }
  return out;
}

/** In-place fast Walsh–Hadamard transform (unnormalised: only signs are kept). */
function fwht(a: Float32Array): void {
  const n = a.length;
  for (let h = 1; h < n; h <<= 1) {
    for (let i = 0; i < n; i += h << 1) {
      for (let j = i; j < i + h; j++) {
        const x = a[j]!;
        const y = a[j + h]!;
        a[j] = x + y;
        a[j + h] = x - y;
      }
    }
  }
}

export function createEncoder(dimensions: number) {
  const shape = codeShape(dimensions);
  const { padded, blocks } = shape;
  const signs = signTable(padded * blocks * ROUNDS);
  const work = new Float32Array(padded);

  return {
    shape,
    /** The packed code (bits / 8 bytes, bit i of the code is bit i % 8 of byte i / 8). */
    encode(v: Float32Array): Uint8Array {
      if (v.length !== dimensions)
        throw new Error(`vector of ${v.length} dimensions for a ${dimensions}-dimension encoder`);
      const out = new Uint8Array(shape.bits / 8);
      for (let b = 0; b < blocks; b++) {
        work.fill(0);
        work.set(v);
        for (let r = 0; r < ROUNDS; r++) {
          const off = (b * ROUNDS + r) * padded;
          for (let j = 0; j < padded; j++) work[j] = work[j]! * signs[off + j]!;
          fwht(work);
        }
        const base = b * padded;
        for (let j = 0; j < padded; j++) if (work[j]! > 0) out[(base + j) >> 3]! |= 1 << ((base + j) & 7);
      }
      return out;
    },
  };
}
export type Encoder = ReturnType<typeof createEncoder>;

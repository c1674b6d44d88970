// Hamming distances from one binary code to many, in a small hand-assembled WebAssembly kernel
// (i64.popcnt compiles to the CPU's popcount instruction), with a plain JS fallback.
//
// The module is written out byte by byte below rather than shipped as a .wasm file: it is one
// function of ~80 bytes, needs no toolchain, and stays readable next to its text form.

/*
  (module
    (import "e" "m" (memory 1))
    (func (export "h") (param $q i32) (param $p i32) (param $n i32) (param $words i32) (param $out i32)
      (local $i i32) (local $j i32) (local $qp i32) (local $acc i64)
      (block
        (br_if 0 (i32.eqz (local.get $n)))
        (br_if 0 (i32.eqz (local.get $words)))
        (loop                                         ;; each code
          (local.set $acc (i64.const 0))
          (local.set $qp (local.get $q))
          (local.set $j (local.get $words))
          (loop                                       ;; each 64-bit word of it
            (local.set $acc (i64.add (local.get $acc)
              (i64.popcnt (i64.xor (i64.load (local.get $p)) (i64.load (local.get $qp))))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 8)))
            (br_if 0 (local.tee $j (i32.sub (local.get $j) (i32.const 1)))))
          (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (i32.wrap_i64 (local.get $acc)))
          (br_if 0 (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n))))))
*/
// Locals after the 5 parameters: 3 × i32 ($i=5 $j=6 $qp=7), 1 × i64 ($acc=8).
const LOCALS = [0x02, 0x03, 0x7f, 0x01, 0x7e];
// prettier-ignore
const CODE = [
  0x02,
  0x40, // block
  0x20,
  0x02,
  0x45,
  0x0d,
  0x00, //   n == 0 → out
  0x20,
  0x03,
  0x45,
  0x0d,
  0x00, //   words == 0 → out
  0x03,
  0x40, //   loop (codes)
  0x42,
  0x00,
  0x21,
  0x08, //     acc = 0
  0x20,
  0x00,
  0x21,
  0x07, //     qp = q
  0x20,
  0x03,
  0x21,
  0x06, //     j = words
  0x03,
  0x40, //     loop (words)
  0x20,
  0x08, //       acc
  0x20,
  0x01,
  0x29,
  0x03,
  0x00, //       i64.load p
  0x20,
  0x07,
  0x29,
  0x03,
  0x00, //       i64.load qp
  0x85,
  0x7b,
  0x7c,
  0x21,
  0x08, //       acc += popcnt(xor)
  0x20,
  0x01,
  0x41,
  0x08,
  0x6a,
  0x21,
  0x01, //       p += 8
  0x20,
  0x07,
  0x41,
  0x08,
  0x6a,
  0x21,
  0x07, //       qp += 8
  0x20,
  0x06,
  0x41,
  0x01,
  0x6b,
  0x22,
  0x06, //       j -= 1
  0x0d,
  0x00, //       while j
  0x0b, //     end
  0x20,
  0x04,
  0x20,
  0x05,
  0x41,
  0x01,
  0x74,
  0x6a, //     out + 2i
  0x20,
  0x08,
  0xa7,
  0x3b,
  0x01,
  0x00, //     store16 acc
  0x20,
  0x05,
  0x41,
  0x01,
  0x6a,
  0x22,
  0x05, //     i += 1
  0x20,
  0x02,
  0x49,
  0x0d,
  0x00, //     while i < n
  0x0b, //   end
  0x0b, // end
  0x0b, // end of function
];

/*
  The gather variant, for the second stage: the codes are picked by index instead of lying back to
  back, so nothing is copied. g(q, base, list, m, words, width, out): for each of the m i32
  indices at `list`, the code at base + index × width.
    (func (export "g") (param $q i32) (param $base i32) (param $list i32) (param $m i32)
                       (param $words i32) (param $width i32) (param $out i32)
      (local $i i32) (local $j i32) (local $qp i32) (local $p i32) (local $acc i64)
      … as "h", with $p = $base + i32.load($list + 4i) × $width at the start of each code)
*/
// Locals after the 7 parameters: 4 × i32 ($i=7 $j=8 $qp=9 $p=10), 1 × i64 ($acc=11).
const GATHER_LOCALS = [0x02, 0x04, 0x7f, 0x01, 0x7e];
// prettier-ignore
const GATHER_CODE = [
  0x02,
  0x40, // block
  0x20,
  0x03,
  0x45,
  0x0d,
  0x00, //   m == 0 → out
  0x20,
  0x04,
  0x45,
  0x0d,
  0x00, //   words == 0 → out
  0x03,
  0x40, //   loop (codes)
  0x20,
  0x01,
  0x20,
  0x02,
  0x20,
  0x07, //     base, list, i
  0x41,
  0x02,
  0x74,
  0x6a, //     list + 4i
  0x28,
  0x02,
  0x00, //     i32.load → index
  0x20,
  0x05,
  0x6c,
  0x6a,
  0x21,
  0x0a, //     p = base + index × width
  0x42,
  0x00,
  0x21,
  0x0b, //     acc = 0
  0x20,
  0x00,
  0x21,
  0x09, //     qp = q
  0x20,
  0x04,
  0x21,
  0x08, //     j = words
  0x03,
  0x40, //     loop (words)
  0x20,
  0x0b, //       acc
  0x20,
  0x0a,
  0x29,
  0x03,
  0x00, //       i64.load p
  0x20,
  0x09,
  0x29,
  0x03,
  0x00, //       i64.load qp
  0x85,
  0x7b,
  0x7c,
  0x21,
  0x0b, //       acc += popcnt(xor)
  0x20,
  0x0a,
  0x41,
  0x08,
  0x6a,
  0x21,
  0x0a, //       p += 8
  0x20,
  0x09,
  0x41,
  0x08,
  0x6a,
  0x21,
  0x09, //       qp += 8
  0x20,
  0x08,
  0x41,
  0x01,
  0x6b,
  0x22,
  0x08, //       j -= 1
  0x0d,
  0x00, //       while j
  0x0b, //     end
  0x20,
  0x06,
  0x20,
  0x07,
  0x41,
  0x01,
  0x74,
  0x6a, //     out + 2i
  0x20,
  0x0b,
  0xa7,
  0x3b,
  0x01,
  0x00, //     store16 acc
  0x20,
  0x07,
  0x41,
  0x01,
  0x6a,
  0x22,
  0x07, //     i += 1
  0x20,
  0x03,
  0x49,
  0x0d,
  0x00, //     while i < m
  0x0b, //   end
  0x0b, // end
  0x0b, // end of function
];

function section(id: number, bytes: number[]): number[] {
  return [id, ...leb(bytes.length), ...bytes];
}
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const body = [...LOCALS, ...CODE];
  const gatherBody = [...GATHER_LOCALS, ...GATHER_CODE];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    // types: 0 = (i32 ×5) → (), 1 = (i32 ×7) → ()
    ...section(
      1,
      [
        0x02, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00, 0x60, 0x07, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f,
        0x00,
      ],
    ),
    ...section(2, [0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x00, 0x01]), // import "e" "m" memory, min 1 page
    ...section(3, [0x02, 0x00, 0x01]), // function 0 of type 0, function 1 of type 1
    ...section(7, [0x02, 0x01, 0x68, 0x00, 0x00, 0x01, 0x67, 0x00, 0x01]), // export "h" = 0, "g" = 1
    ...section(10, [0x02, ...leb(body.length), ...body, ...leb(gatherBody.length), ...gatherBody]),
  ]);
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly is unavailable (the JS fallback is used). */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(moduleBytes());
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

export const PAGE = 65536;

/**
 * A growable linear memory holding codes, a query and a distance buffer, and the function that
 * fills the buffer: distances(q, p, n, words, out) writes n 16-bit Hamming distances at `out`
 * between the `words`×8-byte code at byte `q` and the n codes stored back to back from byte `p`.
 * All offsets are multiples of 8.
 */
export interface HammingMemory {
  memory: WebAssembly.Memory;
  distances(q: number, p: number, n: number, words: number, out: number): void;
  /**
   * gather(q, base, list, m, words, width, out): the same for the m codes whose indices (i32) are
   * at byte `list`, the code of index x being at base + x × width.
   */
  gather(q: number, base: number, list: number, m: number, words: number, width: number, out: number): void;
  readonly wasm: boolean;
}

/** Hamming distance between `w32` 32-bit words at u32 offsets a and b (the JS fallback). */
function popDistance(u32: Uint32Array, a: number, b: number, w32: number): number {
  let acc = 0;
  for (let j = 0; j < w32; j++) {
    let x = u32[a + j]! ^ u32[b + j]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    acc += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return acc;
}

export function createHammingMemory(bytes: number, opts: { forceJs?: boolean } = {}): HammingMemory {
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
  const mod = opts.forceJs ? null : kernelModule();
  if (mod) {
    const { h, g } = new WebAssembly.Instance(mod, { e: { m: memory } }).exports as {
      h: HammingMemory["distances"];
      g: HammingMemory["gather"];
    };
    return { memory, distances: h, gather: g, wasm: true };
  }
  return {
    memory,
    wasm: false,
    distances(q, p, n, words, out) {
      const u32 = new Uint32Array(memory.buffer);
      const d = new Uint16Array(memory.buffer);
      for (let i = 0; i < n; i++) d[(out >> 1) + i] = popDistance(u32, (p >> 2) + i * words * 2, q >> 2, words * 2);
    },
    gather(q, base, list, m, words, width, out) {
      const u32 = new Uint32Array(memory.buffer);
      const i32 = new Int32Array(memory.buffer);
      const d = new Uint16Array(memory.buffer);
      for (let i = 0; i < m; i++) {
        const at = (base + i32[(list >> 2) + i]! * width) >> 2;
        d[(out >> 1) + i] = popDistance(u32, at, q >> 2, words * 2);
      }
    },
  };
}

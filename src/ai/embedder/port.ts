// The embedder port: turns texts into unit-length vectors; builtin and OpenAI-compatible adapters implement it.

export interface Embedder {
  /** Model name stored with every vector (e.g. "builtin-hash-v1"): vectors of different ids never mix. */
  readonly id: string;
  /** Vector length. An adapter that learns it from its server reports 0 until the first reply. */
  readonly dimensions: number;
  /**
   * Cosine below which a chunk is taken as unrelated to a query and dropped from vector and hybrid
   * results; calibrated per embedder (see docs/quality.md). Absent: keep everything with cosine > 0.
   */
  readonly relevanceFloor?: number;
  /** One unit-length vector per text, in order. `kind` lets asymmetric models prefix queries and documents. */
  embed(texts: string[], kind?: "query" | "document"): Promise<Float32Array[]>;
}

/** Scales a vector to unit length in place; an all-zero vector stays zero. */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
}

/** Dot product; equals cosine similarity for unit-length vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`vector lengths differ: ${a.length} and ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

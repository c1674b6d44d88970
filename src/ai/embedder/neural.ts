// The default offline embedder: a neural sentence encoder (USE-lite, in a worker) concatenated with
// the hashed lexical features, so vectors capture both meaning ("car" ~ "automobile") and rare words.
//
// Concatenating the two unit vectors scaled by √w and √(1−w) makes the cosine of two results
// exactly w·cos(neural) + (1−w)·cos(lexical): mixing the scores, but inside one vector the existing
// index can store and search. The worker (300–600 MB) starts on first use and is released after
// `idleMs` without work; a crashed worker is replaced on the next call.
import { workerUrl, createWorkerClient, type WorkerClient } from "../speech/worker-client.ts";
import { createBuiltinEmbedder } from "./builtin.ts";
import type { NeuralJob } from "./neural-worker.ts";
import { l2normalize, type Embedder } from "./port.ts";

export const NEURAL_DIMENSIONS = 512;
/** Weight of the neural cosine in the mixed score; the rest goes to the lexical one (see docs/quality.md). */
export const NEURAL_WEIGHT = 0.4;
/**
 * Mixed cosine at or below which a query is about nothing in the library, at NEURAL_WEIGHT: fitted
 * with the hybrid fusion on the held-out development split by scripts/fit-fusion.ts (it was 0.2
 * from scripts/calibrate-floor.ts, which let 7 of 12 absent-subject questions through).
 */
export const NEURAL_FLOOR = 0.27;
/**
 * Words of a chunk given to the encoder. Its cost grows with input length and its meaning vector
 * blurs over long passages; the lexical half still sees the whole chunk.
 */
export const NEURAL_MAX_WORDS = 160;
/** Texts per worker call: batching amortises the encoder's per-call cost (~230 ms alone, ~60 ms each in 16). */
const BATCH = 16;

export interface NeuralEmbedder extends Embedder {
  /** True while the worker thread (and the model in it) is alive. */
  readonly loaded: boolean;
  /** Stops the worker now; the next embed starts a new one. */
  release(): Promise<void>;
  /** For tests of recovery: the next request makes the worker thread exit mid-request, as a crash would. */
  crashNextCall(): void;
}

/** The first `max` words of a text, keeping its spacing. */
export function clipWords(text: string, max: number): string {
  const re = /\S+/g;
  let n = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) if (++n === max) return text.slice(0, m.index + m[0].length);
  return text;
}

export function createNeuralEmbedder(opts: {
  idleMs: number;
  weight?: number;
  onRelease?: () => void;
}): NeuralEmbedder {
  const lexical = createBuiltinEmbedder();
  const w = opts.weight ?? NEURAL_WEIGHT;
  const a = Math.sqrt(w);
  const b = Math.sqrt(1 - w);
  const url = workerUrl("./neural-worker.ts", import.meta.url, "ai/embedder/neural-worker.ts");
  let client: WorkerClient<NeuralJob, Float32Array[]> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let busy = 0;
  let crashNext = false;

  const release = async () => {
    clearTimeout(idle);
    idle = undefined;
    const c = client;
    client = undefined;
    await c?.close();
    if (c) opts.onRelease?.();
  };

  async function encode(texts: string[], urgent: boolean): Promise<Float32Array[]> {
    clearTimeout(idle);
    busy++;
    try {
      client ??= createWorkerClient<NeuralJob, Float32Array[]>(url, "embedder");
      const out: Float32Array[] = [];
      if (crashNext) {
        crashNext = false;
        await client.call({ crash: true });
      }
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH).map((t) => clipWords(t, NEURAL_MAX_WORDS));
        out.push(...(await client.call({ texts: batch }, { urgent })));
      }
      return out;
    } finally {
      if (--busy === 0) {
        idle = setTimeout(() => void release(), opts.idleMs);
        (idle as { unref?: () => void }).unref?.();
      }
    }
  }

  return {
    id: `builtin-use-lite-hash-v1-w${Math.round(w * 100)}`,
    dimensions: NEURAL_DIMENSIONS + lexical.dimensions,
    // Calibrated for the default weight only; another weight is another score scale.
    relevanceFloor: w === NEURAL_WEIGHT ? NEURAL_FLOOR : undefined,
    get loaded() {
      return client !== undefined;
    },
    release,
    crashNextCall() {
      crashNext = true;
    },
    async embed(texts, kind) {
      if (texts.length === 0) return [];
      // A query is waited for by someone: it goes ahead of document batches queued by the embed jobs.
      const [lex, neural] = await Promise.all([
        lexical.embed(texts),
        encode(
          texts.map((t) => (t.trim() ? t : ".")),
          kind === "query",
        ),
      ]);
      return texts.map((t, i) => {
        const v = new Float32Array(NEURAL_DIMENSIONS + lexical.dimensions);
        // A text without words has no meaning either: keep it all-zero so it has no neighbours.
        if (!/[\p{L}\p{N}]/u.test(t)) return v;
        const n = neural[i]!;
        const l = lex[i]!;
        for (let j = 0; j < NEURAL_DIMENSIONS; j++) v[j] = a * n[j]!;
        for (let j = 0; j < l.length; j++) v[NEURAL_DIMENSIONS + j] = b * l[j]!;
        return l2normalize(v); // only changes anything when one half is empty (e.g. only stopwords)
      });
    },
  };
}

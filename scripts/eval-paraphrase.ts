// Paraphrase recall: 30 sentence pairs sharing few or no words ("car" / "automobile"); each second
// sentence is a query that should put its own first sentence first among all 30. Also reports the
// neural encoder's throughput on the sentences and the process's peak RSS.
//
//   bun run eval:paraphrase
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createBuiltinEmbedder } from "../src/ai/embedder/builtin.ts";
import { createNeuralEmbedder } from "../src/ai/embedder/neural.ts";
import { dot, type Embedder } from "../src/ai/embedder/port.ts";

const pairs = JSON.parse(
  readFileSync(join(import.meta.dir, "..", "test", "fixtures", "paraphrase", "pairs.json"), "utf8"),
) as [string, string][];

async function recallAt1(e: Embedder): Promise<{ r1: number; ms: number }> {
  const t0 = performance.now();
  const docs = await e.embed(
    pairs.map((p) => p[0]),
    "document",
  );
  const ms = performance.now() - t0;
  const queries = await e.embed(
    pairs.map((p) => p[1]),
    "query",
  );
  let hits = 0;
  queries.forEach((q, i) => {
    const scores = docs.map((d) => dot(q, d));
    if (scores.indexOf(Math.max(...scores)) === i) hits++;
  });
  return { r1: hits / pairs.length, ms };
}

const hashed = createBuiltinEmbedder();
const h = await recallAt1(hashed);
console.log(`${hashed.id.padEnd(30)} recall@1 ${h.r1.toFixed(2)}`);
// Neural only, a few mixing weights, and the default (undefined).
for (const w of [1, 0.7, 0.6, 0.5, undefined]) {
  const e = createNeuralEmbedder({ idleMs: 60_000, weight: w });
  const warm = performance.now();
  await e.embed(["warm up"]);
  const loadMs = performance.now() - warm;
  const r = await recallAt1(e);
  const rss = Math.round(process.memoryUsage().rss / 1e6);
  console.log(
    `${(w === 1 ? "neural only" : e.id).padEnd(30)} recall@1 ${r.r1.toFixed(2)}  (model load ${Math.round(loadMs)} ms, ${pairs.length} sentences in ${Math.round(r.ms)} ms, RSS ${rss} MB)`,
  );
  await e.release();
}
console.log(`RSS after the worker is released: ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
process.exit(0);

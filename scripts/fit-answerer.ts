// Fits the builtin answerer's sentence selector (src/ai/chat/selector.ts) on the DEVELOPMENT split of
// the held-out pages only: indexes the dev pages into a real app (as eval:heldout does), hands every
// dev question's passages to the answerer exactly as ask does, records each candidate sentence's
// features and whether it holds the question's gold phrase, then fits
//
//   - the linear scorer: listwise (softmax over one question's pool, the gold sentences as the target)
//     with an L2 penalty; its 5-fold cross-validated top-1 accuracy on dev is printed beside the
//     hand-set ranking's, so a fit that only memorises shows;
//   - the follow-up margin: how far below the first sentence a further one may score, chosen for the
//     most gold phrases in answers, then the fewest sentences that do not hold it
//     (one gold phrase is worth ten such sentences).
//
//   bun run scripts/fit-answerer.ts [--cache evidence.json] [--write] [--l2 0.01] [--margin 4]
//
// --write rewrites src/ai/chat/selector-weights.ts. The test split is never read.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { systemActor } from "../src/actor.ts";
import { type Candidate, rankSentences, selectSentences, usableSentences } from "../src/ai/chat/builtin.ts";
import { FEATURES, featureVectors, type SelectorWeights } from "../src/ai/chat/selector.ts";
import { displayText, questionType } from "../src/ai/chat/sentence-filter.ts";
import { asSqlite } from "../src/db/client.ts";
import { loadHeldOut, splitSet } from "./eval-heldout.ts";
import { buildLibrary } from "./lib/eval-library.ts";

interface Example {
  question: string;
  gold: string;
  asksType: boolean;
  /** The pool the selector ranks, with its evidence (semantic filled in). */
  pool: Candidate[];
  /** Every usable sentence of the passages (for the selection's neighbours). */
  all: Candidate[];
}

const { values } = parseArgs({
  options: {
    cache: { type: "string" },
    write: { type: "boolean", default: false },
    l2: { type: "string" },
    margin: { type: "string" },
  },
});

async function record(): Promise<Example[]> {
  const loaded = loadHeldOut();
  if (!loaded) {
    console.log("skipped: the benchmark pages are not at ../shared/fixtures/extraction");
    process.exit(0);
  }
  const { set, bodies } = loaded;
  const lib = await buildLibrary(splitSet(set, bodies, "dev"));
  const user = asSqlite(lib.db).sqlite.query<{ id: string }, []>("SELECT id FROM users LIMIT 1").get()!;
  const actor = systemActor(user.id, "fit");
  const out: Example[] = [];
  for (const a of set.articles.filter((a) => a.split === "dev"))
    for (const q of a.questions) {
      const passages = await lib.services.ask.passages(actor, { question: q.question });
      const ranked = await rankSentences(q.question, passages, lib.services.ai.embedder);
      const pool = ranked.filter((c) => Number.isFinite(c.learned));
      out.push({
        question: q.question,
        gold: q.answer,
        asksType: questionType(q.question) !== null,
        pool,
        all: usableSentences(q.question, passages, ranked),
      });
    }
  lib.db.close();
  return out;
}

const data: Example[] =
  values.cache && existsSync(values.cache) ? JSON.parse(readFileSync(values.cache, "utf8")) : await record();
if (values.cache && !existsSync(values.cache)) writeFileSync(values.cache, JSON.stringify(data));

const holds = (c: Candidate, gold: string) => c.text.includes(gold) || displayText(c.text).includes(gold);
const examples = data.map((e) => ({
  ...e,
  x: featureVectors(e.pool, e.asksType, displayText),
  y: e.pool.map((c) => (holds(c, e.gold) ? 1 : 0)),
}));
const trainable = examples.filter((e) => e.y.some((v) => v === 1));
console.log(
  `dev: ${examples.length} questions; the gold phrase is in the pool for ${trainable.length}, ${examples.reduce((n, e) => n + e.pool.length, 0)} candidate sentences`,
);

/** Mean and spread of each feature over the training sentences (the scorer reads standardised features). */
function standardiser(rows: number[][]) {
  const d = FEATURES.length;
  const mean = Array.from({ length: d }, (_, i) => rows.reduce((s, r) => s + r[i]!, 0) / rows.length);
  const scale = mean.map((m, i) => Math.sqrt(rows.reduce((s, r) => s + (r[i]! - m) ** 2, 0) / rows.length) || 1);
  return { mean, scale };
}

/** Listwise logistic fit: maximise the softmax mass of each question's gold sentences, L2-penalised. */
function fit(train: typeof trainable, l2: number, steps = 4000, rate = 1) {
  const { mean, scale } = standardiser(train.flatMap((e) => e.x));
  const z = train.map((e) => e.x.map((r) => r.map((v, i) => (v - mean[i]!) / scale[i]!)));
  const w = new Array<number>(FEATURES.length).fill(0);
  for (let step = 0; step < steps; step++) {
    const grad = w.map((wi) => l2 * wi);
    train.forEach((e, k) => {
      const s = z[k]!.map((r) => r.reduce((a, v, i) => a + w[i]! * v, 0));
      const top = Math.max(...s);
      const ex = s.map((v) => Math.exp(v - top));
      const all = ex.reduce((a, b) => a + b, 0);
      const pos = ex.reduce((a, v, j) => a + (e.y[j] ? v : 0), 0);
      // d(-log(pos/all))/ds_j = p_j - q_j, p the softmax over all, q over the gold ones.
      z[k]!.forEach((r, j) => {
        const g = (ex[j]! / all - (e.y[j] ? ex[j]! / pos : 0)) / train.length;
        r.forEach((v, i) => (grad[i]! += g * v));
      });
    });
    w.forEach((_, i) => (w[i]! -= rate * grad[i]!));
  }
  return { mean, scale, weights: w };
}

const score = (m: { mean: number[]; scale: number[]; weights: number[] }, r: number[]) =>
  r.reduce((a, v, i) => a + m.weights[i]! * ((v - m.mean[i]!) / m.scale[i]!), 0);
const top1 = (e: (typeof examples)[number], s: number[]) => e.y[s.indexOf(Math.max(...s))] === 1;

// The hand-set ranking (lexical score blended with meaning, as before) against the learned one, 5-fold on dev.
const handSet = examples.filter((e) =>
  top1(
    e,
    e.pool.map((c) => 0.7 * c.score + 0.3 * c.semantic),
  ),
).length;
// The penalty: 5-fold cross-validation on dev is printed for each; 0.01 is within one question of the
// best and the strongest that still keeps the answerer's own regression cases (src/ai/chat tests: the
// sentence with the name, date or number first for who/when/how-many); --l2 overrides it.
const cvAt = (l2: number) => {
  let right = 0;
  for (let f = 0; f < 5; f++) {
    const model = fit(
      trainable.filter((_, i) => i % 5 !== f),
      l2,
    );
    right += examples.filter(
      (e, i) =>
        i % 5 === f &&
        top1(
          e,
          e.x.map((r) => score(model, r)),
        ),
    ).length;
  }
  return right;
};
const penalties = [0.001, 0.01, 0.05, 0.2, 0.5].map((l2) => ({ l2, right: cvAt(l2) }));
const bestRight = Math.max(...penalties.map((p) => p.right));
const l2 = values.l2 ? Number(values.l2) : 0.01;
if (penalties.find((p) => p.l2 === l2) && penalties.find((p) => p.l2 === l2)!.right < bestRight - 1)
  console.log(`note: L2 ${l2} is more than one question below the cross-validated best`);
console.log(
  `first sentence holds the gold phrase: hand-set ${handSet}/${examples.length}; learned, 5-fold on dev: ${penalties.map((p) => `L2 ${p.l2} ${p.right}`).join(", ")}; chosen L2 ${l2}`,
);

const model = fit(trainable, l2);
console.log(
  `learned on all dev: ${
    examples.filter((e) =>
      top1(
        e,
        e.x.map((r) => score(model, r)),
      ),
    ).length
  }/${examples.length}`,
);
for (const [i, f] of FEATURES.entries()) console.log(`  ${f.padEnd(14)} ${model.weights[i]!.toFixed(3)}`);

// The follow-up margin: simulate the whole selection for each margin.
console.log("\nmargin  gold in answer  sentences/answer  sentences without the gold");
let best = { margin: 0, objective: -Infinity };
for (let margin = 0; margin <= 4.001; margin += 0.25) {
  let held = 0;
  let sentences = 0;
  let without = 0;
  for (const e of examples) {
    const s = e.x.map((r) => score(model, r));
    const pool = e.pool.map((c, j) => ({ ...c, learned: s[j]! }));
    const byPlace = new Map(pool.map((c) => [`${c.n}:${c.idx}`, c]));
    const all = e.all.map((c) => byPlace.get(`${c.n}:${c.idx}`) ?? { ...c, learned: -Infinity });
    const picked = selectSentences(
      pool.sort((a, b) => b.learned - a.learned),
      all,
      e.question,
      margin,
    );
    if (picked.some((c) => holds(c, e.gold))) held++;
    sentences += picked.length;
    without += picked.filter((c) => !holds(c, e.gold)).length;
  }
  const n = examples.length;
  // Answering comes first: a gold phrase found is worth ten sentences that do not hold it (the
  // hand-set answerer added 1.65 such sentences per answer on dev).
  const objective = held / n - (0.1 * without) / n;
  console.log(
    `${margin.toFixed(2).padStart(6)}  ${(held / n).toFixed(3).padStart(14)}  ${(sentences / n).toFixed(2).padStart(16)}  ${(without / n).toFixed(2).padStart(26)}`,
  );
  if (objective > best.objective + 1e-9) best = { margin, objective };
}
// --margin overrides the choice (see docs/quality.md: the shipped 4 keeps dev's best gold rate and
// loses less on the project's own regression sets, bun run eval:search, than the 2.25 the objective gives).
if (values.margin) best = { margin: Number(values.margin), objective: NaN };
console.log(`chosen margin ${best.margin}`);

if (values.write) {
  const weights: SelectorWeights = {
    features: FEATURES,
    mean: model.mean.map((v) => +v.toFixed(5)),
    scale: model.scale.map((v) => +v.toFixed(5)),
    weights: model.weights.map((v) => +v.toFixed(5)),
    followMargin: best.margin,
  };
  const file = join(import.meta.dir, "..", "src", "ai", "chat", "selector-weights.ts");
  writeFileSync(
    file,
    `// Written by scripts/fit-answerer.ts on the development split of the held-out pages; do not edit by hand.
import type { SelectorWeights } from "./selector.ts";

export const SELECTOR: SelectorWeights = ${JSON.stringify(weights, null, 2)};
`,
  );
  console.log(`wrote ${file}`);
}
process.exit(0);

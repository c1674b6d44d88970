// Picks the builtin embedder's mixing weight and calibrates its similarity floor on the search eval
// set: for each weight w, mixed cosine = w·cos(neural) + (1−w)·cos(hashed) over every chunk; reports
// vector recall@1/@5 and, per floor, how many questions keep their expected article versus how many
// questions about nothing in the library come back empty.
//
//   bun run scripts/calibrate-floor.ts
//
// The articles of test/fixtures/search are saved as notes (same chunking as sources).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { testConfig } from "../src/config.ts";
import { openTestDatabase } from "../src/db/client.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { createNeuralEmbedder } from "../src/ai/embedder/neural.ts";
import { createBuiltinEmbedder } from "../src/ai/embedder/builtin.ts";
import { dot } from "../src/ai/embedder/port.ts";
import { embeddingText } from "../src/features/search/indexer.ts";
import { systemActor } from "../src/actor.ts";
import { asSqlite } from "../src/db/client.ts";

const FIXTURES = join(import.meta.dir, "..", "test", "fixtures", "search");
/** Questions whose answer is in no article of the set (and whose words mostly are not either). */
export const OFF_TOPIC = [
  "what is the filing deadline for quarterly estimated taxes",
  "how do I replace a bicycle chain",
  "best settings for a mechanical keyboard firmware",
  "symptoms of vitamin b12 deficiency",
  "how to negotiate a salary raise",
  "rules of cricket leg before wicket",
  "who won the 1998 football world cup",
  "how to configure a wireguard vpn tunnel",
  "knitting a cable stitch sweater pattern",
  "train timetable from lyon to geneva",
  "how much horsepower does a formula one engine have",
  "wedding dress alterations cost",
  "kubernetes pod eviction policy",
  "how to tile a bathroom floor",
  "history of the byzantine empire",
  "car insurance claim after a minor accident",
];

const services = createServices({
  config: testConfig({ EMBEDDER: "hashed" }),
  db: openTestDatabase(),
  logger: silentLogger,
});
const user = await services.accounts.createUser(
  { email: "cal@example.com", password: "calibrate-pw" },
  { bypassSignupPolicy: true },
);
const actor = systemActor(user.id, "calibrate");
const dir = join(FIXTURES, "articles");
const slugOf = new Map<string, string>();
for (const f of readdirSync(dir).filter((f) => f.endsWith(".md"))) {
  const note = await services.notes.create(actor, { content: readFileSync(join(dir, f), "utf8") });
  slugOf.set(note.id, f.replace(/\.md$/, ""));
}
const chunks = asSqlite(services.db)
  .sqlite.query<{ docId: string; title: string; heading: string | null; text: string }, []>(
    "SELECT doc_id docId, title, heading, text FROM chunks ORDER BY id",
  )
  .all();
const neural = createNeuralEmbedder({ idleMs: 60_000, weight: 1 }); // weight 1: the neural half only
const hashed = createBuiltinEmbedder();
const texts = chunks.map(embeddingText);
const t0 = performance.now();
const cn = (await neural.embed(texts, "document")).map((v) => v.subarray(0, 512));
const secs = (performance.now() - t0) / 1000;
console.log(
  `${chunks.length} chunks: neural encoder ${secs.toFixed(1)} s (${(chunks.length / secs).toFixed(2)} chunks/s), rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
);
const ch = await hashed.embed(texts, "document");

const questions = JSON.parse(readFileSync(join(FIXTURES, "questions.json"), "utf8")) as {
  question: string;
  expected: string;
}[];
const all = [...questions.map((q) => q.question), ...OFF_TOPIC];
const qn = (await neural.embed(all, "query")).map((v) => v.subarray(0, 512));
const qh = await hashed.embed(all, "query");
await neural.release();

const quant = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const w of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 1]) {
  // Best chunk score per article for each query.
  const perDoc = all.map((_, i) => {
    const best = new Map<string, number>();
    chunks.forEach((c, j) => {
      const s = w * dot(qn[i]!, cn[j]!) + (1 - w) * dot(qh[i]!, ch[j]!);
      const slug = slugOf.get(c.docId)!;
      if (s > (best.get(slug) ?? -1)) best.set(slug, s);
    });
    return [...best].sort((a, b) => b[1] - a[1]);
  });
  let r1 = 0;
  let r5 = 0;
  const expected: number[] = [];
  questions.forEach((q, i) => {
    const at = perDoc[i]!.findIndex(([slug]) => slug === q.expected);
    if (at === 0) r1++;
    if (at < 5) r5++;
    expected.push(perDoc[i]![at]![1]);
  });
  const off = OFF_TOPIC.map((_, k) => perDoc[questions.length + k]![0]![1]);
  const n = questions.length;
  console.log(
    `\nw=${w}: vector recall@1 ${(r1 / n).toFixed(3)} recall@5 ${(r5 / n).toFixed(3)}; expected best p5 ${quant(expected, 0.05).toFixed(3)}, off-topic top max ${quant(off, 1).toFixed(3)} p50 ${quant(off, 0.5).toFixed(3)}`,
  );
  const floors = [];
  for (let f = 0.1; f <= 0.55; f += 0.025) {
    const kept = expected.filter((s) => s > f).length;
    const emptied = off.filter((s) => s <= f).length;
    floors.push(`${f.toFixed(3)}: ${kept}/${n} kept, ${emptied}/${OFF_TOPIC.length} empty`);
  }
  console.log(`  ${floors.join("\n  ")}`);
}
process.exit(0);

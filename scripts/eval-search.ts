// Evaluates search and ask on the fixture sets: recall@1, recall@5 and MRR per mode, and for ask the
// share of verbatim quotes, of answers citing the expected document and of answers containing the
// expected answer text.
//
//   bun run eval:search [--set default|hard|all] [--verbose]
//
// "default" is 35 web articles with 103 questions; "hard" has overlapping subjects, PDFs, notes
// (one with URLs, one unrelated meeting note) and paraphrased questions. Documents go through the
// real ingestion (a local server hands out articles as text/markdown and PDFs as application/pdf;
// notes are saved as notes) over a fresh in-memory database. AI_* and EMBEDDER variables, when set, are passed
// through, so the same sets can score an OpenAI-compatible model server against the builtin engines.
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SEARCH_MODES, type SearchMode } from "../src/features/search/schema.ts";
import { buildLibrary, loadSet, type EvalSet } from "./lib/eval-library.ts";
import { asSqlite } from "../src/db/client.ts";

const FIXTURES = join(import.meta.dir, "..", "test", "fixtures", "search");
const TARGETS = { hybridRecall5: 0.97, withAnswer: 0.9, citingExpected: 0.95 };

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function evaluate(set: EvalSet, verbose: boolean): Promise<string[]> {
  const started = performance.now();
  const lib = await buildLibrary(set);
  const { questions } = set;
  const chunks = asSqlite(lib.db).sqlite.query<{ n: number }, []>("SELECT count(*) n FROM chunks").get()!.n;
  const kinds = ["article", "pdf", "note"]
    .map((k) => `${[...set.docs.values()].filter((d) => d.kind === k).length} ${k}s`)
    .join(", ");
  console.log(
    `\n=== set "${set.name}": ${kinds} (${chunks} chunks, embedder ${lib.services.ai.embedder.id}, chat ${lib.services.ai.chat.id}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`${questions.length} questions\n`);

  const summary: Record<string, { r1: number; r5: number; mrr: number }> = {};
  console.log("mode     recall@1  recall@5  MRR");
  for (const mode of SEARCH_MODES as readonly SearchMode[]) {
    let r1 = 0;
    let r5 = 0;
    let mrr = 0;
    for (const q of questions) {
      const r = await lib.post("/api/v1/search", { query: q.question, mode, limit: 10 });
      if (r.status !== 200) throw new Error(`search failed: ${r.status} ${JSON.stringify(r.body)}`);
      const slugs = (r.body.data as { id: string }[]).map((h) => lib.slugOf.get(h.id));
      const at = slugs.indexOf(q.expected);
      if (at === 0) r1++;
      if (at >= 0 && at < 5) r5++;
      if (at >= 0) mrr += 1 / (at + 1);
      if (verbose && at !== 0)
        console.log(`  [${mode}] rank ${at < 0 ? "-" : at + 1}: ${q.question} → ${slugs.slice(0, 3).join(", ")}`);
    }
    const n = questions.length;
    summary[mode] = { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
    console.log(
      `${mode.padEnd(8)} ${(r1 / n).toFixed(3).padStart(8)}  ${(r5 / n).toFixed(3).padStart(8)}  ${(mrr / n).toFixed(3)}`,
    );
  }

  let citations = 0;
  let verbatim = 0;
  let citingExpected = 0;
  let withHint = 0;
  let nothing = 0;
  for (const q of questions) {
    const r = await lib.post("/api/v1/search/ask", { question: q.question });
    if (r.status !== 200) throw new Error(`ask failed: ${r.status} ${JSON.stringify(r.body)}`);
    const cites = r.body.citations as { id: string; quote: string; chunk_id: string }[];
    if (cites.length === 0) nothing++;
    for (const c of cites) {
      citations++;
      if (lib.chunkText(c.chunk_id)?.includes(c.quote)) verbatim++;
      else if (verbose) console.log(`  [quote] not verbatim: ${c.quote}`);
    }
    const cited = cites.some((c) => lib.slugOf.get(c.id) === q.expected);
    if (cited) citingExpected++;
    const hinted = (r.body.answer as string).includes(q.answer_hint);
    if (hinted) withHint++;
    if (verbose && (!hinted || !cited))
      console.log(
        `  [ask]${cited ? "" : " (expected source not cited)"} ${q.question} (want "${q.answer_hint}") → ${r.body.answer}`,
      );
  }
  const n = questions.length;
  console.log(`\nask (${lib.services.ai.chat.id})`);
  console.log(
    `  citations whose quote is verbatim in the cited chunk: ${pct(citations ? verbatim / citations : 1)} (${verbatim}/${citations})`,
  );
  console.log(
    `  answers citing the expected source:                   ${pct(citingExpected / n)} (${citingExpected}/${n})`,
  );
  console.log(`  answers containing the expected answer text:          ${pct(withHint / n)} (${withHint}/${n})`);
  console.log(`  answers saying nothing was found:                     ${nothing}/${n}`);
  lib.db.close();

  const failures: string[] = [];
  if (summary.hybrid!.r5 < TARGETS.hybridRecall5)
    failures.push(`hybrid recall@5 ${summary.hybrid!.r5.toFixed(3)} < ${TARGETS.hybridRecall5}`);
  if (verbatim !== citations) failures.push(`${citations - verbatim} citation quotes are not verbatim`);
  if (withHint / n < TARGETS.withAnswer)
    failures.push(`answers with the expected answer ${pct(withHint / n)} < ${pct(TARGETS.withAnswer)}`);
  if (citingExpected / n < TARGETS.citingExpected)
    failures.push(`answers citing the expected source ${pct(citingExpected / n)} < ${pct(TARGETS.citingExpected)}`);
  return failures.map((f) => `[${set.name}] ${f}`);
}

async function main() {
  const { values } = parseArgs({
    options: { verbose: { type: "boolean", default: false }, set: { type: "string", default: "all" } },
  });
  const sets: EvalSet[] = [];
  if (values.set === "default" || values.set === "all") sets.push(loadSet("default", FIXTURES));
  if (values.set === "hard" || values.set === "all") sets.push(loadSet("hard", join(FIXTURES, "hard")));
  if (sets.length === 0) throw new Error(`--set must be default, hard or all, not ${values.set}`);
  const failures: string[] = [];
  for (const set of sets) failures.push(...(await evaluate(set, values.verbose!)));
  console.log(failures.length ? `\nFAIL:\n  ${failures.join("\n  ")}` : "\nOK: targets met");
  process.exit(failures.length ? 1 : 0);
}

await main();

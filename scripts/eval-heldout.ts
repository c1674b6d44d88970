// Held-out evaluation on real text nobody wrote for this project: the article-extraction benchmark's
// 181 news and blog pages (their ground-truth article text), split at random into a development half
// (tune on it) and a test half (only report it). Questions, gold answers, known-item queries and
// questions about subjects the pages do not hold are in test/fixtures/held-out/questions.json; the
// pages are read at run time from ../shared/fixtures/extraction and never copied into the repository.
//
//   bun run eval:heldout [--split dev|test|both] [--verbose] [--dump file.json]
//
// Each split's pages are saved as sources into a fresh app (the real ingestion: a local server hands
// each one out as text/markdown), with the offline builtin engines unless AI_* variables are set.
// Reported per split: recall@1/@5 for text, vector and hybrid on the questions and on the known-item
// queries; how many absent-subject questions come back empty; and for ask: the answer cites the
// answering page, cites a chunk holding the gold phrase, holds the gold phrase (and in its first
// sentence), how many sentences it has and how many of them do not hold it; the same question asked
// about its own page only (`source_ids`); absent-subject asks that say the library does not cover it
// and cost no credit. `--dump` writes every question's
// per-mode rankings with scores, for scripts/fit-fusion.ts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { NOTHING_FOUND } from "../src/features/search/ask.ts";
import { SEARCH_MODES, type SearchMode } from "../src/features/search/schema.ts";
import { buildLibrary, type EvalSet } from "./lib/eval-library.ts";

const ROOT = join(import.meta.dir, "..");
const PAGES = join(ROOT, "..", "shared", "fixtures", "extraction", "ground-truth.json.gz");
const QUESTIONS = join(ROOT, "test", "fixtures", "held-out", "questions.json");

export interface HeldOutArticle {
  id: string;
  url: string;
  split: "dev" | "test";
  questions: { question: string; answer: string }[];
  /** Queries that find the page again by paraphrase, without its rare words. */
  known_items?: string[];
}
export interface HeldOutSet {
  articles: HeldOutArticle[];
  absent: { dev: string[]; test: string[] };
}

export function loadHeldOut(): { set: HeldOutSet; bodies: Map<string, string> } | null {
  if (!existsSync(PAGES)) return null;
  const pages = JSON.parse(gunzipSync(readFileSync(PAGES)).toString("utf8")) as Record<string, { articleBody: string }>;
  const set = JSON.parse(readFileSync(QUESTIONS, "utf8")) as HeldOutSet;
  return { set, bodies: new Map(Object.entries(pages).map(([id, p]) => [id, p.articleBody])) };
}

/** A split's pages as an evaluation set for buildLibrary (slug = page id). */
export function splitSet(set: HeldOutSet, bodies: Map<string, string>, split: "dev" | "test"): EvalSet {
  const docs: EvalSet["docs"] = new Map();
  for (const a of set.articles.filter((a) => a.split === split)) {
    const body = bodies.get(a.id);
    if (body) docs.set(a.id, { kind: "article", body });
  }
  return { name: split, docs, questions: [] };
}

const f3 = (x: number) => x.toFixed(3);

interface Query {
  text: string;
  expected: string;
  answer?: string;
  kind: "question" | "known";
}

async function evaluate(set: HeldOutSet, bodies: Map<string, string>, split: "dev" | "test", verbose: boolean) {
  const started = performance.now();
  const lib = await buildLibrary(splitSet(set, bodies, split));
  const arts = set.articles.filter((a) => a.split === split);
  const queries: Query[] = arts.flatMap((a) => [
    ...a.questions.map((q) => ({ text: q.question, expected: a.id, answer: q.answer, kind: "question" as const })),
    ...(a.known_items ?? []).map((text) => ({ text, expected: a.id, kind: "known" as const })),
  ]);
  const absent = set.absent[split];
  console.log(
    `\n=== ${split}: ${arts.length} pages, ${queries.filter((q) => q.kind === "question").length} questions, ${queries.filter((q) => q.kind === "known").length} known-item queries, ${absent.length} absent-subject questions (embedder ${lib.services.ai.embedder.id}, chat ${lib.services.ai.chat.id}; built in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  type Tally = { r1: number; r5: number; n: number; empty: number };
  const results: Record<"question" | "known", Record<string, Tally>> = { question: {}, known: {} };
  const empty: Record<string, number> = {};
  const dump: { query: string; kind: string; expected: string | null; mode: string; hits: [string, number][] }[] = [];
  for (const mode of SEARCH_MODES as readonly SearchMode[]) {
    const tally: Record<"question" | "known", Tally> = {
      question: { r1: 0, r5: 0, n: 0, empty: 0 },
      known: { r1: 0, r5: 0, n: 0, empty: 0 },
    };
    for (const q of queries) {
      const r = await lib.post("/api/v1/search", { query: q.text, mode, limit: 10 });
      if (r.status !== 200) throw new Error(`search failed: ${r.status} ${JSON.stringify(r.body)}`);
      const hits = r.body.data as { id: string; score: number }[];
      const slugs = hits.map((h) => lib.slugOf.get(h.id)!);
      dump.push({
        query: q.text,
        kind: q.kind,
        expected: q.expected,
        mode,
        hits: hits.map((h, i) => [slugs[i]!, h.score]),
      });
      const at = slugs.indexOf(q.expected);
      const t = tally[q.kind];
      t.n++;
      if (hits.length === 0) t.empty++;
      if (at === 0) t.r1++;
      if (at >= 0 && at < 5) t.r5++;
      if (verbose && at !== 0) console.log(`  [${mode}] rank ${at < 0 ? "-" : at + 1}: ${q.text}`);
    }
    results.question[mode] = tally.question;
    results.known[mode] = tally.known;
    let none = 0;
    for (const text of absent) {
      const r = await lib.post("/api/v1/search", { query: text, mode, limit: 10 });
      const hits = r.body.data as { id: string; score: number }[];
      dump.push({
        query: text,
        kind: "absent",
        expected: null,
        mode,
        hits: hits.map((h) => [lib.slugOf.get(h.id)!, h.score]),
      });
      if (hits.length === 0) none++;
      else if (verbose)
        console.log(`  [${mode}] absent subject answered: ${text} → ${hits.length} hits, top ${hits[0]!.score}`);
    }
    empty[mode] = none;
  }
  for (const k of ["question", "known"] as const) {
    console.log(`\n${k === "question" ? "questions" : "known-item queries"}: mode  recall@1  recall@5  left empty`);
    for (const mode of SEARCH_MODES) {
      const x = results[k][mode]!;
      console.log(
        `  ${mode.padEnd(8)} ${f3(x.r1 / x.n).padStart(8)}  ${f3(x.r5 / x.n).padStart(8)}  ${`${x.empty}/${x.n}`.padStart(10)}`,
      );
    }
  }
  console.log(
    `\nabsent-subject questions returning nothing: ${SEARCH_MODES.map((m) => `${m} ${empty[m]}/${absent.length}`).join(", ")}`,
  );

  // Ask: every question (not the known-item queries), then the absent-subject ones.
  const qs = queries.filter((q) => q.kind === "question");
  let citesPage = 0;
  let citesChunk = 0;
  let holds = 0;
  let verbatim = 0;
  let citations = 0;
  let saidNothing = 0;
  let firstHolds = 0;
  let sentences = 0;
  let sentencesWithout = 0;
  for (const q of qs) {
    const r = await lib.post("/api/v1/search/ask", { question: q.text });
    if (r.status !== 200) throw new Error(`ask failed: ${r.status} ${JSON.stringify(r.body)}`);
    const cites = r.body.citations as { id: string; quote: string; chunk_id: string }[];
    if (cites.length === 0) saidNothing++;
    for (const c of cites) {
      citations++;
      if (lib.chunkText(c.chunk_id)?.includes(c.quote)) verbatim++;
    }
    const page = cites.some((c) => lib.slugOf.get(c.id) === q.expected);
    const chunk = cites.some((c) => lib.chunkText(c.chunk_id)?.includes(q.answer!));
    const answer = r.body.answer as string;
    const held = answer.includes(q.answer!);
    // The answer's sentences, each ending at its [n] marker.
    const said = answer.split(/(?<=\[\d+\])\s*/).filter((x) => x.trim() && x !== NOTHING_FOUND);
    if (said[0]?.includes(q.answer!)) firstHolds++;
    sentences += said.length;
    sentencesWithout += said.filter((x) => !x.includes(q.answer!)).length;
    if (page) citesPage++;
    if (chunk) citesChunk++;
    if (held) holds++;
    if (verbose && !held) console.log(`  [ask] ${q.text} (want "${q.answer}") → ${r.body.answer}`);
  }
  // "Ask about this source": the same questions scoped to their own page, which must hold the answer.
  const idOf = new Map([...lib.slugOf].map(([id, slug]) => [slug, id]));
  let scopedHolds = 0;
  let scopedInside = 0;
  for (const q of qs) {
    const id = idOf.get(q.expected)!;
    const r = await lib.post("/api/v1/search/ask", { question: q.text, source_ids: [id] });
    if (r.status !== 200) throw new Error(`scoped ask failed: ${r.status} ${JSON.stringify(r.body)}`);
    const cites = r.body.citations as { id: string }[];
    if (cites.length > 0 && cites.every((c) => c.id === id)) scopedInside++;
    if ((r.body.answer as string).includes(q.answer!)) scopedHolds++;
    else if (verbose) console.log(`  [ask, this source] ${q.text} (want "${q.answer}") → ${r.body.answer}`);
  }
  let declined = 0;
  for (const text of absent) {
    const r = await lib.post("/api/v1/search/ask", { question: text });
    if (r.body.answer === NOTHING_FOUND && r.body.credits_used === 0) declined++;
    else if (verbose) console.log(`  [ask] absent subject answered: ${text} → ${r.body.answer}`);
  }
  const n = qs.length;
  console.log(`\nask (${n} questions):`);
  console.log(`  cites the answering page:                 ${f3(citesPage / n)} (${citesPage}/${n})`);
  console.log(`  cites a passage holding the gold phrase:  ${f3(citesChunk / n)} (${citesChunk}/${n})`);
  console.log(`  gold phrase inside the answer:            ${f3(holds / n)} (${holds}/${n})`);
  console.log(`  the answer's first sentence holds it:     ${f3(firstHolds / n)} (${firstHolds}/${n})`);
  console.log(
    `  sentences per answer / not holding it:    ${(sentences / n).toFixed(2)} / ${(sentencesWithout / n).toFixed(2)}`,
  );
  console.log(`  asked about its own page: gold in answer  ${f3(scopedHolds / n)} (${scopedHolds}/${n})`);
  console.log(`  asked about its own page: cites only it   ${f3(scopedInside / n)} (${scopedInside}/${n})`);
  console.log(
    `  quotes verbatim in their chunk:           ${citations ? f3(verbatim / citations) : "-"} (${verbatim}/${citations})`,
  );
  console.log(`  answered "nothing found":                 ${saidNothing}/${n}`);
  console.log(`  absent subjects declined at no cost:      ${declined}/${absent.length}`);
  lib.db.close();
  return {
    dump,
    results,
    empty,
    ask: {
      citesPage: citesPage / n,
      citesChunk: citesChunk / n,
      holds: holds / n,
      firstHolds: firstHolds / n,
      scopedHolds: scopedHolds / n,
      declined,
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      split: { type: "string", default: "both" },
      verbose: { type: "boolean", default: false },
      dump: { type: "string" },
    },
  });
  const loaded = loadHeldOut();
  if (!loaded) {
    console.log(`skipped: the benchmark pages are not at ${PAGES} (see test/fixtures/held-out/questions.json)`);
    process.exit(0);
  }
  const splits = values.split === "both" ? (["dev", "test"] as const) : [values.split as "dev" | "test"];
  if (!splits.every((s) => s === "dev" || s === "test")) throw new Error(`--split must be dev, test or both`);
  const dumps: unknown[] = [];
  for (const s of splits) {
    const r = await evaluate(loaded.set, loaded.bodies, s, values.verbose!);
    dumps.push(...r.dump.map((d) => ({ split: s, ...d })));
  }
  if (values.dump) writeFileSync(values.dump, JSON.stringify(dumps));
  process.exit(0);
}

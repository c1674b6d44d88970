// Evaluates search and ask on the fixture set: recall@1, recall@5 and MRR per mode, and for ask the
// share of verbatim quotes and of answers citing the expected article.
//
//   bun run eval:search [--verbose]
//
// The articles are saved as sources: a local server hands each one out as text/markdown and the
// real ingestion job fetches, extracts, chunks and embeds it, as for any saved link. The app runs
// over a fresh in-memory database. AI_* variables, when set, are passed through, so the same set
// can score an OpenAI-compatible model server against the builtin engines.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { testConfig } from "../src/config.ts";
import { openTestDatabase } from "../src/db/client.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { SEARCH_MODES, type SearchMode } from "../src/features/search/schema.ts";

const FIXTURES = join(import.meta.dir, "..", "test", "fixtures", "search");
const TARGET_HYBRID_RECALL5 = 0.9;

interface Question {
  question: string;
  expected: string;
  answer_hint: string;
}

function loadFixtures() {
  const dir = join(FIXTURES, "articles");
  const articles = new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => [f.replace(/\.md$/, ""), readFileSync(join(dir, f), "utf8")] as const),
  );
  const questions = JSON.parse(readFileSync(join(FIXTURES, "questions.json"), "utf8")) as Question[];
  return { articles, questions };
}

function serveArticles(articles: Map<string, string>) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const slug = new URL(req.url).pathname.slice(1);
      const md = articles.get(slug);
      return md ? new Response(md, { headers: { "content-type": "text/markdown; charset=utf-8" } }) : new Response("not found", { status: 404 });
    },
  });
  return { url: (slug: string) => `http://127.0.0.1:${server.port}/${slug}`, stop: () => server.stop(true) };
}

async function buildLibrary(articles: Map<string, string>) {
  const passthrough = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith("AI_") && v)) as Record<string, string>;
  const config = testConfig({ DEFAULT_MONTHLY_CREDITS: "1000000", RATE_LIMIT_PER_MINUTE: "1000000", ...passthrough });
  const db = openTestDatabase();
  const services = createServices({ config, db, logger: silentLogger });
  const app = createApp(services);
  const user = await services.accounts.createUser({ email: "eval@example.com", password: "eval-password" }, { bypassSignupPolicy: true });
  const { key } = services.keys.create(user.id, "eval");
  const post = async (path: string, body: unknown) => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };
  const web = serveArticles(articles);
  const slugOf = new Map<string, string>();
  try {
    for (const slug of articles.keys()) {
      const r = await post("/api/v1/sources", { url: web.url(slug) });
      if (r.status !== 201) throw new Error(`saving ${slug} failed: ${r.status} ${JSON.stringify(r.body)}`);
      slugOf.set(r.body.id, slug);
    }
    await services.runner.drain({ timeoutMs: 300_000 });
  } finally {
    await web.stop();
  }
  const ready = db.sqlite.query<{ n: number }, []>("SELECT count(*) n FROM sources WHERE status = 'ready'").get()!.n;
  if (ready !== articles.size) throw new Error(`only ${ready} of ${articles.size} sources became ready`);
  const chunkText = (chunkId: string) => db.sqlite.query<{ text: string }, [string]>("SELECT text FROM chunks WHERE chunk_id = ?").get(chunkId)?.text;
  return { services, post, slugOf, chunkText, db };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main() {
  const { values } = parseArgs({ options: { verbose: { type: "boolean", default: false } } });
  const { articles, questions } = loadFixtures();
  const started = performance.now();
  const lib = await buildLibrary(articles);
  const chunks = lib.db.sqlite.query<{ n: number }, []>("SELECT count(*) n FROM chunks").get()!.n;
  const model = lib.services.ai.embedder.id;
  console.log(`${articles.size} articles saved as sources (${chunks} chunks, embedder ${model}, chat ${lib.services.ai.chat.id}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
      if (values.verbose && at !== 0) console.log(`  [${mode}] rank ${at < 0 ? "-" : at + 1}: ${q.question} → ${slugs.slice(0, 3).join(", ")}`);
    }
    const n = questions.length;
    summary[mode] = { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
    console.log(`${mode.padEnd(8)} ${(r1 / n).toFixed(3).padStart(8)}  ${(r5 / n).toFixed(3).padStart(8)}  ${(mrr / n).toFixed(3)}`);
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
    }
    if (cites.some((c) => lib.slugOf.get(c.id) === q.expected)) citingExpected++;
    if ((r.body.answer as string).includes(q.answer_hint)) withHint++;
    if (values.verbose && !(r.body.answer as string).includes(q.answer_hint)) console.log(`  [ask] ${q.question} (want "${q.answer_hint}") → ${r.body.answer.slice(0, 240)}`);
  }
  const n = questions.length;
  console.log(`\nask (${lib.services.ai.chat.id})`);
  console.log(`  citations whose quote is verbatim in the cited chunk: ${pct(citations ? verbatim / citations : 1)} (${verbatim}/${citations})`);
  console.log(`  answers citing the expected article:                  ${pct(citingExpected / n)} (${citingExpected}/${n})`);
  console.log(`  answers containing the expected answer text:          ${pct(withHint / n)} (${withHint}/${n})`);
  console.log(`  answers saying nothing was found:                     ${nothing}/${n}`);

  const failures: string[] = [];
  if (summary.hybrid!.r5 < TARGET_HYBRID_RECALL5) failures.push(`hybrid recall@5 ${summary.hybrid!.r5.toFixed(3)} < ${TARGET_HYBRID_RECALL5}`);
  if (verbatim !== citations) failures.push(`${citations - verbatim} citation quotes are not verbatim`);
  console.log(failures.length ? `\nFAIL: ${failures.join("; ")}` : "\nOK: targets met");
  lib.db.close();
  process.exit(failures.length ? 1 : 0);
}

await main();

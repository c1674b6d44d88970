// Benchmarks search latency on a seeded synthetic library: p50/p95/p99 per mode at the service
// level, vector searches each right after a commit of this process (SQLite), one mode over HTTP, a
// raw float32 vec0 brute-force KNN as the floor, recall@10 of the vector mode against exact KNN, and
// peak RSS.
//
//   bun run bench:search [--sources 10000] [--queries 1000] [--db file.db] [--seed 42] [--cache-mb 64]
//
// With DATABASE_URL set to PostgreSQL, the built library is also copied into a fresh schema there
// (db:copy) and the same queries are measured on it, twice: with the owner's binary codes held in
// memory (the default) and with VECTOR_MEMORY_MB=0, so vector candidates come from PostgreSQL's
// chunk_codes table (bit_count prefilter, exact re-rank). The schema is dropped afterwards.
//
// The corpus is built in a child process (its memory is not the query phase's); --db keeps the
// built file and reuses it on the next run. Text comes from a pseudo-word vocabulary: a Zipfian
// background plus per-topic words, so BM25 has rare and common terms and vectors have neighbours.
// Rows go in through the repos and the indexer's own embedding loop, not through HTTP.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { databaseUrl, loadConfig } from "../src/config.ts";
import { openDatabase, testSchemaName } from "../src/db/client.ts";
import { copyToPostgres } from "../src/db/copy.ts";
import { pgAsDb } from "../src/db/pg/as-db.ts";
import { openPostgres } from "../src/db/pg/client.ts";
import type { EngineDb } from "../src/db/port.ts";
import { newId } from "../src/ids.ts";
import { silentLogger } from "../src/log.ts";
import { createServices, type Services } from "../src/services.ts";
import { systemActor } from "../src/actor.ts";
import type { SearchMode } from "../src/features/search/schema.ts";
import { createVectorIndex } from "../src/features/search/vectors.ts";
import { createVectorsRepo } from "../src/stores.ts";
import { asSqlite } from "../src/db/client.ts";
import { seededRandom } from "../src/random.ts";
import { makeDocument, makeLanguage } from "./lib/synthetic-corpus.ts";

const TARGETS = { text: 10, vector: 10, hybrid: 15 } as const;
const TARGET_RSS_MB = 400;
const TARGET_RECALL = 0.95;
const FLOAT_TABLE = "bench_vec_float";

const { values: args } = parseArgs({
  options: {
    sources: { type: "string", default: "10000" },
    queries: { type: "string", default: "1000" },
    db: { type: "string" },
    seed: { type: "string", default: "42" },
    build: { type: "boolean", default: false },
    "cache-mb": { type: "string", default: "0" },
    client: { type: "string" },
  },
});

function openServices(dbPath: string | EngineDb, dataDir: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    EMBEDDER: process.env.EMBEDDER ?? "hashed",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "1000000",
    DEFAULT_MONTHLY_CREDITS: "1000000",
    ...env,
  });
  const db = typeof dbPath === "string" ? openDatabase(dbPath) : dbPath;
  return createServices({ config, db, logger: silentLogger });
}

async function build(dbPath: string, dataDir: string, nSources: number, seed: number) {
  const s = openServices(dbPath, dataDir);
  const { sqlite } = asSqlite(s.db);
  const user = await s.accounts.createUser(
    { email: "bench@example.com", password: "bench-password" },
    { bypassSignupPolicy: true },
  );
  const lang = makeLanguage(seed);
  const rnd = seededRandom(seed + 1);
  const insertSource = sqlite.prepare(
    `INSERT INTO sources (id, user_id, url, normalized_url, title, status, content_type, content, word_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'ready', 'text/markdown', ?, ?, ?, ?)`,
  );
  sqlite.exec("CREATE TABLE bench_queries (query TEXT NOT NULL)");
  const insertQuery = sqlite.prepare("INSERT INTO bench_queries VALUES (?)");
  const t0 = performance.now();
  const now = new Date().toISOString();
  const BATCH = 250;
  for (let i = 0; i < nSources; i += BATCH) {
    await s.db.tx(async () => {
      for (let j = i; j < Math.min(nSources, i + BATCH); j++) {
        const doc = makeDocument(lang, rnd, 6 + Math.floor(rnd() * 9));
        const id = newId("source");
        const url = `https://example.com/articles/${j}`;
        insertSource.run(id, user.id, url, url, doc.title, doc.markdown, doc.markdown.split(/\s+/).length, now, now);
        insertQuery.run(doc.query);
        await s.indexer.index({ type: "source", id, userId: user.id, title: doc.title, markdown: doc.markdown });
      }
    });
    if ((i / BATCH) % 8 === 0) process.stderr.write(`\r  chunked ${i + BATCH} sources`);
  }
  // The indexer enqueued one embed job per source; the loop below does their work in bulk.
  sqlite.exec("DELETE FROM jobs");
  const chunks = sqlite.query<{ n: number }, []>("SELECT count(*) n FROM chunks").get()!.n;
  process.stderr.write(
    `\r  ${nSources} sources, ${chunks} chunks in ${((performance.now() - t0) / 1000).toFixed(0)} s; embedding…\n`,
  );
  const t1 = performance.now();
  let done = 0;
  for (let n: number; (n = await s.indexer.embedMissing(4096)) > 0; ) {
    done += n;
    process.stderr.write(`\r  embedded ${done}/${chunks}`);
  }
  const slot = (await createVectorIndex(s.db, createVectorsRepo(s.db)).active())!;
  sqlite.exec(
    `CREATE VIRTUAL TABLE ${FLOAT_TABLE} USING vec0(embedding float[${slot.dimensions}] distance_metric=cosine)`,
  );
  sqlite
    .query(
      `INSERT INTO ${FLOAT_TABLE}(rowid, embedding) SELECT chunk_rowid, embedding FROM chunk_vectors WHERE slot = ?`,
    )
    .run(slot.slot);
  sqlite.exec("CREATE TABLE bench_meta (user_id TEXT NOT NULL, seed INTEGER NOT NULL)");
  sqlite.query("INSERT INTO bench_meta VALUES (?, ?)").run(user.id, seed);
  sqlite.exec("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize'); PRAGMA wal_checkpoint(TRUNCATE); ANALYZE;");
  process.stderr.write(`\r  embedded ${done} chunks in ${((performance.now() - t1) / 1000).toFixed(0)} s\n`);
  s.db.close();
}

/** The stored known-item queries, in a seeded random order. */
function loadQueries(s: Services, seed: number, n: number): string[] {
  const all = asSqlite(s.db)
    .sqlite.query<{ query: string }, []>("SELECT query FROM bench_queries")
    .all()
    .map((r) => r.query);
  const rnd = seededRandom(seed + 2);
  return Array.from({ length: n }, () => all[Math.floor(rnd() * all.length)]!);
}

function percentiles(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

const fmt = (x: number) => x.toFixed(2).padStart(7);
const rssMb = () => process.resourceUsage().maxRSS / 1024;

async function timeAll(queries: string[], run: (q: string) => Promise<unknown> | unknown) {
  for (const q of queries.slice(0, 50)) await run(q); // warm caches and JIT
  const ms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    ms.push(performance.now() - t);
    // Requests reach a server through its event loop: let timers scheduled by a search run between
    // them, as they would there (the search service's collector pacer; see docs/performance.md).
    await new Promise((r) => setTimeout(r, 0));
  }
  return percentiles(ms);
}

type Percentiles = { p50: number; p95: number; p99: number };

const benchUser = (ref: Services) =>
  asSqlite(ref.db).sqlite.query<{ user_id: string }, []>("SELECT user_id FROM bench_meta").get()!.user_id;

/** Exact cosine KNN over the float32 copy in the SQLite library: the floor and the truth for recall. */
function exactKnn(ref: Services) {
  const knnFloat = asSqlite(ref.db).sqlite.query<{ rowid: number }, [Uint8Array]>(
    `SELECT rowid FROM ${FLOAT_TABLE} WHERE embedding MATCH ? AND k = 10`,
  );
  const asBlob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return async (q: string) => knnFloat.all(asBlob((await ref.ai.embedder.embed([q], "query"))[0]!)).map((r) => r.rowid);
}

/** p50/p95/p99 of each mode on `s`, and recall@10 of its vector mode against exact KNN (from `ref`). */
async function measureModes(s: Services, ref: Services, queries: string[], label: string, withHttp = false) {
  const actor = systemActor(benchUser(ref), "bench");
  console.log(
    `\n${label} (peak RSS so far ${rssMb().toFixed(0)} MB)\nservice level (ms)      p50      p95      p99   target p95`,
  );
  const results: Record<string, Percentiles> = {};
  for (const mode of ["text", "vector", "hybrid"] as SearchMode[]) {
    results[mode] = await timeAll(queries, (q) => s.search.search(actor, q, { mode, limit: 10 }));
    const r = results[mode]!;
    console.log(
      `${mode.padEnd(20)} ${fmt(r.p50)}  ${fmt(r.p95)}  ${fmt(r.p99)}   ≤ ${TARGETS[mode as keyof typeof TARGETS]}   (peak RSS ${rssMb().toFixed(0)} MB)`,
    );
  }
  // Each vector search right after a commit of this process (as after saving anything): the owners'
  // codes in memory must stay loaded, not be read again from the table.
  if (s.db.engine === "sqlite") {
    const writer = asSqlite(s.db).sqlite;
    writer.run("CREATE TABLE IF NOT EXISTS bench_writes (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    let n = 0;
    const afterWrite = await timeAll(queries.slice(0, 150), (q) => {
      // A commit that changes the file (SQLite skips one that writes the same values).
      writer.run("INSERT OR REPLACE INTO bench_writes (id, n) VALUES (1, ?)", [++n]);
      return s.search.search(actor, q, { mode: "vector", limit: 10 });
    });
    results["vector after a write"] = afterWrite;
    console.log(
      `${"vector after a write".padEnd(20)} ${fmt(afterWrite.p50)}  ${fmt(afterWrite.p95)}  ${fmt(afterWrite.p99)}   ≤ ${TARGETS.vector}   (peak RSS ${rssMb().toFixed(0)} MB)`,
    );
  }
  const http = withHttp ? await measureHttp(s, benchUser(ref), queries, "hybrid") : undefined;
  if (http)
    console.log(
      `${"hybrid over HTTP".padEnd(20)} ${fmt(http.p50)}  ${fmt(http.p95)}  ${fmt(http.p99)}   (loopback, sequential)`,
    );
  // The search process's own peak: taken before the recall check, whose exact float KNN (sqlite-vec's
  // brute force over every vector) is this benchmark's oracle, never run by the product.
  const rss = rssMb();
  // Recall@10 of the chunks the vector mode ranks first, against exact cosine KNN.
  const exact = exactKnn(ref);
  let hit = 0;
  for (const q of queries) {
    const truth = new Set(await exact(q));
    const ours = (await s.search.rank(actor, q, { mode: "vector", limit: 10 })).slice(0, 10);
    await new Promise((r) => setTimeout(r, 0));
    for (const r of ours) if (truth.has(r.rowid)) hit++;
  }
  const recall = hit / (queries.length * 10);
  console.log(`vector recall@10 against exact KNN: ${recall.toFixed(3)}`);
  return { results, recall, rss, http };
}

async function measure(s: Services, queries: string[]) {
  const { sqlite } = asSqlite(s.db);
  const chunks = sqlite.query<{ n: number }, []>("SELECT count(*) n FROM chunks").get()!.n;
  const docs = sqlite.query<{ n: number }, []>("SELECT count(*) n FROM sources").get()!.n;
  console.log(`${docs} sources, ${chunks} chunks, ${queries.length} queries per mode`);
  const { results, recall, rss, http } = await measureModes(s, s, queries, "SQLite", true);
  console.log(
    `peak RSS after the search modes: ${rss.toFixed(0)} MB; after the recall check: ${rssMb().toFixed(0)} MB`,
  );
  const floor = await timeAll(queries, exactKnn(s));
  console.log(
    `${"float32 vec0 KNN".padEnd(20)} ${fmt(floor.p50)}  ${fmt(floor.p95)}  ${fmt(floor.p99)}   (floor: exact brute force)`,
  );
  return { results, floor, recall, rss, http: http! };
}

/**
 * The same library on PostgreSQL: copied into a fresh schema with db:copy (its code table is rebuilt
 * from the float vectors, as after any copy), then measured with codes in memory and in PostgreSQL.
 */
async function measurePostgres(url: string, ref: Services, dataDir: string, queries: string[]) {
  const schema = `bench_search_${testSchemaName()}`;
  const pg = openPostgres(url, { schema, max: 10 });
  const out: { label: string; results: Record<string, Percentiles>; recall: number; http?: Percentiles }[] = [];
  try {
    const t0 = performance.now();
    const copy = await copyToPostgres({ source: asSqlite(ref.db).sqlite, target: pg });
    if (!copy.ok) throw new Error("db:copy into the benchmark schema did not verify its row counts");
    const copied = performance.now();
    for (const [label, memoryMb] of [
      ["PostgreSQL, codes in memory", undefined],
      ["PostgreSQL, codes in chunk_codes", "0"],
    ] as const) {
      const s = openServices(pgAsDb(pg), dataDir, memoryMb ? { VECTOR_MEMORY_MB: memoryMb } : {});
      const t1 = performance.now();
      await s.vectors.prepare();
      if (out.length === 0)
        console.log(
          `\nPostgreSQL: db:copy ${((copied - t0) / 1000).toFixed(0)} s, binary codes rebuilt in ${((performance.now() - t1) / 1000).toFixed(0)} s`,
        );
      const m = await measureModes(s, ref, queries, label);
      const http = memoryMb ? undefined : await measureHttp(s, benchUser(ref), queries, "hybrid");
      if (http)
        console.log(
          `${"hybrid over HTTP".padEnd(20)} ${fmt(http.p50)}  ${fmt(http.p95)}  ${fmt(http.p99)}   (loopback, sequential)`,
        );
      out.push({ label, ...m, http });
    }
  } finally {
    await pg.sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await pg.close();
  }
  return out;
}

/**
 * Hybrid search over a real `Bun.serve` on loopback, sequential requests. The client runs in a child
 * process (`--client`), so the search process's memory is the server's alone, as it is in production.
 */
async function measureHttp(s: Services, userId: string, queries: string[], mode: SearchMode): Promise<Percentiles> {
  const { key } = await s.keys.create(userId, "bench");
  const app = createApp(s);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => app.handle(req) });
  const dir = mkdtempSync(join(tmpdir(), "commonplace-bench-client-"));
  const file = join(dir, "client.json");
  try {
    await Bun.write(file, JSON.stringify({ url: `http://127.0.0.1:${server.port}/api/v1/search`, key, mode, queries }));
    const child = Bun.spawn([process.execPath, import.meta.path, "--client", file], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const out = await new Response(child.stdout).text();
    if ((await child.exited) !== 0) throw new Error("the HTTP client failed");
    return JSON.parse(out) as Percentiles;
  } finally {
    await server.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The HTTP client's side of measureHttp: times the requests and prints their percentiles as JSON. */
async function runClient(file: string) {
  const { url, key, mode, queries } = JSON.parse(await Bun.file(file).text()) as {
    url: string;
    key: string;
    mode: SearchMode;
    queries: string[];
  };
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const r = await timeAll(queries, async (q) => {
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ query: q, mode, limit: 10 }) });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  });
  process.stdout.write(JSON.stringify(r));
}

async function main() {
  if (args.client) return runClient(args.client);
  const nSources = Number(args.sources);
  const nQueries = Number(args.queries);
  const seed = Number(args.seed);
  const dir = mkdtempSync(join(tmpdir(), "commonplace-bench-search-"));
  const dbPath = args.db ?? join(dir, "bench.db");
  try {
    if (args.build) return await build(dbPath, dir, nSources, seed);
    if (!existsSync(dbPath)) {
      console.log(`building a library of ${nSources} sources…`);
      const child = Bun.spawn(
        [
          process.execPath,
          import.meta.path,
          "--build",
          "--db",
          dbPath,
          "--sources",
          String(nSources),
          "--seed",
          String(seed),
        ],
        {
          stdout: "inherit",
          stderr: "inherit",
        },
      );
      if ((await child.exited) !== 0) throw new Error("building the library failed");
    }
    const s = openServices(dbPath, dir);
    const cacheMb = Number(args["cache-mb"]);
    // The default page cache is 2 MB; a bigger one keeps the binary codes (~19 MB at 100k chunks) in memory.
    if (cacheMb > 0) asSqlite(s.db).sqlite.exec(`PRAGMA cache_size = -${cacheMb * 1024}`);
    const queries = loadQueries(s, seed, nQueries);
    const { results, floor, recall, rss: modesRss } = await measure(s, queries);
    // The RSS target is the SQLite search process's: its peak over the search modes and the HTTP run
    // (taken before the recall check's oracle; the PostgreSQL runs come later and add their own).
    const sqliteRss = modesRss;
    const pgUrl = databaseUrl();
    const pg = pgUrl ? await measurePostgres(pgUrl, s, dir, queries) : [];
    if (pg.length > 0) {
      console.log(
        "\np95 (ms)                        text   vector   hybrid   recall@10   PostgreSQL / SQLite (hybrid p95)",
      );
      for (const r of [{ label: "SQLite", results, recall }, ...pg])
        console.log(
          `${r.label.padEnd(32)}${fmt(r.results.text!.p95)}  ${fmt(r.results.vector!.p95)}  ${fmt(r.results.hybrid!.p95)}   ${r.recall.toFixed(3).padStart(9)}   ${((r.results.hybrid!.p95 / results.hybrid!.p95) * 100).toFixed(0)} %`,
        );
    }
    console.log(`\nvector recall@10 against exact KNN: ${recall.toFixed(3)} (target ≥ ${TARGET_RECALL}; SQLite)`);
    console.log(`peak RSS of the query process: ${sqliteRss.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB}; SQLite)`);
    const codes = (s as Partial<Services>).vectors?.memoryBytes?.();
    if (codes !== undefined) console.log(`binary codes held in memory: ${(codes / 1024 / 1024).toFixed(1)} MB`);
    // The targets apply to SQLite, the embedded default; PostgreSQL's figures are reported beside them.
    const failures = Object.entries(TARGETS)
      .filter(([m, t]) => results[m]!.p95 > t)
      .map(([m, t]) => `${m} p95 ${results[m]!.p95.toFixed(1)} ms > ${t}`);
    const afterWrite = results["vector after a write"];
    if (afterWrite && afterWrite.p95 > TARGETS.vector)
      failures.push(`vector after a write p95 ${afterWrite.p95.toFixed(1)} ms > ${TARGETS.vector}`);
    if (recall < TARGET_RECALL) failures.push(`recall@10 ${recall.toFixed(3)} < ${TARGET_RECALL}`);
    if (sqliteRss > TARGET_RSS_MB) failures.push(`peak RSS ${sqliteRss.toFixed(0)} MB > ${TARGET_RSS_MB}`);
    if (floor.p95 < results.vector!.p95) console.log("note: the vector mode is slower than brute-force float KNN");
    console.log(failures.length ? `FAIL: ${failures.join("; ")}` : "OK: targets met");
    s.db.close();
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

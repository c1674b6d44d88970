// Benchmarks MCP `tools/call search` over a 10,000-source library against the same search through
// POST /api/v1/search, under the same closed-loop load, in one run.
//
//   bun run bench:mcp [--duration 10] [--connections 32] [--sources 10000]
//
// The server runs in a child process over a file database (as main.ts builds it); the load
// generator runs in another child, so neither shares a JS thread with the server it measures.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { createSourcesRepo } from "../src/features/library/sources/repo.ts";
import { newId } from "../src/ids.ts";
import { s256 } from "../src/features/oauth/secrets.ts";
import { createLogger } from "../src/log.ts";
import { createServices, type Services } from "../src/services.ts";
import { asSqlite } from "../src/db/client.ts";

const TARGET_P95_RATIO = 1.5;
const ROUNDS = 10;
const QUERY = "compost soil";
const SELF = import.meta.path;

interface Target {
  name: string;
  url: string;
  body: string;
  headers: Record<string, string>[];
}
interface Result {
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
}

// Deterministic text: a Zipf-ish vocabulary so common words are common and queries are selective.
function corpus(n: number) {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const topics = [
    "garden",
    "compost",
    "soil",
    "bread",
    "kettle",
    "river",
    "engine",
    "violin",
    "market",
    "glacier",
    "protein",
    "harbour",
  ];
  const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`).concat(topics);
  const word = () => vocab[Math.floor(vocab.length * rand() ** 2.2)]!;
  const sentence = () => `${Array.from({ length: 12 }, word).join(" ")}.`;
  const para = () => Array.from({ length: 5 }, sentence).join(" ");
  return Array.from({ length: n }, (_, i) => {
    const topic = topics[i % topics.length]!;
    return {
      url: `https://bench.example/${topic}/${i}`,
      title: `${topic} notes ${i}`,
      markdown: `# ${topic} ${i}\n\n${para()}\n\n${para()}\n\n${para()} ${topic}`,
    };
  });
}

/** Ready sources written through the sources repo (no fetch, no ingest job) and indexed for search. */
async function seed(s: Services, userId: string, n: number): Promise<void> {
  const repo = createSourcesRepo(s.db);
  const at = new Date().toISOString();
  await s.db.tx(async () => {
    for (const doc of corpus(n)) {
      const id = newId("source");
      await repo.insert({
        id,
        userId,
        url: doc.url,
        normalizedUrl: doc.url,
        title: doc.title,
        status: "ready",
        content: doc.markdown,
        fetchedAt: at,
        createdAt: at,
        updatedAt: at,
      });
      await s.indexer.index({ type: "source", id, userId, title: doc.title, markdown: doc.markdown });
    }
  });
}

/** An access token the way a client gets one: registration, authorization with consent, code exchange. */
async function oauthToken(s: Services, userId: string, i: number): Promise<string> {
  const redirect = `http://127.0.0.1:9/cb${i}`;
  const client = await s.oauth.register(
    { client_name: `bench ${i}`, redirect_uris: [redirect] },
    `10.0.${i >> 8}.${i & 255}`,
  );
  const verifier = `bench-verifier-${i}-${"x".repeat(40)}`;
  const q = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirect,
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
    resource: s.oauth.mcpResource,
  });
  const started = await s.oauth.authorize(q);
  if (started.kind !== "consent") throw new Error(`authorize failed: ${started.location}`);
  const code = new URL(await s.oauth.decide(userId, started.requestId, true)).searchParams.get("code")!;
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirect,
    code_verifier: verifier,
    client_id: client.client_id,
  });
  return (await s.oauth.token(form)).access_token;
}

async function serve(connections: number, sources: number): Promise<void> {
  const config = loadConfig(process.env);
  const db = openDatabase(join(config.dataDir, "commonplace.db"));
  const log = Bun.file(join(config.dataDir, "requests.log")).writer();
  const s = createServices({ config, db, logger: createLogger(config.logLevel, (chunk) => void log.write(chunk)) });
  const user = await s.accounts.createUser(
    { email: "bench@example.com", password: "bench-password" },
    { bypassSignupPolicy: true },
  );
  const t0 = performance.now();
  await seed(s, user.id, sources);
  const seedMs = performance.now() - t0;
  const tokens = Array.from({ length: connections }, (_, i) => oauthToken(s, user.id, i));
  const keys = Array.from({ length: connections }, async (_, i) => (await s.keys.create(user.id, `bench ${i}`)).key);
  const app = createApp(s);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => app.handle(req) });
  const base = `http://127.0.0.1:${server.port}`;
  const chunks = asSqlite(s.db).sqlite.query<{ n: number }, []>("SELECT count(*) n FROM chunks").get()!.n;
  console.log(JSON.stringify({ base, tokens, keys, seedMs, chunks }));
}

const ok = (name: string, text: string) =>
  name.startsWith("MCP")
    ? text.includes('"structuredContent"') && !text.includes('"isError"')
    : text.startsWith('{"mode"');

interface Sample {
  latencies: number[];
  errors: number;
  seconds: number;
}

/** Closed loop: each connection sends its next request when the previous answer is read. */
async function load(t: Target, seconds: number): Promise<Sample> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    t.headers.map(async (headers) => {
      while (performance.now() < until) {
        const start = performance.now();
        const res = await fetch(t.url, { method: "POST", headers, body: t.body });
        const text = await res.text();
        latencies.push(performance.now() - start);
        if (res.status !== 200 || !ok(t.name, text)) errors++;
      }
    }),
  );
  return { latencies, errors, seconds };
}

async function runLoad(t: Target, seconds: number): Promise<Sample> {
  const proc = Bun.spawn([process.execPath, SELF, "--load", JSON.stringify(t), "--duration", String(seconds)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load for ${t.name} failed`);
  return JSON.parse(out) as Sample;
}

function summarize(name: string, samples: Sample[]): Result {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((n, s) => n + s.seconds, 0);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const errors = samples.reduce((n, s) => n + s.errors, 0);
  return {
    name,
    rps: latencies.length / seconds,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    requests: latencies.length,
    errors,
  };
}

async function startServer(env: Record<string, string>, connections: number, sources: number) {
  const proc = Bun.spawn(
    [process.execPath, SELF, "--serve", "--connections", String(connections), "--sources", String(sources)],
    {
      env: { ...process.env, ...env },
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the server exited before it was ready");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    proc,
    ...(JSON.parse(text.slice(0, text.indexOf("\n"))) as {
      base: string;
      tokens: string[];
      keys: string[];
      seedMs: number;
      chunks: number;
    }),
  };
}

function targets(base: string, tokens: string[], keys: string[]): Target[] {
  const args = { query: QUERY, mode: "text", limit: 10 };
  const mcpBody = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search", arguments: args },
  });
  const mcpHeaders = (t: string) => ({
    authorization: `Bearer ${t}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  });
  return [
    { name: "MCP tools/call search (OAuth)", url: `${base}/mcp`, body: mcpBody, headers: tokens.map(mcpHeaders) },
    {
      name: "POST /api/v1/search (API key)",
      url: `${base}/api/v1/search`,
      body: JSON.stringify(args),
      headers: keys.map((k) => ({ authorization: `Bearer ${k}`, "content-type": "application/json" })),
    },
  ];
}

async function main(o: { duration: number; connections: number; sources: number }): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "commonplace-bench-mcp-"));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "1000000" };
  const child = await startServer(env, o.connections, o.sources);
  try {
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Bun ${Bun.version}, ${process.platform}-${process.arch}`,
    );
    console.log(
      `library: ${o.sources} ready sources, ${child.chunks} chunks (seeded in ${(child.seedMs / 1000).toFixed(1)} s); query "${QUERY}", text mode, limit 10`,
    );
    console.log(
      `load: Bun fetch loop in its own process, ${o.connections} concurrent clients, each with its own token/key; ${o.duration} s per target in ${ROUNDS} alternating rounds after a 3 s warm-up\n`,
    );
    const list = targets(child.base, child.tokens, child.keys);
    for (const t of list) {
      const probe = await fetch(t.url, { method: "POST", headers: t.headers[0], body: t.body });
      const text = await probe.text();
      if (probe.status !== 200 || !ok(t.name, text) || text.includes('"data":[]'))
        throw new Error(`${t.name}: ${probe.status} ${text.slice(0, 300)}`);
      await runLoad(t, Math.min(3, o.duration));
    }
    // Rounds alternate between the targets, so a noisy neighbour slows both alike.
    const samples: Sample[][] = list.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, t] of list.entries()) samples[i]!.push(await runLoad(t, o.duration / ROUNDS));
    }
    const results = list.map((t, i) => summarize(t.name, samples[i]!));
    const f = (n: number, d = 2) => n.toFixed(d);
    console.log("| target | calls/s | p50 ms | p95 ms | p99 ms | calls | errors |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const r of results)
      console.log(
        `| ${r.name} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.requests} | ${r.errors} |`,
      );
    const [mcp, http] = results as [Result, Result];
    const ratio = mcp.p95 / http.p95;
    console.log(`\np95 MCP / HTTP: ${f(ratio)}× (target ≤ ${TARGET_P95_RATIO}×)`);
    const pass = ratio <= TARGET_P95_RATIO && mcp.errors === 0 && http.errors === 0;
    console.log(pass ? "PASS" : "MISS");
    process.exitCode = pass ? 0 : 1;
  } finally {
    child.proc.kill();
    await child.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      serve: { type: "boolean", default: false },
      load: { type: "string" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "32" },
      sources: { type: "string", default: "10000" },
    },
  });
  const o = {
    duration: Number(values.duration),
    connections: Number(values.connections),
    sources: Number(values.sources),
  };
  if (values.serve) await serve(o.connections, o.sources);
  else if (values.load) console.log(JSON.stringify(await load(JSON.parse(values.load) as Target, o.duration)));
  else await main(o);
}

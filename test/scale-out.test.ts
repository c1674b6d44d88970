// Scale-out on PostgreSQL: two (or three) server processes on one database, as behind a load balancer.
// Runs when the test run has DATABASE_URL (the PostgreSQL lane). Each check spreads its requests over
// the processes and asserts what one process alone would guarantee.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { databaseUrl, loadConfig } from "../src/config.ts";
import { openPostgres } from "../src/db/pg/client.ts";
import { pgAsDb } from "../src/db/pg/as-db.ts";
import { sqlRows } from "../src/db/inspect.ts";
import { testSchemaName } from "../src/db/client.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { authorizeUrl, pkce, REDIRECT, registeredClient, token } from "../src/features/oauth/test-flow.ts";
import { hiddenFields, signUp, testBrowser } from "./browser-client.ts";
import { rss, startFeedServer } from "../src/features/feeds/testing.ts";
import { userWithKey, type TestContext } from "./helpers.ts";
import { startServer, tempDir, type ServerProcess } from "./server-process.ts";

const url = databaseUrl();
const live: ServerProcess[] = [];
const dirs: { remove(): void }[] = [];

afterAll(async () => {
  await Promise.all(live.map((s) => s.stop()));
  for (const d of dirs) d.remove();
});

/** One deployment: a schema, a shared DATA_DIR, the environment every process of it gets. */
function deployment(extra: Record<string, string> = {}) {
  const dir = tempDir("commonplace-scale-");
  dirs.push(dir);
  const env = {
    DATABASE_URL: url!,
    DATABASE_SCHEMA: testSchemaName(),
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: dir.path,
    ALLOW_PRIVATE_NETWORK: "true",
    JOB_POLL_MS: "200",
    JOB_LEASE_MS: "2000",
    ...extra,
  };
  const pg = openPostgres(url!, { schema: env.DATABASE_SCHEMA, max: 4, idleTimeout: 2 });
  const db = pgAsDb(pg);
  return {
    env,
    db,
    async seedUser(email = `u${Math.random().toString(36).slice(2, 8)}@example.com`) {
      const services = createServices({
        config: loadConfig({ ...env, LOG_LEVEL: "silent", EMBEDDER: "hashed" }),
        db,
        logger: silentLogger,
      });
      return userWithKey({ db, services } as unknown as TestContext, email);
    },
    async start(more: Record<string, string> = {}): Promise<ServerProcess> {
      const s = await startServer([process.execPath, "run", "src/main.ts"], { ...env, ...more });
      live.push(s);
      return s;
    },
  };
}

function api(server: ServerProcess, key: string, method: string, path: string, body?: unknown) {
  return fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The outside web: one page and a receiver that records every request's Idempotency-Key. */
function outsideWeb() {
  const seen: { key: string; at: number }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path.startsWith("/page"))
        return new Response(
          `<html><head><title>Tides</title></head><body><article><h1>Tides</h1>${"<p>The tide rises twice a day because the moon pulls the oceans toward it, and the earth turns beneath that bulge of water.</p>".repeat(6)}</article></body></html>`,
          { headers: { "content-type": "text/html" } },
        );
      seen.push({ key: req.headers.get("idempotency-key") ?? "", at: Date.now() });
      await Bun.sleep(2);
      return Response.json({ ok: true });
    },
  });
  return { seen, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

const web = outsideWeb();
afterAll(() => web.stop());

describe.skipIf(!url)("two processes on one PostgreSQL", () => {
  let d: ReturnType<typeof deployment>;
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    d = deployment({ RATE_LIMIT_PER_MINUTE: "1000000", WEBHOOK_RATE_LIMIT_PER_MINUTE: "1000000" });
    ({ key, keyId } = await d.seedUser());
    [a, b] = await Promise.all([d.start(), d.start()]);
  }, 120_000);

  test("concurrent creates of one URL on both processes: one 201, the rest 200, one row", async () => {
    const link = `${web.url}/page/one?x=${Math.random()}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api(i % 2 ? a : b, key, "POST", "/sources", { url: link })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(11);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { id: string }).id)));
    expect(ids.size).toBe(1);
  }, 60_000);

  test("a key revoked on one process is refused by the other", async () => {
    const extra = await api(a, key, "POST", "/keys", { name: "to revoke" });
    expect(extra.status).toBe(201);
    const made = (await extra.json()) as { id: string; key: string };
    // Both processes have now seen (and cached) the key.
    expect((await api(a, made.key, "GET", "/sources")).status).toBe(200);
    expect((await api(b, made.key, "GET", "/sources")).status).toBe(200);
    expect((await api(a, key, "DELETE", `/keys/${made.id}`)).status).toBe(200);
    const revokedAt = performance.now();
    // The other process hears of it through NOTIFY; poll it (bounded) and report how long it took.
    let status = 200;
    while (status !== 401 && performance.now() - revokedAt < 5_000) {
      status = (await api(b, made.key, "GET", "/sources")).status;
    }
    expect(status).toBe(401);
    console.log(
      `scale-out: revoked key refused by the other process after ${(performance.now() - revokedAt).toFixed(1)} ms`,
    );
    expect(keyId).toBeTruthy();
  }, 60_000);

  test("kill -9 of one process while webhooks arrive at both: every 202 runs once to success", async () => {
    const created = await api(a, key, "POST", "/workflows", {
      name: "scale",
      trigger: { type: "webhook" },
      actions: [{ id: "send", type: "http_request", url: `${web.url}/rx`, body: { n: "{{ n }}" }, retries: 5 }],
    });
    expect(created.status).toBe(201);
    const hook = new URL(((await created.json()) as { webhook_url: string }).webhook_url).pathname;
    const accepted: string[] = [];
    let n = 0;
    const post = async (s: () => ServerProcess) => {
      const id = `msg_${++n}`;
      try {
        const r = await fetch(s().url + hook, {
          method: "POST",
          headers: { "content-type": "application/json", "webhook-id": id },
          body: JSON.stringify({ n }),
        });
        if (r.status === 202) accepted.push(...((await r.json()) as { runs: string[] }).runs);
        else await r.body?.cancel();
      } catch {
        // The process was killed under this request: no 202, no promise.
      }
    };
    for (let round = 0; round < 3; round++) {
      const target = accepted.length + 20;
      let stopped = false;
      const senders = Array.from({ length: 4 }, async (_, i) => {
        while (!stopped) await post(() => (i % 2 ? a : b));
      });
      while (accepted.length < target) await Bun.sleep(5);
      a.proc.kill("SIGKILL");
      await a.proc.exited;
      stopped = true;
      await Promise.all(senders);
      a = await d.start();
    }
    // Every accepted run finishes (the survivor and the restarted process share the queue).
    const pending = async () =>
      (
        await sqlRows<{ n: number }>(
          d.db,
          "SELECT count(*) AS n FROM workflow_runs WHERE status <> 'succeeded' AND id = ANY(?::text[])",
          `{${accepted.join(",")}}`,
        )
      )[0]!.n;
    // The runs finish in other processes; polling the database is the only signal there is.
    for (let i = 0; i < 600 && (await pending()) > 0; i++) await Bun.sleep(100);
    expect(await pending()).toBe(0);
    const steps = await sqlRows<{ key: string; finished_at: string }>(
      d.db,
      "SELECT run_id || ':' || action_id AS key, finished_at FROM workflow_steps WHERE run_id = ANY(?::text[])",
      `{${accepted.join(",")}}`,
    );
    expect(steps).toHaveLength(accepted.length);
    const finished = new Map(steps.map((s) => [s.key, Date.parse(s.finished_at)]));
    // No receiver saw a request for a step after that step had finished.
    expect(web.seen.filter((r) => finished.has(r.key) && r.at > finished.get(r.key)!)).toEqual([]);
  }, 240_000);
});

describe.skipIf(!url)("limits shared by two processes", () => {
  test("one rate limit is enforced exactly across both processes", async () => {
    const d = deployment({ RATE_LIMIT_PER_MINUTE: "30" });
    const { key } = await d.seedUser();
    const [a, b] = await Promise.all([d.start(), d.start()]);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => api(i % 2 ? a : b, key, "GET", "/sources")));
    const ok = answers.filter((r) => r.status === 200).length;
    const limited = answers.filter((r) => r.status === 429).length;
    expect({ ok, limited }).toEqual({ ok: 30, limited: 30 });
  }, 120_000);

  test("50 concurrent asks against an allowance of 10 never overdraw", async () => {
    const d = deployment({ DEFAULT_MONTHLY_CREDITS: "10", RATE_LIMIT_PER_MINUTE: "1000000" });
    const { key, userId } = await d.seedUser();
    const [a, b] = await Promise.all([d.start(), d.start()]);
    const note = await api(a, key, "POST", "/notes", {
      title: "Tides",
      content: "The tide rises twice a day because the moon pulls the oceans.",
    });
    expect(note.status).toBe(201);
    // Wait (bounded) until the note is searchable: indexing runs in a job on either process.
    for (let i = 0; i < 300; i++) {
      const r = await api(b, key, "POST", "/search", { query: "tide", mode: "text" });
      if (((await r.json()) as { data: unknown[] }).data.length > 0) break;
      await Bun.sleep(100);
    }
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(i % 2 ? a : b, key, "POST", "/search/ask", { question: "Why does the tide rise?" }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    const [used] = await sqlRows<{ n: number }>(
      d.db,
      "SELECT coalesce(sum(amount), 0) AS n FROM credit_ledger WHERE user_id = ?",
      userId,
    );
    expect(Math.abs(used!.n)).toBe(10);
  }, 180_000);
});

/** A browser (or client) whose requests go to whichever process `to()` names, as behind a load balancer. */
function balancer(first: ServerProcess) {
  let target = first;
  const handle = async (req: Request): Promise<Response> => {
    const u = new URL(req.url);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text();
    return fetch(`${target.url}${u.pathname}${u.search}`, {
      method: req.method,
      headers: req.headers,
      body,
      redirect: "manual",
    });
  };
  return {
    ctx: { app: { handle }, config: { baseUrl: "http://localhost" } } as unknown as TestContext,
    to(s: ServerProcess) {
      target = s;
    },
  };
}

describe.skipIf(!url)("OAuth across two processes", () => {
  test("authorise on one process, consent on the other, redeem the code on the first", async () => {
    const d = deployment({ BASE_URL: "http://localhost", RATE_LIMIT_PER_MINUTE: "1000000" });
    const [a, b] = await Promise.all([d.start(), d.start()]);
    const lb = balancer(a);
    const browser = testBrowser(lb.ctx);
    expect((await signUp(browser, "oauth-two@example.com")).status).toBe(303);
    const clientId = await registeredClient(lb.ctx);
    const { verifier, challenge } = pkce();
    const start = await browser.get(authorizeUrl(lb.ctx, { client_id: clientId, code_challenge: challenge }));
    expect(start.status).toBe(302);
    expect(start.location).toStartWith("/oauth/consent");
    // The pending authorisation was parked by process a; process b shows and answers it.
    lb.to(b);
    const page = await browser.get(start.location!);
    expect(page.status).toBe(200);
    const answer = await browser.post("/oauth/consent", {
      ...hiddenFields(page.text, "/oauth/consent"),
      decision: "allow",
    });
    expect(answer.status).toBe(303);
    const code = new URL(answer.location!).searchParams.get("code");
    expect(code).toBeTruthy();
    lb.to(a);
    const res = await token(lb.ctx, {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
      resource: "http://localhost/mcp",
    });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toBeTruthy();
  }, 120_000);
});

describe.skipIf(!url)("audio across two processes", () => {
  test("an episode generated by the runners is served with Range by either process", async () => {
    // Process a serves the API only; b runs every job, so the audio is written by b and read by a.
    const d = deployment({ RATE_LIMIT_PER_MINUTE: "1000000" });
    const { key } = await d.seedUser();
    const b = await d.start();
    const a = await startServer([process.execPath, "run", "src/main.ts"], { ...d.env, JOB_RUNNER: "false" });
    live.push(a);
    const saved = await api(a, key, "POST", "/sources", { url: `${web.url}/page/tides` });
    expect(saved.status).toBe(201);
    const src = ((await saved.json()) as { id: string }).id;
    // The jobs run in the other process; the API is all there is to watch.
    let status = "";
    for (let i = 0; i < 600 && status !== "ready" && status !== "failed"; i++) {
      status = ((await (await api(a, key, "GET", `/sources/${src}`)).json()) as { status: string }).status;
      if (status !== "ready") await Bun.sleep(100);
    }
    expect(status).toBe("ready");
    const made = await api(a, key, "POST", "/podcasts", { source_ids: [src], format: "brief" });
    expect(made.status).toBe(202);
    const id = ((await made.json()) as { id: string }).id;
    let episode: { status: string; audio_url: string | null } = { status: "", audio_url: null };
    for (let i = 0; i < 1200 && episode.status !== "ready" && episode.status !== "failed"; i++) {
      episode = (await (await api(a, key, "GET", `/podcasts/${id}`)).json()) as typeof episode;
      if (episode.status !== "ready") await Bun.sleep(100);
    }
    expect(episode.status).toBe("ready");
    for (const s of [a, b]) {
      const part = await fetch(`${s.url}/api/v1/podcasts/${id}/audio`, {
        headers: { authorization: `Bearer ${key}`, range: "bytes=0-1023" },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get("content-type")).toBe("audio/mpeg");
      expect((await part.arrayBuffer()).byteLength).toBe(1024);
    }
  }, 240_000);
});

describe.skipIf(!url)("feeds across three processes", () => {
  test("a watch with three processes running polls once per slot", async () => {
    const feeds = startFeedServer();
    feeds.set("/feed.xml", { body: rss([{ id: "1", title: "One" }]) });
    try {
      const d = deployment();
      const { key } = await d.seedUser();
      const first = await d.start();
      // A yearly schedule: no slot falls due by itself during the test; each slot is made due below.
      const created = await api(first, key, "POST", "/workflows", {
        name: "watch",
        trigger: { type: "webhook" },
        actions: [{ id: "w", type: "watch_feed", feed_url: `${feeds.url("/feed.xml")}`, schedule: "0 0 1 1 *" }],
      });
      expect(created.status).toBe(201);
      const hook = new URL(((await created.json()) as { webhook_url: string }).webhook_url).pathname;
      const fired = await fetch(first.url + hook, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      });
      expect(fired.status).toBe(202);
      const count = async (where: string) =>
        (await sqlRows<{ n: number }>(d.db, `SELECT count(*) AS n FROM jobs WHERE ${where}`, Date.now()))[0]!.n;
      const pollJobs = () => count("type = 'feed.poll' AND created_at <= ?");
      const unfinished = () =>
        count(
          "status IN ('queued', 'running') AND run_at <= ? AND type IN ('feed.poll', 'workflow.runs', 'workflow.step')",
        );
      // Work done in other processes: polling the database is the only signal there is.
      const settle = async (hits: number) => {
        for (let i = 0; i < 300 && (feeds.hits("/feed.xml").length < hits || (await unfinished()) > 0); i++)
          await Bun.sleep(50);
      };
      await settle(1); // the watch_feed step polls once when it runs
      expect(feeds.hits("/feed.xml")).toHaveLength(1);
      await first.stop();
      for (let slot = 2; slot <= 3; slot++) {
        // The next slot comes due. Three processes start at once and each one's start-up dispatch finds
        // it due (they run no jobs, so none of them polls and moves the watch on): one poll job.
        await sqlRows(d.db, "UPDATE feed_watches SET next_poll_at = ?", Date.now() - 1_000);
        const dispatchers = await Promise.all([0, 1, 2].map(() => d.start({ JOB_RUNNER: "false" })));
        expect(await pollJobs()).toBe(slot - 1);
        // Two runner processes start at once and compete for that job: one request to the feed.
        const runners = await Promise.all([d.start(), d.start()]);
        await settle(slot);
        expect(feeds.hits("/feed.xml")).toHaveLength(slot);
        expect(await pollJobs()).toBe(slot - 1);
        await Promise.all([...dispatchers, ...runners].map((p) => p.stop()));
      }
    } finally {
      void feeds.stop();
    }
  }, 120_000);
});

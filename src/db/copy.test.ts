// db:copy: a SQLite deployment built through the app's services, copied into fresh PostgreSQL schemas:
// counts and values, an interrupted copy resumed to the exact result, reruns, refusals, the CLI.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, type TestContext, userWithKey } from "../../test/helpers.ts";
import { createApp } from "../app.ts";
import { runCli } from "../cli.ts";
import { databaseUrl, testConfig } from "../config.ts";
import { upload } from "../features/imports/test-support.ts";
import { silentLogger } from "../log.ts";
import { createServices } from "../services.ts";
import { openDatabase, testSchemaName } from "./client.ts";
import { CopyRefused, copyToPostgres } from "./copy.ts";
import { dependencyOrder, planCopy } from "./copy-plan.ts";
import { openPostgres } from "./pg/client.ts";
import type { PgDb } from "./pg/port.ts";
import type { SqliteDb } from "./port.ts";

const url = databaseUrl();
const dir = mkdtempSync(join(tmpdir(), "commonplace-copy-"));
const path = join(dir, "commonplace.db");
const targets: PgDb[] = [];
let source: SqliteDb;

function target(schema = testSchemaName()): PgDb {
  const pg = openPostgres(url!, { schema, max: 3, idleTimeout: 2 });
  targets.push(pg);
  return pg;
}

/** A deployment with two users, keys, sources (one archived and tagged), notebooks, notes, a workflow, an import. */
async function buildSource(): Promise<void> {
  source = openDatabase(path);
  const config = testConfig({ DATA_DIR: dir });
  const services = createServices({ config, db: source, logger: silentLogger });
  const ctx = { config, db: source, services, app: createApp(services), queue: services.queue } as TestContext;
  for (const email of ["ada@example.com", "bob@example.com"]) {
    const u = await userWithKey(ctx, email);
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name: `Reading ${email}` } })).body;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const s = await call(ctx, "POST", "/api/v1/sources", {
        key: u.key,
        body: { url: `https://example.com/${email}/${i}`, notebook_ids: [nb.id] },
      });
      expect(s.status).toBe(201);
      ids.push(s.body.id);
    }
    const patched = await call(ctx, "PATCH", `/api/v1/sources/${ids[0]}`, {
      key: u.key,
      body: { archived: true, tags: ["ünïcode", "x"] },
    });
    expect(patched.status).toBe(200);
    await call(ctx, "POST", "/api/v1/notes", {
      key: u.key,
      body: { content: "# Thoughts\n\nÜber alles.", notebook_id: nb.id, source_ids: ids.slice(0, 2) },
    });
    const wf = await call(ctx, "POST", "/api/v1/workflows", {
      key: u.key,
      body: {
        name: "Ping",
        trigger: { type: "event", event: "source.created" },
        actions: [{ id: "h", type: "http_request", method: "POST", url: "https://example.com/hook" }],
      },
    });
    expect(wf.status).toBe(201);
  }
  const ada = source.sqlite.query<{ id: string }, []>("SELECT id FROM users WHERE email = 'ada@example.com'").get()!;
  const { key } = await services.keys.create(ada.id, "second");
  const up = await upload(
    ctx,
    key,
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://example.org/">x</A>\n</DL>',
    {
      format: "netscape",
    },
  );
  expect(up.status).toBe(202);
  // A pruned tail: AUTOINCREMENT never hands out these seqs again, neither may PostgreSQL.
  source.sqlite.exec("DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)");
}

const sourceCount = (table: string) =>
  source.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${table}"`).get()!.n;

afterAll(async () => {
  for (const t of targets) {
    await t.sql.unsafe(`DROP SCHEMA IF EXISTS "${t.schema}" CASCADE`).catch(() => {});
    await t.close();
  }
  source?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("dependencyOrder puts parents first, ties by name, and a cycle last", () => {
  const parents = new Map([
    ["notes", new Set(["users", "notebooks"])],
    ["notebooks", new Set(["users"])],
    ["a", new Set(["b"])],
    ["b", new Set(["a"])],
  ]);
  const order = dependencyOrder(["notes", "a", "users", "notebooks", "b", "zeta"], parents);
  expect(order.join(" ")).toBe("users zeta notebooks notes a b");
});

test("db:copy rejects a target that is not a postgres:// URL and a missing source, with exit 2", async () => {
  const lines: string[] = [];
  expect(await runCli(["db:copy", "--to", "mysql://x/y"], { DATA_DIR: dir }, (l) => lines.push(l))).toBe(2);
  expect(lines.join("\n")).toContain("--to must be a postgres:// URL");
  const missing = join(dir, "nope.db");
  expect(await runCli(["db:copy", "--to", "postgres://h/db", "--from", missing], {}, (l) => lines.push(l))).toBe(2);
  expect(lines.join("\n")).toContain(`no SQLite database at ${missing}`);
});

describe.skipIf(!url)("db:copy to PostgreSQL", () => {
  beforeAll(buildSource, 60_000);

  test("copies every shared table with the same counts and values; skips SQLite-only tables", async () => {
    const pg = target();
    const r = await copyToPostgres({ source: source.sqlite, target: pg });
    expect(r.ok).toBe(true);
    const count = (t: string) => r.counts.find((c) => c.table === t);
    for (const t of [
      "users",
      "api_keys",
      "sources",
      "notebooks",
      "notebook_sources",
      "notes",
      "events",
      "imports",
      "jobs",
    ])
      expect(count(t)).toEqual({ table: t, source: sourceCount(t), target: sourceCount(t) });
    expect(count("users")!.target).toBe(2);
    expect(count("sources")!.target).toBe(14);
    const skipped = new Map(r.skipped.map((s) => [s.table, s.reason]));
    expect(skipped.get("_migrations")).toContain("migration bookkeeping");
    expect(skipped.get("chunks_fts")).toContain("FTS5");
    expect(skipped.get("chunks_fts_data")).toContain("shadow table of the virtual table chunks_fts");
    expect(skipped.get("sqlite_sequence")).toContain("SQLite");
    // Parents before children: users → notebooks → notes.
    const order = r.plan.tables.map((t) => t.name);
    expect(order.indexOf("users")).toBeLessThan(order.indexOf("notebooks"));
    expect(order.indexOf("notebooks")).toBeLessThan(order.indexOf("notes"));

    const [archived] = await pg.sql`SELECT archived, tags, created_at, title_from_user FROM sources WHERE archived`;
    expect(archived).toEqual({
      archived: true,
      tags: '["ünïcode","x"]',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      title_from_user: false,
    });
    const src = source.sqlite
      .query<Record<string, unknown>, []>("SELECT * FROM sources WHERE archived = 1 ORDER BY id")
      .all();
    const [first] = await pg.sql`SELECT * FROM sources WHERE id = ${src[0]!.id as string}`;
    expect(first!.created_at).toBe(src[0]!.created_at);
    expect(first!.tags).toBe(src[0]!.tags);
    const file = source.sqlite.query<{ id: string; file: Uint8Array }, []>("SELECT id, file FROM imports").get()!;
    const [imp] = await pg.sql`SELECT file FROM imports WHERE id = ${file.id}`;
    expect(Buffer.from(imp!.file).equals(Buffer.from(file.file))).toBe(true);
    // Import files are kept gzip-compressed.
    expect(Buffer.from(Bun.gunzipSync(new Uint8Array(imp!.file))).toString()).toContain("example.org");

    const seqs = source.sqlite
      .query<{ seq: number }, []>("SELECT seq FROM events ORDER BY seq")
      .all()
      .map((e) => e.seq);
    const copied = (await pg.sql`SELECT seq FROM events ORDER BY seq`).map((e) => e.seq);
    expect(copied).toEqual(seqs);
    const high = source.sqlite
      .query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'events'")
      .get()!.seq;
    expect(high).toBeGreaterThan(seqs.at(-1)!);
    const [next] = await pg.sql`
      INSERT INTO events (id, user_id, type, occurred_at, data) VALUES ('evt_new', 'usr_x', 't', '2026-01-01', '{}') RETURNING seq`;
    expect(next!.seq).toBe(high + 1);
  }, 60_000);

  test("an interrupted copy resumes to the exact result; a second run changes nothing", async () => {
    const pg = target();
    const committed: number[] = [];
    let batches = 0;
    const interrupted = copyToPostgres({
      source: source.sqlite,
      target: pg,
      batchSize: 2,
      onBatch: (_t, rows) => {
        // The fifth batch dies before COMMIT, as a killed process would.
        if (++batches === 5) throw new Error("killed");
        committed.push(rows);
      },
    });
    await expect(interrupted).rejects.toThrow("killed");
    const plan = await planCopy(source.sqlite, pg.sql, pg.schema);
    let onTarget = 0;
    for (const t of plan.tables)
      onTarget += Number((await pg.sql.unsafe(`SELECT count(*) AS n FROM "${t.name}"`))[0]!.n);
    expect(onTarget).toBe(committed.reduce((a, b) => a + b, 0));
    expect(onTarget).toBeGreaterThan(0);

    const lines: string[] = [];
    const resumed = await copyToPostgres({
      source: source.sqlite,
      target: pg,
      batchSize: 2,
      log: (l) => lines.push(l),
    });
    expect(resumed.ok).toBe(true);
    expect(lines.some((l) => /resuming after \d+ rows/.test(l))).toBe(true);
    const total = resumed.counts.reduce((a, c) => a + c.source, 0);
    expect(resumed.copied + onTarget).toBe(total);
    const ids = (await pg.sql`SELECT id FROM sources ORDER BY id`).map((r) => r.id);
    expect(ids).toEqual(
      source.sqlite
        .query<{ id: string }, []>("SELECT id FROM sources ORDER BY id")
        .all()
        .map((r) => r.id),
    );

    const again = await copyToPostgres({ source: source.sqlite, target: pg });
    expect(again).toMatchObject({ ok: true, copied: 0 });
    const rescan = await copyToPostgres({ source: source.sqlite, target: pg, rescan: true });
    expect(rescan).toMatchObject({ ok: true, copied: 0 });
    expect(rescan.counts).toEqual(resumed.counts);
  }, 60_000);

  test("refuses a target holding rows of another origin unless forced", async () => {
    const pg = target();
    await pg.ready;
    await pg.sql`INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
                 VALUES ('usr_other', 'other@example.com', 'o', 'x', '2026-01-01', '2026-01-01')`;
    await expect(copyToPostgres({ source: source.sqlite, target: pg })).rejects.toThrow(CopyRefused);
    await expect(copyToPostgres({ source: source.sqlite, target: pg })).rejects.toThrow(
      /not copied from this database \(in users\)/,
    );
    const forced = await copyToPostgres({ source: source.sqlite, target: pg, force: true });
    expect(forced.ok).toBe(false);
    expect(forced.counts.find((c) => c.table === "users")).toEqual({ table: "users", source: 2, target: 3 });

    const other = openDatabase(join(dir, "other.db"));
    try {
      await expect(copyToPostgres({ source: other.sqlite, target: pg })).rejects.toThrow(/another SQLite database/);
    } finally {
      other.close();
    }
  }, 60_000);

  test("a second copy into the same schema at the same time is refused", async () => {
    const pg = target();
    await pg.ready;
    await pg.session(async (holder) => {
      await holder`SELECT pg_advisory_lock(hashtext(${`commonplace:db-copy:${pg.schema}`}))`;
      await expect(copyToPostgres({ source: source.sqlite, target: pg })).rejects.toThrow(/another db:copy/);
    });
  }, 60_000);

  test("the CLI never prints the password, prints the counts, exits 1 on a mismatch and 2 when refused", async () => {
    const schema = testSchemaName();
    // The test server trusts local connections, so a password in the URL is carried but never asked for.
    const withPassword = new URL(url!);
    withPassword.username ||= "commonplace";
    withPassword.password = "hunter2secret";
    const secretUrl = withPassword.toString();
    const out: string[] = [];
    const run = (...args: string[]) =>
      runCli(["db:copy", "--to", secretUrl, "--schema", schema, ...args], { DATA_DIR: dir }, (l) => out.push(l));
    expect(await run("--batch-size", "3")).toBe(0);
    const text = out.join("\n");
    expect(text).not.toContain("hunter2secret");
    expect(text).toContain("[redacted]");
    expect(text).toMatch(/^users\s+2\s+2\s+ok$/m);
    expect(text).toContain("skipped chunks_fts: FTS5");
    expect(text).toMatch(/done: \d+ tables match/);

    const pg = target(schema);
    await pg.sql`DELETE FROM notes WHERE id = (SELECT min(id) FROM notes)`;
    out.length = 0;
    expect(await run()).toBe(1);
    expect(out.join("\n")).toMatch(/^notes\s+2\s+1\s+MISMATCH$/m);
    out.length = 0;
    expect(await run("--rescan")).toBe(0);
    expect(out.join("\n")).toContain("notes: 1 rows copied");

    out.length = 0;
    const other = openDatabase(join(dir, "cli-other.db"));
    other.close();
    expect(await run("--from", join(dir, "cli-other.db"))).toBe(2);
    expect(out.join("\n")).toContain("refused: schema");
  }, 60_000);
});

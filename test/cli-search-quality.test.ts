// `bun run cli search-quality` as a self-hoster runs it: a subprocess over a data directory whose library
// was saved, fetched and indexed through the app; it prints the table and stores nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../src/app.ts";
import { testConfig } from "../src/config.ts";
import { sqlRow } from "../src/db/inspect.ts";
import type { EngineDb } from "../src/db/port.ts";
import { saveSource, startMarkdownSite, TEXTS } from "../src/features/search/library.fixture.ts";
import { silentLogger } from "../src/log.ts";
import { createServices } from "../src/services.ts";
import { userWithKey } from "./helpers.ts";
import { openChildDatabase, run, tempDir } from "./server-process.ts";

const site = startMarkdownSite();
const dir = tempDir("commonplace-cli-quality-");
const email = "reader@example.com";

function cli(...args: string[]) {
  return run([process.execPath, "run", "src/cli.ts", ...args], { DATA_DIR: dir.path, EMBEDDER: "hashed" });
}

beforeAll(async () => {
  const config = testConfig({ DATA_DIR: dir.path });
  const db: EngineDb = openChildDatabase(dir.path);
  const services = createServices({ config, db, logger: silentLogger });
  const ctx = { db, services, app: createApp(services) };
  const u = await userWithKey(ctx as never, email);
  const extra = `# Bird migration\n\nArctic terns fly from pole to pole every year, the longest migration of any animal on the planet.`;
  for (const [i, md] of [TEXTS.bread, TEXTS.tides, TEXTS.compost, TEXTS.orbits, extra].entries())
    await saveSource(ctx as never, u.key, site, `/cli-${i}`, md);
  await services.runner.drain({ timeoutMs: 60_000 });
  await services.extractor.close();
  await db.end();
}, 120_000);

afterAll(async () => {
  await site.stop();
  dir.remove();
});

describe("search-quality", () => {
  test("prints what was measured and one row per mode, with recall overall and per kind", async () => {
    const r = await cli("search-quality", "--email", email, "--seed", "5");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^Search quality of reader@example\.com's library: 5 of 5 ready sources \(seed 5\), 11 queries \(5 titles, 1 heading, 5 paraphrases\), \d+ ms$/,
    );
    expect(lines[1]).toBe("Embedding model: builtin-hash-v1; all sampled sources embedded");
    const head = lines[3]!.split(/\s+/);
    expect(head).toEqual([
      "mode",
      "recall@1",
      "recall@5",
      "title@1",
      "title@5",
      "heading@1",
      "heading@5",
      "paraphrase@1",
      "paraphrase@5",
      "failed",
    ]);
    const rows = lines.slice(4, 7).map((l) => l.split(/\s+/));
    expect(rows.map((x) => x[0])).toEqual(["text", "vector", "hybrid"]);
    // Every title is found first by text search.
    expect(rows[0]![3]).toBe("1.000");
    for (const row of rows) {
      expect(row).toHaveLength(10);
      for (const cell of row.slice(1, 9)) expect(cell).toMatch(/^(0|1)\.\d{3}$/);
      expect(row[9]).toBe("0");
    }
    // Nothing stored: the page's runs are the job's.
    const db = openChildDatabase(dir.path);
    try {
      expect((await sqlRow<{ n: number }>(db, "SELECT count(*) n FROM search_quality_runs"))!.n).toBe(0);
    } finally {
      await db.end();
    }
  }, 60_000);

  test("the same seed prints the same figures", async () => {
    const a = await cli("search-quality", "--email", email, "--seed", "9", "--sample", "5");
    const b = await cli("search-quality", "--email", email, "--seed", "9", "--sample", "5");
    const table = (s: string) => s.split("\n").slice(1).join("\n");
    expect(a.code).toBe(0);
    expect(table(a.stdout)).toBe(table(b.stdout));
  }, 60_000);

  test("bad options are usage errors (exit 2); an unknown user exits 1", async () => {
    const bad = await cli("search-quality", "--email", email, "--sample", "2");
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain("error: --sample must be a whole number from 5 to 200");
    expect(bad.stdout).toContain("search-quality --email E [--sample N] [--seed S]");
    const nobody = await cli("search-quality", "--email", "nobody@example.com");
    expect(nobody.code).toBe(1);
    expect(nobody.stdout).toContain("error:");
  }, 60_000);
});

// kill -9 in the middle of an episode: the next runner removes the partial file, reuses the script, finishes once.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userWithKey } from "../../../test/helpers.ts";
import { databaseUrl, loadConfig } from "../../config.ts";
import { openConfiguredDatabase, testSchemaName } from "../../db/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import type { Db } from "../../db/port.ts";
import { waitFor } from "../../jobs/testing.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { parseMp3Frames } from "./audio/mp3-parse.ts";

/** Long enough to be caught mid-way (the first segment is written after ~6 s of speech), short enough to be quick. */
const ARTICLE = `# Tide pools

Tide pools hold small animals when the sea goes out. Sea stars grip the rock with hundreds of tube feet. However, a hot afternoon can still dry out the smallest animals.

## Visiting

Visitors should step only on bare rock and check the tide table, because the sea comes back faster than most people expect.
`;
import { episodeFile, insertReadySource } from "./testing.ts";

const dir = mkdtempSync(join(tmpdir(), "commonplace-podcast-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// On PostgreSQL (DATABASE_URL set) both runners share one fresh schema, as two processes of one deployment would.
const url = databaseUrl();
const schema = testSchemaName();
const database = url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {};

function open(clockSkewMs = 0) {
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: "silent",
    JOB_LEASE_MS: "1000",
    EMBEDDER: "hashed",
    ...database,
  });
  const db = openConfiguredDatabase(config);
  // Seen from a clock a little ahead, the dead runner's lease has already run out.
  const services = createServices({ config, db, logger: silentLogger, clock: { now: () => Date.now() + clockSkewMs } });
  return { config, db, services, app: null as never, queue: services.queue, runner: services.runner };
}

/** Closes the database and waits for a PostgreSQL pool to end (its connections belong to this test). */
const closeDb = async (db: Db) => db.end();

test("a runner killed mid-episode: another finishes it cleanly, charged once", async () => {
  const first = open();
  const user = await userWithKey(first);
  const actor = { userId: user.userId, auth: { type: "system" as const, reason: "test" } };
  const src = await insertReadySource(first.services, user.userId, { markdown: ARTICLE });
  const id = (await first.services.podcasts.create(actor, { format: "deep_dive", source_ids: [src] })).id;
  const podcastsDir = join(dir, "podcasts");
  const status = async () =>
    (await sqlRow<{ status: string; transcript: string | null }>(
      first.db,
      "SELECT status, transcript FROM podcasts WHERE id = ?",
      id,
    ))!;
  const partial = () => (existsSync(podcastsDir) ? readdirSync(podcastsDir).filter((f) => f.endsWith(".part")) : []);

  const child = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures", "crash-runner.ts"), dir, schema], {
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    await waitFor(() => partial().some((f) => statSync(join(podcastsDir, f)).size > 0), "audio being written", 60_000);
  } finally {
    child.kill("SIGKILL");
    await child.exited;
  }
  const before = await status();
  expect(before.status).toBe("generating");
  expect(before.transcript).not.toBeNull();
  expect(existsSync(join(podcastsDir, `${id}.mp3`))).toBe(false);
  await closeDb(first.db);

  const second = open(5_000);
  try {
    await second.runner.drain({ timeoutMs: 170_000 });
    const p = await second.services.podcasts.get(actor, id);
    expect(p.status).toBe("ready");
    expect(JSON.stringify(p.transcript)).toBe(before.transcript!);
    expect(readdirSync(podcastsDir)).toEqual([`${id}.mp3`]);
    const info = parseMp3Frames(episodeFile(second.services, id));
    expect(Math.abs(info.durationSeconds - p.duration_seconds!) / p.duration_seconds!).toBeLessThan(0.05);
    expect(await sqlRows(second.db, "SELECT count(*) AS n FROM credit_ledger WHERE ref = ?", id)).toEqual([{ n: 1 }]);
  } finally {
    await second.services.podcasts.close();
    await closeDb(second.db);
  }
}, 240_000);

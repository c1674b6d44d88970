// A benchmark's service stack with one user, on SQLite in a temp dir or, with DATABASE_URL set to
// PostgreSQL, on a fresh schema there; `close` drops the schema and the temp dir.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseUrl, loadConfig } from "../../src/config.ts";
import { openConfiguredDatabase, testSchemaName } from "../../src/db/client.ts";
import { silentLogger } from "../../src/log.ts";
import { createServices } from "../../src/services.ts";

export async function benchOwner(name: string) {
  const pgUrl = databaseUrl();
  const dir = mkdtempSync(join(tmpdir(), `cp-bench-${name}-`));
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: "warn",
    EMBEDDER: "hashed",
    ...(pgUrl ? { DATABASE_URL: pgUrl, DATABASE_SCHEMA: testSchemaName() } : { DATABASE_URL: "" }),
  });
  const db = openConfiguredDatabase(config);
  await db.ready;
  const services = createServices({ config, db, logger: silentLogger });
  const user = await services.accounts.createUser(
    { email: "bench@example.com", password: "benchmark-password" },
    { bypassSignupPolicy: true },
  );
  async function close() {
    await services.podcasts.close();
    if (db.engine === "postgres") await db.pg.sql.unsafe(`DROP SCHEMA IF EXISTS "${db.pg.schema}" CASCADE`);
    await db.end();
    rmSync(dir, { recursive: true, force: true });
  }
  return { dir, db, services, user, close };
}

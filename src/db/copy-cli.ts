// `bun run cli db:copy`: checks its options, opens the SQLite source and the PostgreSQL target, runs the
// copy and prints what was skipped and the per-table counts. Never prints the target's password.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError, databaseSchema, databaseUrl } from "../config.ts";
import { redactSecrets } from "../redact.ts";
import { openDatabase } from "./client.ts";
import { CopyRefused, type CopyResult, copyToPostgres } from "./copy.ts";
import { openPostgres } from "./pg/client.ts";

export const COPY_USAGE = `  db:copy     --to postgres://… [--from path.db]      copy this deployment's SQLite database (DATA_DIR/commonplace.db
              [--schema S] [--batch-size N]         or --from) into PostgreSQL (schema S, default DATABASE_SCHEMA);
              [--force] [--rescan]                  resumable: run it again after an interruption (docs/postgres.md)
`;

export const COPY_SPEC = {
  required: ["to"],
  optional: ["from", "schema", "batch-size"],
  flags: ["force", "rescan"],
};

/** Exit codes: 0 copied and counts match, 1 a count differs or the copy failed, 2 bad options or refused. */
export async function runDbCopy(
  opts: Record<string, string>,
  config: Config,
  out: (line: string) => void,
): Promise<number> {
  const from = opts.from ?? join(config.dataDir, "commonplace.db");
  let url: string;
  let schema: string;
  try {
    url = databaseUrl({ DATABASE_URL: opts.to }) ?? "";
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    out("error: --to must be a postgres:// URL");
    return 2;
  }
  try {
    schema = databaseSchema(opts.schema ?? config.database.schema);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    out(`error: --schema ${e.message.replace(/^DATABASE_SCHEMA:?\s*/, "")}`);
    return 2;
  }
  const batchSize = Number(opts["batch-size"] ?? 1000);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) {
    out("error: --batch-size must be a whole number from 1 to 100000");
    return 2;
  }
  if (!existsSync(from)) {
    out(`error: no SQLite database at ${from} (set DATA_DIR or pass --from)`);
    return 2;
  }
  out(`copying ${from} to ${redactSecrets(url)} (schema ${schema})`);
  // Migrated like every CLI command does, so its columns are the ones the PostgreSQL twins mirror.
  const source = openDatabase(from, { readers: false });
  const target = openPostgres(url, { schema, max: 3 });
  try {
    const result = await copyToPostgres({
      source: source.sqlite,
      target,
      batchSize,
      force: opts.force === "true",
      rescan: opts.rescan === "true",
      log: (line) => out(line),
    });
    printReport(result, out);
    return result.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof CopyRefused) {
      out(`refused: ${redactSecrets(e.message)}`);
      return 2;
    }
    out(`error: ${redactSecrets(e instanceof Error ? e.message : String(e))}`);
    return 1;
  } finally {
    source.close();
    await target.close();
  }
}

export function printReport(r: CopyResult, out: (line: string) => void): void {
  const width = Math.max(5, ...r.counts.map((c) => c.table.length));
  out("");
  out(`${"table".padEnd(width)}  ${"source".padStart(9)}  ${"target".padStart(9)}`);
  for (const c of r.counts) {
    const mark = c.source === c.target ? "ok" : "MISMATCH";
    out(`${c.table.padEnd(width)}  ${String(c.source).padStart(9)}  ${String(c.target).padStart(9)}  ${mark}`);
  }
  const bad = r.counts.filter((c) => c.source !== c.target);
  out("");
  if (bad.length === 0) out(`done: ${r.counts.length} tables match (${r.copied} rows copied by this run)`);
  else
    out(
      `counts differ in ${bad.length} table(s): ${bad.map((c) => c.table).join(", ")}. ` +
        "Was the server writing during the copy? Stop it and run db:copy again (with --rescan if rows were added).",
    );
}

// db:copy: moves a SQLite deployment's rows into a migrated PostgreSQL schema, table by table in
// foreign-key order, in keyset batches that each commit together with their progress, so a second run
// continues where an interrupted one stopped; ends with a per-table row count on both sides.
import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import type postgres from "postgres";
import { type CopyPlan, ident, planCopy, PROGRESS_TABLE, type Skip, type TablePlan } from "./copy-plan.ts";
import type { PgDb } from "./pg/port.ts";

export type { Skip } from "./copy-plan.ts";

/** The copy will not start: another copy runs, or the target holds rows of another origin. */
export class CopyRefused extends Error {}

export interface CopyOptions {
  /** The SQLite database (migrated to the code's version). */
  source: Database;
  target: PgDb;
  /** Rows per batch (fewer for wide tables: a statement holds at most ~60,000 parameters). */
  batchSize?: number;
  /** Copy even though the target holds rows that were not copied from this source. */
  force?: boolean;
  /** Forget recorded progress and go over every source row again (copied rows are skipped). */
  rescan?: boolean;
  /** Runs inside each batch's transaction after its insert; a throw rolls that batch back. */
  onBatch?: (table: string, rows: number) => void | Promise<void>;
  log?: (line: string) => void;
}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface CopyResult {
  /** Identifies the source database in the target's progress table. */
  source: string;
  plan: CopyPlan;
  skipped: Skip[];
  /** Rows inserted by this run (rows already on the target are not counted). */
  copied: number;
  counts: TableCount[];
  ok: boolean;
}

const MAX_PARAMS = 60_000;
/** A batch also stops growing at this many bytes of values, so tables of large rows stay bounded. */
const MAX_BATCH_BYTES = 32 * 1024 * 1024;
const LOCK = "commonplace:db-copy:";

/** A stable name for the source: when its first migration ran (a backup or moved file keeps it). */
export function sourceFingerprint(src: Database): string {
  let first: { name: string; applied_at: string } | null = null;
  try {
    first = src
      .query<{ name: string; applied_at: string }, []>("SELECT name, applied_at FROM _migrations ORDER BY name LIMIT 1")
      .get();
  } catch {
    // no _migrations table: not a Commonplace database
  }
  if (!first) throw new CopyRefused("the source has no migrations recorded: is it a Commonplace database?");
  return createHash("sha256").update(`${first.name}@${first.applied_at}`).digest("hex").slice(0, 16);
}

/** A SQLite value as the PostgreSQL column's type wants it. */
function convert(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return typeof value === "string" ? value !== "0" && value !== "false" : Boolean(value);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (type === "bytea" && typeof value === "string") return Buffer.from(value, "utf8");
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && (type === "text" || type === "character varying")) return String(value);
  return value;
}

function sizeOf(row: Record<string, unknown>): number {
  let n = 0;
  for (const v of Object.values(row))
    n += v instanceof Uint8Array ? v.byteLength : typeof v === "string" ? v.length : 8;
  return n;
}

async function ensureProgressTable(sql: postgres.Sql, schema: string): Promise<string> {
  const table = `${ident(schema)}.${ident(PROGRESS_TABLE)}`;
  await sql.unsafe(`CREATE TABLE IF NOT EXISTS ${table} (
    table_name text PRIMARY KEY,
    source text NOT NULL,
    last_key text,
    rows_copied bigint NOT NULL DEFAULT 0,
    done boolean NOT NULL DEFAULT false,
    updated_at text NOT NULL
  )`);
  return table;
}

/** Refuses a target holding rows that this source did not put there, unless forced. */
async function checkOrigin(sql: postgres.Sql, schema: string, plan: CopyPlan, fp: string, force: boolean) {
  const progress = `${ident(schema)}.${ident(PROGRESS_TABLE)}`;
  const sources = (await sql.unsafe(`SELECT DISTINCT source FROM ${progress}`)).map((r) => r.source as string);
  const others = sources.filter((s) => s !== fp);
  if (others.length > 0 && !force)
    throw new CopyRefused(
      `schema "${schema}" holds a copy of another SQLite database (source ${others[0]}, this one is ${fp}); ` +
        "copy into an empty schema (--schema) or pass --force",
    );
  if (!sources.includes(fp)) {
    const filled: string[] = [];
    for (const t of plan.tables) {
      const [r] = await sql.unsafe(`SELECT EXISTS (SELECT 1 FROM ${ident(schema)}.${ident(t.name)}) AS filled`);
      if (r?.filled) filled.push(t.name);
    }
    if (filled.length > 0 && !force)
      throw new CopyRefused(
        `schema "${schema}" already holds rows that were not copied from this database (in ${filled.join(", ")}); ` +
          "copy into an empty schema (--schema) or pass --force to add this database's rows to them",
      );
  }
  if (force && others.length > 0) await sql.unsafe(`DELETE FROM ${progress} WHERE source <> $1`, [fp]);
}

interface Run {
  src: Database;
  sql: postgres.Sql;
  schema: string;
  fp: string;
  batchSize: number;
  onBatch?: CopyOptions["onBatch"];
  log: (line: string) => void;
}

async function copyTable(run: Run, t: TablePlan): Promise<number> {
  const { src, sql, schema } = run;
  const progress = `${ident(schema)}.${ident(PROGRESS_TABLE)}`;
  const [prog] = await sql.unsafe(`SELECT last_key, rows_copied, done FROM ${progress} WHERE table_name = $1`, [
    t.name,
  ]);
  if (prog?.done) return 0;
  let last: unknown[] | null = prog?.last_key ? (JSON.parse(prog.last_key as string) as unknown[]) : null;
  if (last) run.log(`${t.name}: resuming after ${prog!.rows_copied} rows`);

  const keyCols = t.key.map((k) => (k === "rowid" ? "rowid" : ident(k)));
  const select = [...keyCols.map((k, i) => `${k} AS "__k${i}"`), ...t.columns.map((c) => ident(c.name))].join(", ");
  const order = keyCols.join(", ");
  const perBatch = Math.max(1, Math.min(run.batchSize, Math.floor(MAX_PARAMS / Math.max(1, t.columns.length))));
  const from = `SELECT ${select} FROM ${ident(t.name)}`;
  const firstPage = src.query(`${from} ORDER BY ${order} LIMIT ?`);
  const nextPage = src.query(
    `${from} WHERE (${order}) > (${keyCols.map(() => "?").join(", ")}) ORDER BY ${order} LIMIT ?`,
  );
  const target = `${ident(schema)}.${ident(t.name)}`;
  const columns = t.columns.map((c) => ident(c.name)).join(", ");
  const overriding = t.columns.some((c) => c.identityAlways) ? " OVERRIDING SYSTEM VALUE" : "";
  const width = t.columns.length;
  let copied = 0;

  for (;;) {
    let inserted = 0;
    const rows: Record<string, unknown>[] = [];
    let bytes = 0;
    const page = last ? nextPage.iterate(...(last as never[]), perBatch) : firstPage.iterate(perBatch);
    for (const row of page as Iterable<Record<string, unknown>>) {
      rows.push(row);
      bytes += sizeOf(row);
      if (bytes >= MAX_BATCH_BYTES) break;
    }
    const now = new Date().toISOString();
    if (rows.length === 0) {
      await sql.unsafe(
        `INSERT INTO ${progress} (table_name, source, last_key, done, updated_at) VALUES ($1, $2, $3, true, $4)
         ON CONFLICT (table_name) DO UPDATE SET done = true, updated_at = excluded.updated_at`,
        [t.name, run.fp, last ? JSON.stringify(last) : null, now],
      );
      return copied;
    }
    const lastRow = rows.at(-1)!;
    const key = t.key.map((_, i) => lastRow[`__k${i}`]);
    await sql.begin(async (tx) => {
      if (width > 0) {
        const values = rows.map((_, r) => `(${t.columns.map((_, c) => `$${r * width + c + 1}`).join(", ")})`);
        const params = rows.flatMap((row) => t.columns.map((c) => convert(row[c.name], c.type)));
        const res = await tx.unsafe(
          `INSERT INTO ${target} (${columns})${overriding} VALUES ${values.join(", ")} ON CONFLICT DO NOTHING`,
          params as never[],
          { prepare: false },
        );
        inserted += res.count;
      }
      await tx.unsafe(
        `INSERT INTO ${progress} (table_name, source, last_key, rows_copied, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (table_name) DO UPDATE SET last_key = excluded.last_key,
           rows_copied = ${progress}.rows_copied + excluded.rows_copied, updated_at = excluded.updated_at`,
        [t.name, run.fp, JSON.stringify(key), rows.length, now],
      );
      await run.onBatch?.(t.name, rows.length);
    });
    last = key;
    copied += inserted;
  }
}

/** Moves identity and serial sequences past every copied value (and past SQLite's AUTOINCREMENT high mark). */
async function resetSequences(run: Run, t: TablePlan): Promise<void> {
  for (const c of t.columns) {
    if (!c.sequence) continue;
    let high = 0;
    const [row] = await run.sql.unsafe(`SELECT max(${ident(c.name)}) AS m FROM ${ident(run.schema)}.${ident(t.name)}`);
    high = Math.max(high, Number(row?.m ?? 0));
    if (t.key.length === 1 && t.key[0] === c.name) {
      try {
        const s = run.src
          .query<{ seq: number }, [string]>("SELECT seq FROM sqlite_sequence WHERE name = ?")
          .get(t.name);
        high = Math.max(high, Number(s?.seq ?? 0));
      } catch {
        // no AUTOINCREMENT table in the source: no high mark to keep
      }
    }
    if (high > 0)
      await run.sql`SELECT setval(${c.sequence}::regclass, ${high})
                    WHERE ${high} > coalesce(pg_sequence_last_value(${c.sequence}::regclass), 0)`;
  }
}

async function countRows(run: Run, plan: CopyPlan): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  for (const t of plan.tables) {
    const source = run.src.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${ident(t.name)}`).get()!.n;
    const [row] = await run.sql.unsafe(`SELECT count(*) AS n FROM ${ident(run.schema)}.${ident(t.name)}`);
    counts.push({ table: t.name, source, target: Number(row?.n ?? 0) });
  }
  return counts;
}

export async function copyToPostgres(opts: CopyOptions): Promise<CopyResult> {
  const { source: src, target } = opts;
  const log = opts.log ?? (() => {});
  const fp = sourceFingerprint(src);
  await target.ready;
  const sql = target.sql;
  // A session lock on a connection of its own: one copy per schema at a time; released if we die.
  return target.session(async (lockConn) => {
    const [got] = await lockConn`SELECT pg_try_advisory_lock(hashtext(${LOCK + target.schema})) AS ok`;
    if (!got?.ok) throw new CopyRefused(`another db:copy into schema "${target.schema}" is running`);
    try {
      await ensureProgressTable(sql, target.schema);
      const plan = await planCopy(src, sql, target.schema);
      for (const s of plan.skipped) log(`skipped ${s.table}: ${s.reason}`);
      await checkOrigin(sql, target.schema, plan, fp, opts.force ?? false);
      if (opts.rescan)
        await sql.unsafe(
          `UPDATE ${ident(target.schema)}.${ident(PROGRESS_TABLE)} SET done = false, last_key = NULL, rows_copied = 0`,
        );
      const run: Run = {
        src,
        sql,
        schema: target.schema,
        fp,
        batchSize: opts.batchSize ?? 1000,
        onBatch: opts.onBatch,
        log,
      };
      let copied = 0;
      for (const t of plan.tables) {
        if (t.dropped.length > 0) log(`${t.name}: not on the target, so not copied: column(s) ${t.dropped.join(", ")}`);
        const n = await copyTable(run, t);
        await resetSequences(run, t);
        copied += n;
        if (n > 0) log(`${t.name}: ${n} rows copied`);
      }
      const counts = await countRows(run, plan);
      return {
        source: fp,
        plan,
        skipped: plan.skipped,
        copied,
        counts,
        ok: counts.every((c) => c.source === c.target),
      };
    } finally {
      await lockConn`SELECT pg_advisory_unlock(hashtext(${LOCK + target.schema}))`;
    }
  });
}

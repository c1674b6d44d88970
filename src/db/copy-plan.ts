// db:copy's plan: which SQLite tables go to which PostgreSQL tables, with which columns, in foreign-key
// order, and which tables are left out and why. Reads both catalogs; decides nothing from table names
// it knows, so tables added by later migrations are copied as long as their columns match by name.
import type { Database } from "bun:sqlite";
import type postgres from "postgres";

export interface TargetColumn {
  name: string;
  /** information_schema data_type (udt name for user-defined types), drives the value conversion. */
  type: string;
  /** The sequence behind an identity or serial column, reset past the copied values at the end. */
  sequence: string | null;
  /** GENERATED ALWAYS AS IDENTITY: the insert needs OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
}

export interface TablePlan {
  name: string;
  /** Source columns of the keyset order: the primary key, or rowid for a table without one. */
  key: string[];
  columns: TargetColumn[];
  /** Source columns with no target column of the same name: their values are not copied. */
  dropped: string[];
}

export interface Skip {
  table: string;
  reason: string;
}

export interface CopyPlan {
  tables: TablePlan[];
  skipped: Skip[];
}

/** Tables of the copy tool itself and of each engine's migration runner, never copied nor reported. */
export const PROGRESS_TABLE = "_copy_progress";

export const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

interface SourceTable {
  name: string;
  sql: string;
}

const isVirtual = (t: SourceTable) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql);

/** Why a SQLite table has no place on PostgreSQL, or null when it is an ordinary table. */
function sqliteOnly(t: SourceTable, virtuals: SourceTable[]): string | null {
  if (t.name.startsWith("sqlite_")) return "SQLite's own bookkeeping";
  if (t.name === "_migrations") return "migration bookkeeping: each engine records its own";
  if (isVirtual(t)) {
    const module = /\bUSING\s+(\w+)/i.exec(t.sql)?.[1]?.toLowerCase() ?? "unknown";
    if (module === "fts5") return "FTS5 full-text index: PostgreSQL keeps its own search index";
    if (module === "vec0") return "sqlite-vec index: PostgreSQL keeps vectors its own way";
    return `virtual table (${module}): SQLite only`;
  }
  const owner = virtuals.find((v) => t.name.startsWith(`${v.name}_`));
  if (owner) return `shadow table of the virtual table ${owner.name}`;
  return null;
}

interface PgColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: string;
  column_default: string | null;
  is_identity: string;
  identity_generation: string | null;
  is_generated: string;
  sequence: string | null;
}

async function targetColumns(sql: postgres.Sql, schema: string): Promise<Map<string, PgColumnRow[]>> {
  const rows = await sql<PgColumnRow[]>`
    SELECT c.table_name, c.column_name, c.data_type, c.udt_name, c.is_nullable, c.column_default,
           c.is_identity, c.identity_generation, c.is_generated,
           pg_get_serial_sequence(format('%I.%I', c.table_schema, c.table_name), c.column_name) AS sequence
    FROM information_schema.columns c
    JOIN information_schema.tables t
      ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = ${schema}
    ORDER BY c.table_name, c.ordinal_position`;
  const byTable = new Map<string, PgColumnRow[]>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r]);
  return byTable;
}

/**
 * Foreign keys between tables of the schema, child → parents. From pg_constraint rather than
 * information_schema: constraint names are unique per table, not per schema, so joining the
 * information_schema views by name can pair the wrong tables.
 */
async function targetForeignKeys(sql: postgres.Sql, schema: string): Promise<Map<string, Set<string>>> {
  const rows = await sql<{ child: string; parent: string }[]>`
    SELECT cl.relname AS child, pl.relname AS parent
    FROM pg_constraint k
    JOIN pg_class cl ON cl.oid = k.conrelid
    JOIN pg_class pl ON pl.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = cl.relnamespace
    WHERE k.contype = 'f' AND n.nspname = ${schema}`;
  const parents = new Map<string, Set<string>>();
  for (const r of rows)
    if (r.child !== r.parent) parents.set(r.child, (parents.get(r.child) ?? new Set()).add(r.parent));
  return parents;
}

/** Parents before children (ties by name, so every run takes the same order); a cycle goes last. */
export function dependencyOrder(names: string[], parents: Map<string, Set<string>>): string[] {
  const pending = new Set([...names].sort());
  const order: string[] = [];
  for (;;) {
    const ready = [...pending].filter((n) => ![...(parents.get(n) ?? [])].some((p) => pending.has(p)));
    if (ready.length === 0) break;
    for (const n of ready) {
      order.push(n);
      pending.delete(n);
    }
  }
  return [...order, ...pending];
}

function sourceColumns(src: Database, table: string): { name: string; pk: number }[] {
  return src.query<{ name: string; pk: number }, [string]>("SELECT name, pk FROM pragma_table_info(?)").all(table);
}

export async function planCopy(src: Database, sql: postgres.Sql, schema: string): Promise<CopyPlan> {
  const all = src
    .query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((r) => ({ name: r.name, sql: r.sql ?? "" }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const virtuals = all.filter(isVirtual);
  const target = await targetColumns(sql, schema);
  const skipped: Skip[] = [];
  const planned = new Map<string, TablePlan>();

  for (const t of all) {
    const why = sqliteOnly(t, virtuals);
    if (why) {
      skipped.push({ table: t.name, reason: why });
      continue;
    }
    const tcols = target.get(t.name);
    if (!tcols) {
      skipped.push({ table: t.name, reason: `no table of this name in schema "${schema}"` });
      continue;
    }
    const scols = sourceColumns(src, t.name);
    const sourceNames = new Set(scols.map((c) => c.name));
    const required = tcols.filter(
      (c) =>
        !sourceNames.has(c.column_name) &&
        c.is_nullable === "NO" &&
        c.column_default === null &&
        c.is_identity === "NO" &&
        c.is_generated === "NEVER",
    );
    if (required.length > 0) {
      const names = required.map((c) => c.column_name).join(", ");
      skipped.push({ table: t.name, reason: `the target requires column(s) the source lacks: ${names}` });
      continue;
    }
    // Generated target columns compute their own value (an insert may not name them).
    const writable = new Map(tcols.filter((c) => c.is_generated === "NEVER").map((c) => [c.column_name, c]));
    const key = scols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    planned.set(t.name, {
      name: t.name,
      key: key.length > 0 ? key : ["rowid"],
      columns: scols
        .filter((c) => writable.has(c.name))
        .map((c) => {
          const pc = writable.get(c.name)!;
          return {
            name: c.name,
            type: pc.data_type === "USER-DEFINED" ? pc.udt_name : pc.data_type,
            sequence: pc.sequence,
            identityAlways: pc.identity_generation === "ALWAYS",
          };
        }),
      dropped: scols.filter((c) => !writable.has(c.name)).map((c) => c.name),
    });
  }
  const sourceNames = new Set(all.map((t) => t.name));
  for (const name of [...target.keys()].sort()) {
    if (!sourceNames.has(name) && name !== "_migrations" && name !== PROGRESS_TABLE)
      skipped.push({ table: name, reason: "only on the target: nothing to copy" });
  }
  const order = dependencyOrder([...planned.keys()], await targetForeignKeys(sql, schema));
  return { tables: order.map((n) => planned.get(n)!), skipped };
}

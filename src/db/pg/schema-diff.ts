// The one schema description is the drizzle tables of src/db/schema; PostgreSQL gets its tables from
// its own migrations (db/migrations/pg). This compares the two: each table as drizzle describes it (with
// the keys the SQLite migrations really create) against the PostgreSQL catalog after the migrations,
// and lists every difference, so a change made on one side only fails a test.
import type { Database } from "bun:sqlite";
import { getTableName } from "drizzle-orm";
import { getTableConfig as sqliteConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";

/** The PostgreSQL types that faithfully hold each SQLite column kind: the same JS value comes back. */
const compatible: Record<string, string[]> = {
  SQLiteText: ["text"],
  SQLiteTextJson: ["text"],
  SQLiteInteger: ["integer", "bigint"],
  SQLiteBoolean: ["boolean"],
  SQLiteReal: ["double precision"],
  SQLiteBlobBuffer: ["bytea"],
};

/**
 * Keys that cannot be spelled the same way on both engines, each SQLite signature with the PostgreSQL
 * one standing in for it. users.email is UNIQUE COLLATE NOCASE in SQLite; PostgreSQL gets the same
 * case-insensitive uniqueness from a unique index on lower(email).
 */
const equivalentKeys: Record<string, Record<string, string>> = {
  users: { "unique(email)": "unique index users_email_lower(lower(email))" },
};

export interface CatalogColumn {
  name: string;
  /** information_schema's data_type: `text`, `bigint`, `double precision`, … */
  type: string;
  notNull: boolean;
  /** The column default as the catalog prints it (`'[]'::text`, `0`, `false`), or null. */
  default: string | null;
}

/** One table as PostgreSQL has it, in the notation {@link diffTable} compares. */
export interface CatalogTable {
  name: string;
  columns: CatalogColumn[];
  primaryKey: string[];
  /** Unique constraints and indexes: `unique(a,b)`, `index name(a,b)`, `unique index name(lower(x)) partial`. */
  keys: string[];
  /** `user_id -> users(id) cascade`. */
  foreignKeys: string[];
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * The indexed columns or expressions of an index definition, from the first parenthesis after
 * `marker`: `(user_id, lower(email))` → `user_id,lower(email)`. Expressions are lower-cased, so
 * PostgreSQL's `COALESCE(a, b)` and SQLite's `coalesce(a, b)` read the same.
 */
function indexedParts(def: string, marker = " USING "): string {
  const start = def.indexOf("(", def.toUpperCase().indexOf(marker));
  let depth = 0;
  let end = def.length;
  for (let i = start; i < def.length; i++) {
    if (def[i] === "(") depth++;
    else if (def[i] === ")" && --depth === 0) {
      end = i;
      break;
    }
  }
  return def
    .slice(start + 1, end)
    .replace(/\s+/g, " ")
    .replace(/,\s*/g, ",")
    .replace(/\w+\(/g, (fn) => fn.toLowerCase());
}

/** Every table of `schema` after the migrations: columns, primary key, keys and foreign keys. */
export async function readCatalog(query: Query, schema = "public"): Promise<Map<string, CatalogTable>> {
  const tables = new Map<string, CatalogTable>();
  const table = (name: string) => {
    let t = tables.get(name);
    if (!t) tables.set(name, (t = { name, columns: [], primaryKey: [], keys: [], foreignKeys: [] }));
    return t;
  };
  const s = schema.replaceAll("'", "''");
  for (const r of await query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = '${s}' ORDER BY table_name, ordinal_position`,
  ))
    table(String(r.table_name)).columns.push({
      name: String(r.column_name),
      type: String(r.data_type),
      notNull: r.is_nullable === "NO",
      default: r.column_default === null ? null : String(r.column_default),
    });
  for (const r of await query(
    `SELECT c.relname AS table, i.relname AS name, ix.indisunique AS uniq, ix.indisprimary AS pk,
            pg_get_indexdef(ix.indexrelid) AS def, ix.indpred IS NOT NULL AS partial,
            EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = ix.indexrelid AND k.conrelid = ix.indrelid
                      AND k.contype = 'u') AS constraint
       FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class c ON c.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = '${s}' AND c.relkind = 'r'`,
  )) {
    const t = table(String(r.table));
    const parts = indexedParts(String(r.def));
    if (r.pk) t.primaryKey = parts.split(",").sort();
    else if (r.constraint) t.keys.push(`unique(${parts})`);
    else t.keys.push(`${r.uniq ? "unique index" : "index"} ${r.name}(${parts})${r.partial ? " partial" : ""}`);
  }
  for (const r of await query(
    `SELECT c.relname AS table, pg_get_constraintdef(k.oid) AS def FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = '${s}' AND k.contype = 'f'`,
  )) {
    const m = /FOREIGN KEY \(([^)]*)\) REFERENCES (?:\w+\.)?(\w+)\(([^)]*)\)(?: ON DELETE (\w+(?: \w+)?))?/.exec(
      String(r.def),
    );
    if (m)
      table(String(r.table)).foreignKeys.push(
        `${m[1]!.replace(/,\s+/g, ",")} -> ${m[2]}(${m[3]!.replace(/,\s+/g, ",")}) ${(m[4] ?? "no action").toLowerCase()}`,
      );
  }
  for (const t of tables.values()) {
    t.keys.sort();
    t.foreignKeys.sort();
  }
  return tables;
}

/** The keys (unique constraints and indexes) of a table as SQLite really has them after the migrations. */
export function sqliteKeys(sqlite: Database, table: string): string[] {
  type IndexRow = { name: string; unique: number; origin: string; partial: number };
  const rows = sqlite.query<IndexRow, []>(`PRAGMA index_list("${table}")`).all();
  const keys: string[] = [];
  for (const row of rows) {
    if (row.origin === "pk") continue;
    const names = sqlite
      .query<{ name: string | null }, []>(`PRAGMA index_info("${row.name}")`)
      .all()
      .map((c) => c.name);
    // An index on an expression has no column name for it: read its definition instead.
    const cols = names.includes(null)
      ? indexedParts(
          sqlite.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(row.name)!.sql,
          " ON ",
        )
      : names.join(",");
    if (row.origin === "u") keys.push(`unique(${cols})`);
    else keys.push(`${row.unique ? "unique index" : "index"} ${row.name}(${cols})${row.partial ? " partial" : ""}`);
  }
  return keys.sort();
}

/** A catalog default as the JS value drizzle would give: `'[]'::text` → "[]", `false` → false, `0` → 0. */
function catalogDefault(text: string | null): unknown {
  if (text === null) return undefined;
  const quoted = /^'((?:[^']|'')*)'(?:::[\w ]+)?$/.exec(text);
  if (quoted) return quoted[1]!.replaceAll("''", "'");
  if (text === "true" || text === "false") return text === "true";
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Every difference between a table as drizzle describes it (and SQLite migrated it) and PostgreSQL's. */
export function diffTable(sqliteTable: SQLiteTable, pg: CatalogTable | undefined, sqlite?: Database): string[] {
  const s = sqliteConfig(sqliteTable);
  const where = s.name;
  if (!pg) return [`${where}: no such table in PostgreSQL`];
  const problems: string[] = [];

  const sNames = s.columns.map((c) => c.name);
  const pNames = pg.columns.map((c) => c.name);
  if (sNames.join(",") !== pNames.join(","))
    problems.push(`${where}: columns differ\n  sqlite: ${sNames.join(", ")}\n  pg:     ${pNames.join(", ")}`);

  for (const sc of s.columns) {
    const pc = pg.columns.find((c) => c.name === sc.name);
    if (!pc) continue;
    const at = `${where}.${sc.name}`;
    // A primary key column is NOT NULL in PostgreSQL whatever drizzle says.
    if ((sc.notNull || sc.primary) !== pc.notNull)
      problems.push(`${at}: NOT NULL ${sc.notNull} in sqlite, ${pc.notNull} in pg`);
    if (!compatible[sc.columnType]?.includes(pc.type))
      problems.push(`${at}: ${sc.columnType} has no faithful twin ${pc.type}`);
    // Epoch milliseconds overflow int4 (2^31 ms is 25 days): such integers must be bigint.
    if (sc.columnType === "SQLiteInteger" && /_(at|until)$/.test(sc.name) && pc.type !== "bigint")
      problems.push(`${at}: an epoch-ms integer needs bigint in pg, not ${pc.type}`);
    const pDefault = catalogDefault(pc.default);
    if (JSON.stringify(sc.default) !== JSON.stringify(pDefault))
      problems.push(`${at}: default ${JSON.stringify(sc.default)} in sqlite, ${JSON.stringify(pDefault)} in pg`);
  }

  const sPk = [
    ...s.columns.filter((c) => c.primary).map((c) => c.name),
    ...s.primaryKeys.flatMap((k) => k.columns.map((c) => c.name)),
  ]
    .sort()
    .join(",");
  if (sPk !== pg.primaryKey.join(","))
    problems.push(`${where}: primary key (${sPk}) in sqlite, (${pg.primaryKey.join(",")}) in pg`);

  const sFks = s.foreignKeys
    .map((f) => {
      const ref = f.reference();
      return `${ref.columns.map((c) => c.name).join(",")} -> ${getTableName(ref.foreignTable)}(${ref.foreignColumns.map((c) => c.name).join(",")}) ${f.onDelete ?? "no action"}`;
    })
    .sort();
  if (sFks.join(";") !== pg.foreignKeys.join(";"))
    problems.push(
      `${where}: foreign keys differ\n  sqlite: ${sFks.join("; ")}\n  pg:     ${pg.foreignKeys.join("; ")}`,
    );

  if (sqlite) {
    const swap = equivalentKeys[s.name] ?? {};
    const sKeys = sqliteKeys(sqlite, s.name)
      .map((k) => swap[k] ?? k)
      .sort();
    if (sKeys.join(";") !== pg.keys.join(";"))
      problems.push(`${where}: keys differ\n  sqlite: ${sKeys.join("; ")}\n  pg:     ${pg.keys.join("; ")}`);
  }
  return problems;
}

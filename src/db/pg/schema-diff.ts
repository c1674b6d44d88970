// Compares a SQLite drizzle table with its PostgreSQL twin and lists every difference (the twin check).
import type { Database } from "bun:sqlite";
import { getTableName, isSQLWrapper, type SQL } from "drizzle-orm";
import { getTableConfig as pgConfig, PgDialect, type PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * The PostgreSQL column kinds that faithfully hold each SQLite column kind: the same JS value comes
 * back (numbers stay numbers, booleans stay booleans, JSON is parsed, blobs are Buffers).
 */
const compatible: Record<string, string[]> = {
  SQLiteText: ["PgText text"],
  SQLiteTextJson: ["PgCustomColumn text"],
  SQLiteInteger: ["PgInteger integer", "PgBigInt53 bigint"],
  SQLiteBoolean: ["PgBoolean boolean"],
  SQLiteReal: ["PgDoublePrecision double precision"],
  SQLiteBlobBuffer: ["PgCustomColumn bytea"],
};

/**
 * Keys that cannot be spelled the same way on both engines, each SQLite signature with the PostgreSQL
 * one standing in for it. users.email is UNIQUE COLLATE NOCASE in SQLite; PostgreSQL gets the same
 * case-insensitive uniqueness from a unique index on lower(email).
 */
const equivalentKeys: Record<string, Record<string, string>> = {
  users: { "unique(email)": "unique index users_email_lower(lower(email))" },
};

const dialect = new PgDialect();

/** A PostgreSQL index part as text, without quotes or the table prefix: `lower(email)`, `import_id IS NOT NULL`. */
function sqlText(table: string, part: SQL): string {
  return dialect.sqlToQuery(part).sql.replaceAll(`"${table}".`, "").replaceAll('"', "");
}

/** The keys (unique constraints and indexes) of a table as SQLite really has them after the migrations. */
export function sqliteKeys(sqlite: Database, table: string): string[] {
  type IndexRow = { name: string; unique: number; origin: string; partial: number };
  const rows = sqlite.query<IndexRow, []>(`PRAGMA index_list("${table}")`).all();
  const keys: string[] = [];
  for (const row of rows) {
    if (row.origin === "pk") continue;
    const cols = sqlite
      .query<{ name: string }, []>(`PRAGMA index_info("${row.name}")`)
      .all()
      .map((c) => c.name)
      .join(",");
    if (row.origin === "u") keys.push(`unique(${cols})`);
    else keys.push(`${row.unique ? "unique index" : "index"} ${row.name}(${cols})${row.partial ? " partial" : ""}`);
  }
  return keys.sort();
}

/** The keys of a PostgreSQL twin in the same notation as {@link sqliteKeys}. */
export function pgKeys(table: PgTable): string[] {
  const config = pgConfig(table);
  const keys: string[] = [];
  for (const col of config.columns) if (col.isUnique) keys.push(`unique(${col.name})`);
  for (const u of config.uniqueConstraints) keys.push(`unique(${u.columns.map((c) => c.name).join(",")})`);
  for (const { config: ix } of config.indexes) {
    const cols = ix.columns
      .map((c) => (isSQLWrapper(c) ? sqlText(config.name, c as SQL) : (c as { name: string }).name))
      .join(",");
    keys.push(`${ix.unique ? "unique index" : "index"} ${ix.name}(${cols})${ix.where ? " partial" : ""}`);
  }
  return keys.sort();
}

/** Every difference between a SQLite table (its drizzle definition and its migrated keys) and its twin. */
export function diffTables(sqliteTable: SQLiteTable, pgTable: PgTable, sqlite?: Database): string[] {
  const s = sqliteConfig(sqliteTable);
  const p = pgConfig(pgTable);
  const problems: string[] = [];
  const where = s.name;
  if (s.name !== p.name) problems.push(`${where}: the twin is named ${p.name}`);

  const sNames = s.columns.map((c) => c.name);
  const pNames = p.columns.map((c) => c.name);
  if (sNames.join(",") !== pNames.join(","))
    problems.push(`${where}: columns differ\n  sqlite: ${sNames.join(", ")}\n  pg:     ${pNames.join(", ")}`);

  for (const sc of s.columns) {
    const pc = p.columns.find((c) => c.name === sc.name);
    if (!pc) continue;
    const at = `${where}.${sc.name}`;
    if (sc.notNull !== pc.notNull) problems.push(`${at}: NOT NULL ${sc.notNull} in sqlite, ${pc.notNull} in pg`);
    const kind = `${pc.columnType} ${pc.getSQLType()}`;
    if (!compatible[sc.columnType]?.includes(kind))
      problems.push(`${at}: ${sc.columnType} has no faithful twin ${kind}`);
    // Epoch milliseconds overflow int4 (2^31 ms is 25 days): such integers must be bigint.
    if (sc.columnType === "SQLiteInteger" && /_(at|until)$/.test(sc.name) && pc.columnType !== "PgBigInt53")
      problems.push(`${at}: an epoch-ms integer needs bigint in pg, not ${pc.getSQLType()}`);
    if (JSON.stringify(sc.enumValues ?? null) !== JSON.stringify(pc.enumValues ?? null))
      problems.push(`${at}: enum values differ`);
    if (JSON.stringify(sc.default) !== JSON.stringify(pc.default))
      problems.push(`${at}: default ${JSON.stringify(sc.default)} in sqlite, ${JSON.stringify(pc.default)} in pg`);
  }

  const pk = (cols: { name: string; primary: boolean }[], composite: { columns: { name: string }[] }[]) =>
    [...cols.filter((c) => c.primary).map((c) => c.name), ...composite.flatMap((k) => k.columns.map((c) => c.name))]
      .sort()
      .join(",");
  const sPk = pk(s.columns, s.primaryKeys);
  const pPk = pk(p.columns, p.primaryKeys);
  if (sPk !== pPk) problems.push(`${where}: primary key (${sPk}) in sqlite, (${pPk}) in pg`);

  const fk = (ref: { columns: { name: string }[]; foreignColumns: { name: string }[]; foreignTable: never }) =>
    `${ref.columns.map((c) => c.name).join(",")} -> ${getTableName(ref.foreignTable)}(${ref.foreignColumns.map((c) => c.name).join(",")})`;
  const sFks = s.foreignKeys.map((f) => `${fk(f.reference() as never)} ${f.onDelete ?? "no action"}`).sort();
  const pFks = p.foreignKeys.map((f) => `${fk(f.reference() as never)} ${f.onDelete ?? "no action"}`).sort();
  if (sFks.join(";") !== pFks.join(";"))
    problems.push(`${where}: foreign keys differ\n  sqlite: ${sFks.join("; ")}\n  pg:     ${pFks.join("; ")}`);

  if (sqlite) {
    const swap = equivalentKeys[s.name] ?? {};
    const sKeys = sqliteKeys(sqlite, s.name)
      .map((k) => swap[k] ?? k)
      .sort();
    const pKeys = pgKeys(pgTable);
    if (sKeys.join(";") !== pKeys.join(";"))
      problems.push(`${where}: keys differ\n  sqlite: ${sKeys.join("; ")}\n  pg:     ${pKeys.join("; ")}`);
  }
  return problems;
}

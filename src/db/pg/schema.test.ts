// The PostgreSQL twins match the SQLite tables column for column, key for key, and the pg migrations match the twins.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { isTable } from "drizzle-orm";
import {
  getTableConfig as pgConfig,
  integer as pgInteger,
  pgTable,
  type PgTable,
  text as pgText,
} from "drizzle-orm/pg-core";
import { integer, type SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pgMigrations } from "../../../db/migrations/pg/index.ts";
import { migrate } from "../migrate.ts";
import * as sqliteSchema from "../schema/index.ts";
import { diffTables, pgKeys } from "./schema-diff.ts";
import * as pgSchema from "./schema/index.ts";

const tablesOf = <T>(mod: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(mod).filter(([, v]) => isTable(v))) as Record<string, T>;
const sqliteTables = tablesOf<SQLiteTable>(sqliteSchema);
const pgTables = tablesOf<PgTable>(pgSchema);
/**
 * The DDL of the twins: 0001_init.sql and later migrations, but not those of tables reached only with raw
 * SQL (no drizzle twin): the queue, shared state, feed coordination, search.
 */
const RAW_SQL_ONLY = new Set(["0002_jobs", "0003_shared_state", "0005_feeds", "0006_search", "0007_search_stats"]);
const initSql = pgMigrations
  .filter((m) => !RAW_SQL_ONLY.has(m.name))
  .map((m) => m.sql)
  .join("\n");

function migrated(): Database {
  const db = new Database(":memory:");
  migrate(db);
  return db;
}

describe("PostgreSQL twins", () => {
  test("every SQLite table has a twin under the same export name, and no twin is extra", () => {
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    expect(Object.keys(sqliteTables).length).toBe(26);
  });

  test("each twin has the same columns in order, nullability, compatible types, defaults, keys and references", () => {
    const db = migrated();
    const problems = Object.entries(sqliteTables).flatMap(([name, table]) => diffTables(table, pgTables[name]!, db));
    db.close();
    expect(problems).toEqual([]);
  });

  test("a column added to one side only is reported", () => {
    const s = sqliteTable("widgets", { id: text("id").primaryKey(), name: text("name").notNull() });
    const p = pgTable("widgets", {
      id: pgText("id").primaryKey(),
      name: pgText("name").notNull(),
      colour: pgText("colour"),
    });
    expect(diffTables(s, p).join("\n")).toContain("columns differ");
  });

  test("nullability, type, epoch-ms width and primary key drift are each reported", () => {
    const s = sqliteTable("widgets", {
      id: text("id").primaryKey(),
      name: text("name").notNull(),
      size: integer("size"),
      seenAt: integer("seen_at").notNull(),
    });
    const p = pgTable("widgets", {
      id: pgText("id"),
      name: pgText("name"),
      size: pgText("size"),
      seenAt: pgInteger("seen_at").notNull(),
    });
    const problems = diffTables(s, p).join("\n");
    expect(problems).toContain("widgets.name: NOT NULL true in sqlite, false in pg");
    expect(problems).toContain("widgets.size: SQLiteInteger has no faithful twin PgText text");
    expect(problems).toContain("widgets.seen_at: an epoch-ms integer needs bigint");
    expect(problems).toContain("primary key (id) in sqlite, () in pg");
  });

  test("an index present in the SQLite migrations but missing from the twin is reported", () => {
    const db = migrated();
    db.exec("CREATE INDEX notes_title ON notes(title)");
    const problems = diffTables(sqliteSchema.notes, pgSchema.notes, db).join("\n");
    db.close();
    expect(problems).toContain("keys differ");
    expect(problems).toContain("index notes_title(title)");
  });

  test("case-insensitive email uniqueness is an index on lower(email)", () => {
    expect(pgKeys(pgSchema.users)).toEqual(["unique index users_email_lower(lower(email))"]);
  });
});

/** Each CREATE TABLE of the DDL with its column lines (name and type), in order. */
function ddlTables(ddl: string): Map<string, string[]> {
  const withoutComments = ddl.replace(/--[^\n]*/g, "");
  const tables = new Map<string, string[]>();
  for (const m of withoutComments.matchAll(/CREATE TABLE (\w+) \(([\s\S]*?)\n\);/g)) {
    const lines = m[2]!
      .split("\n")
      .map((l) => l.trim().replace(/,$/, ""))
      .filter((l) => l !== "" && !/^(PRIMARY KEY|UNIQUE|CONSTRAINT|FOREIGN KEY)\b/.test(l));
    tables.set(m[1]!, lines);
  }
  return tables;
}

describe("db/migrations/pg (0001_init.sql and later)", () => {
  const tables = ddlTables(initSql);

  test("creates exactly the twin tables", () => {
    const twins = Object.values(pgTables).map((t) => pgConfig(t).name);
    expect([...tables.keys()].sort()).toEqual(twins.sort());
  });

  test("declares each twin's columns in order with the twin's SQL type and nullability", () => {
    const problems: string[] = [];
    for (const table of Object.values(pgTables)) {
      const config = pgConfig(table);
      const lines = tables.get(config.name) ?? [];
      config.columns.forEach((col, i) => {
        const line = lines[i] ?? "(missing)";
        const typed = line.startsWith(`${col.name} ${col.getSQLType()}`);
        const notNull = /\bNOT NULL\b|\bPRIMARY KEY\b/.test(line);
        if (!typed || notNull !== col.notNull) problems.push(`${config.name}.${col.name}: ${line}`);
      });
      if (lines.length !== config.columns.length) problems.push(`${config.name}: ${lines.length} column lines`);
    }
    expect(problems).toEqual([]);
  });

  test("creates each table after the tables it references", () => {
    const order = [...tables.keys()];
    const late = [...tables].flatMap(([name, lines]) =>
      lines
        .flatMap((l) => [...l.matchAll(/REFERENCES (\w+)\(/g)].map((m) => m[1]!))
        .filter((target) => order.indexOf(target) < 0 || order.indexOf(target) > order.indexOf(name))
        .map((target) => `${name} -> ${target}`),
    );
    expect(late).toEqual([]);
  });

  test("creates every index of the twins by name", () => {
    const created = new Set(
      [...initSql.matchAll(/CREATE (?:UNIQUE )?INDEX (\w+) ON (\w+)/g)].map((m) => `${m[2]}.${m[1]}`),
    );
    const wanted = Object.values(pgTables).flatMap((t) => {
      const config = pgConfig(t);
      return config.indexes.map((ix) => `${config.name}.${ix.config.name}`);
    });
    expect(wanted.filter((w) => !created.has(w))).toEqual([]);
    expect(created.size).toBe(wanted.length);
  });
});

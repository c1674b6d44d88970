// One schema description: the drizzle tables of src/db/schema. The PostgreSQL migrations, applied to a
// real PostgreSQL (PGlite, in process), must give every one of those tables column for column, key for
// key; any change made to one engine only fails here.
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { isTable } from "drizzle-orm";
import { integer, type SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pgMigrations } from "../../../db/migrations/pg/index.ts";
import { migrate } from "../migrate.ts";
import * as sqliteSchema from "../schema/index.ts";
import { type CatalogTable, diffTable, readCatalog } from "./schema-diff.ts";

const tables = Object.values(sqliteSchema).filter((v) => isTable(v)) as SQLiteTable[];
const nameOf = (t: SQLiteTable) => (t as unknown as Record<symbol, string>)[Symbol.for("drizzle:Name")]!;

/** Tables reached only through raw SQL on each engine (the queue, shared state, feed coordination, search). */
const RAW_SQL_TABLES = [
  "chunk_codes",
  "chunk_stats",
  "chunk_vectors",
  "chunks",
  "embedding_models",
  "feed_host_slots",
  "feed_polls",
  "form_guards",
  "jobs",
  "oauth_pending",
  "rate_limits",
];

let catalog: Map<string, CatalogTable>;
beforeAll(async () => {
  const pg = await PGlite.create();
  for (const m of pgMigrations) await pg.exec(m.sql);
  catalog = await readCatalog(async (q) => (await pg.query<Record<string, unknown>>(q)).rows);
  await pg.close();
}, 120_000);

function migrated(): Database {
  const db = new Database(":memory:");
  migrate(db);
  return db;
}
const copy = (t: CatalogTable): CatalogTable => structuredClone(t);

describe("PostgreSQL migrations against the schema", () => {
  test("create every table of the schema, and besides them only the raw-SQL tables", () => {
    expect(tables.length).toBe(30);
    const pgOnly = [...catalog.keys()].filter((name) => !tables.some((t) => nameOf(t) === name)).sort();
    expect(pgOnly).toEqual(RAW_SQL_TABLES);
  });

  test("give each table the same columns in order, nullability, compatible types, defaults, keys and references", () => {
    const db = migrated();
    const problems = tables.flatMap((t) => diffTable(t, catalog.get(nameOf(t)), db));
    db.close();
    expect(problems).toEqual([]);
  });

  test("a column added to one side only is reported", () => {
    const pg = copy(catalog.get("notes")!);
    pg.columns.push({ name: "colour", type: "text", notNull: false, default: null });
    expect(diffTable(sqliteSchema.notes, pg).join("\n")).toContain("notes: columns differ");
  });

  test("nullability, type, epoch-ms width, default and primary key drift are each reported", () => {
    const s = sqliteTable("widgets", {
      id: text("id").primaryKey(),
      name: text("name").notNull(),
      size: integer("size").notNull().default(0),
      seenAt: integer("seen_at").notNull(),
    });
    const pg: CatalogTable = {
      name: "widgets",
      columns: [
        { name: "id", type: "text", notNull: true, default: null },
        { name: "name", type: "text", notNull: false, default: null },
        { name: "size", type: "text", notNull: true, default: "1" },
        { name: "seen_at", type: "integer", notNull: true, default: null },
      ],
      primaryKey: ["name"],
      keys: [],
      foreignKeys: [],
    };
    const problems = diffTable(s, pg).join("\n");
    expect(problems).toContain("widgets.name: NOT NULL true in sqlite, false in pg");
    expect(problems).toContain("widgets.size: SQLiteInteger has no faithful twin text");
    expect(problems).toContain("widgets.size: default 0 in sqlite, 1 in pg");
    expect(problems).toContain("widgets.seen_at: an epoch-ms integer needs bigint in pg, not integer");
    expect(problems).toContain("widgets: primary key (id) in sqlite, (name) in pg");
  });

  test("an index or a foreign key rule on one side only is reported", () => {
    const db = migrated();
    db.exec("CREATE INDEX notes_title ON notes(title)");
    expect(diffTable(sqliteSchema.notes, catalog.get("notes"), db).join("\n")).toContain("index notes_title(title)");
    db.close();
    const pg = copy(catalog.get("notes")!);
    pg.foreignKeys = pg.foreignKeys.map((k) => k.replace(/cascade$/, "no action"));
    expect(diffTable(sqliteSchema.notes, pg).join("\n")).toContain("notes: foreign keys differ");
  });

  test("case-insensitive email uniqueness is an index on lower(email)", () => {
    expect(catalog.get("users")!.keys).toEqual(["unique index users_email_lower(lower(email))"]);
  });
});

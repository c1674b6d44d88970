// The PostgreSQL port against a real server (runs when DATABASE_URL names one): migrations once under
// concurrent starts, SERIALIZABLE retry (READ COMMITTED on request), savepoints, after-commit callbacks
// and NOTIFY at commit.
import { afterAll, describe, expect, test } from "bun:test";
import { pgMigrations } from "../../../db/migrations/pg/index.ts";
import { databaseUrl } from "../../config.ts";
import { testSchemaName } from "../client.ts";
import { isRetryable, openPostgres } from "./client.ts";
import type { PgDb } from "./port.ts";

const url = databaseUrl();
const opened: PgDb[] = [];
const open = (schema = testSchemaName(), max = 4) => {
  const db = openPostgres(url!, { schema, max, idleTimeout: 2 });
  opened.push(db);
  return db;
};
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

test("a serialisation failure or deadlock is retryable, also wrapped by drizzle (its DrizzleQueryError's cause)", () => {
  expect(isRetryable({ code: "40001" })).toBe(true);
  expect(isRetryable(Object.assign(new Error("Failed query: insert …"), { cause: { code: "40P01" } }))).toBe(true);
  expect(isRetryable(Object.assign(new Error("Failed query: insert …"), { cause: { code: "23505" } }))).toBe(false);
  expect(isRetryable(new Error("no code"))).toBe(false);
  expect(isRetryable(null)).toBe(false);
});

describe.skipIf(!url)("PostgreSQL port", () => {
  test("four processes' worth of pools starting together apply each migration once", async () => {
    const schema = testSchemaName();
    const dbs = [open(schema), open(schema), open(schema), open(schema)];
    await Promise.all(dbs.map((d) => d.ready));
    const rows = await dbs[0]!.query((c) => c.sql<{ name: string }[]>`SELECT name FROM _migrations ORDER BY name`);
    expect(rows.map((r) => r.name)).toEqual(pgMigrations.map((m) => m.name));
    const tables = await dbs[0]!.query(
      (c) => c.sql<{ n: number }[]>`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = ${schema}`,
    );
    expect(tables[0]!.n).toBeGreaterThan(25);
  });

  test("concurrent read-modify-write transactions are serialised by retry: no lost update", async () => {
    const db = open(undefined, 8);
    await db.exec((c) => c.sql`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`);
    await db.exec((c) => c.sql`INSERT INTO counter VALUES (1, 0)`);
    await Promise.all(
      Array.from({ length: 12 }, () =>
        db.tx(async () => {
          const [row] = await db.query((c) => c.sql<{ n: number }[]>`SELECT n FROM counter WHERE id = 1`);
          await db.exec((c) => c.sql`UPDATE counter SET n = ${row!.n + 1} WHERE id = 1`);
        }),
      ),
    );
    const [row] = await db.query((c) => c.sql<{ n: number }[]>`SELECT n FROM counter WHERE id = 1`);
    expect(row!.n).toBe(12);
  });

  test("transactions are SERIALIZABLE unless asked for READ COMMITTED; a nested one keeps its outer level", async () => {
    const db = open();
    const level = () =>
      db.query(async (c) => (await c.sql<{ l: string }[]>`SELECT current_setting('transaction_isolation') AS l`)[0]!.l);
    expect(await db.tx(level)).toBe("serializable");
    expect(await db.tx(level, { isolation: "read committed" })).toBe("read committed");
    expect(await db.tx(() => db.tx(level, { isolation: "read committed" }))).toBe("serializable");
  });

  test("a nested transaction that throws rolls back alone, taking its after-commit callbacks", async () => {
    const db = open();
    await db.exec((c) => c.sql`CREATE TABLE t (v text)`);
    const ran: string[] = [];
    await db.tx(async () => {
      await db.exec((c) => c.sql`INSERT INTO t VALUES ('outer')`);
      db.afterCommit(() => ran.push("outer"));
      await expect(
        db.tx(async () => {
          await db.exec((c) => c.sql`INSERT INTO t VALUES ('inner')`);
          db.afterCommit(() => ran.push("inner"));
          throw new Error("no");
        }),
      ).rejects.toThrow("no");
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(["outer"]);
    const rows = await db.query((c) => c.sql<{ v: string }[]>`SELECT v FROM t`);
    expect(rows.map((r) => r.v)).toEqual(["outer"]);
  });

  test("a rolled-back transaction runs no callbacks and leaves no rows", async () => {
    const db = open();
    await db.exec((c) => c.sql`CREATE TABLE t (v text)`);
    let ran = false;
    await expect(
      db.tx(async () => {
        await db.exec((c) => c.sql`INSERT INTO t VALUES ('x')`);
        db.afterCommit(() => {
          ran = true;
        });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(ran).toBe(false);
    expect(await db.query((c) => c.sql`SELECT * FROM t`)).toHaveLength(0);
  });

  test("a NOTIFY sent inside a transaction reaches another pool only after COMMIT", async () => {
    const schema = testSchemaName();
    const a = open(schema);
    const b = open(schema);
    const got: string[] = [];
    const heard = Promise.withResolvers<void>();
    await b.listen(`${schema}_wake`, (p) => {
      got.push(p);
      heard.resolve();
    });
    const inTx = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const t = a.tx(async () => {
      await a.notify(`${schema}_wake`, "hello");
      inTx.resolve();
      await release.promise;
    });
    await inTx.promise;
    // The transaction is open: a round trip on b proves the notification has not been delivered.
    await b.query((c) => c.sql`SELECT 1`);
    expect(got).toEqual([]);
    release.resolve();
    await t;
    await heard.promise;
    expect(got).toEqual(["hello"]);
  });

  test("bigint columns and count(*) come back as numbers", async () => {
    const db = open();
    const [r] = await db.query(
      (c) => c.sql<{ n: number; big: number }[]>`SELECT count(*) AS n, 1700000000000::bigint AS big`,
    );
    expect(r).toEqual({ n: 1, big: 1_700_000_000_000 });
  });
});

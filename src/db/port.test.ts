import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type SqliteDb } from "./client.ts";

const count = (db: SqliteDb) =>
  db.query(({ sqlite }) => sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM t").get()!.n);
const insert = (db: SqliteDb, x: number) => db.exec(({ sqlite }) => sqlite.run("INSERT INTO t VALUES (?)", [x]));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function fileDb(): SqliteDb {
  const dir = mkdtempSync(join(tmpdir(), "cp-port-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "db.sqlite"));
  db.sqlite.exec("CREATE TABLE t (x INTEGER)");
  return db;
}

describe("Db port on SQLite", () => {
  test("afterCommit runs after commit, never after a rollback, and a rolled-back savepoint drops its own", async () => {
    const db = openDatabase(":memory:"); // the SQLite port itself, on either lane (pg/port.test.ts covers PostgreSQL)
    db.sqlite.exec("CREATE TABLE t (x INTEGER)");
    const seen: number[] = [];
    await db.tx(async () => {
      await insert(db, 1);
      db.afterCommit(() => seen.push(1));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([1]);
    await expect(
      db.tx(async () => {
        await insert(db, 2);
        db.afterCommit(() => seen.push(99));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await db.tx(async () => {
      await db
        .tx(async () => {
          await insert(db, 3);
          db.afterCommit(() => seen.push(98));
          throw new Error("inner");
        })
        .catch(() => undefined);
      db.afterCommit(() => seen.push(2));
    });
    expect(seen).toEqual([1, 2]);
    expect(await count(db)).toBe(1);
    db.close();
  });

  test("a transaction owns the writer across awaits: other writes wait, then see its rows", async () => {
    const db = fileDb();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const inside = new Promise<void>((r) => (wrote = r));
    const order: string[] = [];
    const t = db.tx(async () => {
      await insert(db, 1);
      order.push("tx wrote");
      wrote();
      await gate;
      await insert(db, 2);
      order.push("tx done");
    });
    await inside;
    // A write outside the transaction must not join it: it waits for the commit.
    const outside = insert(db, 3).then(() => order.push("outside wrote"));
    // A read outside the transaction sees only committed rows (the reader connection).
    expect(await count(db)).toBe(0);
    release();
    await Promise.all([t, outside]);
    expect(order).toEqual(["tx wrote", "tx done", "outside wrote"]);
    expect(await count(db)).toBe(3);
    db.close();
  });

  test("a rolled-back transaction leaves nothing and frees the writer", async () => {
    const db = fileDb();
    await expect(
      db.tx(async () => {
        await insert(db, 1);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    await insert(db, 2);
    expect(await count(db)).toBe(1);
    db.close();
  });

  test("work that escapes a transaction does not run inside it later", async () => {
    const db = fileDb();
    let escaped!: Promise<unknown>;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await db.tx(async () => {
      await insert(db, 1);
      // Started inside, finishes after commit: it must run as its own write, not on a closed transaction.
      escaped = gate.then(() => insert(db, 2));
    });
    let holding!: () => void;
    let holds!: () => void;
    const held = new Promise<void>((r) => (holds = r));
    const other = db.tx(async () => {
      await insert(db, 3);
      holds();
      await new Promise<void>((r) => (holding = r));
    });
    await held;
    release();
    // The escaped write now waits for the writer, which "other" holds; it must not join "other".
    await gate;
    holding();
    await Promise.all([other, escaped]);
    expect(await count(db)).toBe(3);
    db.close();
  });

  test("nested transactions that overlap are refused with a clear error, and the outer one rolls back", async () => {
    const db = openDatabase(":memory:"); // the SQLite port itself, on either lane (pg/port.test.ts covers PostgreSQL)
    db.sqlite.exec("CREATE TABLE t (x INTEGER)");
    let releaseSecond!: () => void;
    const second = new Promise<void>((r) => (releaseSecond = r));
    const outer = db.tx(async () => {
      // The first savepoint ends while the second, opened after it, is still open: not nesting.
      const first = db.tx(async () => {
        await insert(db, 1);
      });
      const later = db.tx(async () => {
        await insert(db, 2);
        await second;
      });
      const settled = await Promise.allSettled([first.finally(releaseSecond), later]);
      for (const r of settled) if (r.status === "rejected") throw r.reason;
    });
    await expect(outer).rejects.toThrow("nested transactions overlapped");
    expect(await count(db)).toBe(0);
    db.close();
  });
});

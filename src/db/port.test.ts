import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "./client.ts";

describe("Db port", () => {
  test("afterCommit inside tx runs after commit, not on rollback", async () => {
    const db = openTestDatabase();
    db.sqlite.exec("CREATE TABLE t (x INTEGER)");
    const seen: number[] = [];
    db.tx(() => {
      db.exec(({ sqlite }) => sqlite.run("INSERT INTO t VALUES (1)"));
      db.afterCommit(() => seen.push(db.query(({ sqlite }) => sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM t").get()!.n)));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([1]);
    expect(() =>
      db.tx(() => {
        db.afterCommit(() => seen.push(99));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    db.tx(() => {
      try {
        db.tx(() => {
          db.afterCommit(() => seen.push(98));
          throw new Error("inner");
        });
      } catch {
        // the savepoint rolled back; the outer transaction goes on
      }
      db.afterCommit(() => seen.push(2));
    });
    expect(seen).toEqual([1, 2]);
    const later = new Promise<void>((resolve) => db.afterCommit(resolve));
    await later;
    db.close();
  });
});

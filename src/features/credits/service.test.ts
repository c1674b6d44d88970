// Credits: periods anchored on the sign-up day, 402 without charge, and atomic spending across connections.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { testConfig } from "../../config.ts";
import { openDatabase, openTestDatabase, type EngineDb } from "../../db/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { AppError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { periodFor } from "./service.ts";

async function insertUser(db: EngineDb, createdAt: string, planId = "free"): Promise<string> {
  const id = newId("user");
  await sqlRows(
    db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, ?, 'x', ?, ?, ?)",
    id,
    `${id.toLowerCase()}@example.com`,
    "n",
    planId,
    createdAt,
    createdAt,
  );
  return id;
}

async function ledgerCount(db: EngineDb, userId: string): Promise<number> {
  return (await sqlRow<{ n: number }>(db, "SELECT count(*) AS n FROM credit_ledger WHERE user_id = ?", userId))!.n;
}

function services(db: EngineDb, credits: number, now: { t: number }) {
  const config = testConfig({ DEFAULT_MONTHLY_CREDITS: String(credits) });
  return createServices({ config, db, logger: silentLogger, clock: { now: () => now.t } });
}

const at = (iso: string) => Date.parse(iso);

describe("periodFor", () => {
  const cases: [string, string, string, string][] = [
    // anchor, now, expected start, expected end
    ["2024-01-15T09:30:00.000Z", "2024-01-15T09:30:00.000Z", "2024-01-15T09:30:00.000Z", "2024-02-15T09:30:00.000Z"],
    ["2024-01-15T09:30:00.000Z", "2024-03-10T00:00:00.000Z", "2024-02-15T09:30:00.000Z", "2024-03-15T09:30:00.000Z"],
    ["2024-01-15T09:30:00.000Z", "2024-03-15T09:29:59.999Z", "2024-02-15T09:30:00.000Z", "2024-03-15T09:30:00.000Z"],
    ["2024-01-31T12:00:00.000Z", "2024-02-10T00:00:00.000Z", "2024-01-31T12:00:00.000Z", "2024-02-29T12:00:00.000Z"],
    ["2024-01-31T12:00:00.000Z", "2024-03-01T00:00:00.000Z", "2024-02-29T12:00:00.000Z", "2024-03-31T12:00:00.000Z"],
    ["2023-01-31T12:00:00.000Z", "2023-02-28T12:00:00.000Z", "2023-02-28T12:00:00.000Z", "2023-03-31T12:00:00.000Z"],
    ["2023-01-31T12:00:00.000Z", "2023-04-30T13:00:00.000Z", "2023-04-30T12:00:00.000Z", "2023-05-31T12:00:00.000Z"],
    ["2023-12-31T23:00:00.000Z", "2024-01-05T00:00:00.000Z", "2023-12-31T23:00:00.000Z", "2024-01-31T23:00:00.000Z"],
  ];
  for (const [anchor, now, start, end] of cases) {
    test(`signed up ${anchor}, now ${now}`, () => {
      const p = periodFor(anchor, at(now));
      expect([p.start.toISOString(), p.end.toISOString()]).toEqual([start, end]);
    });
  }
});

describe("credits service", () => {
  test("the allowance renews when the period rolls over, anchored on sign-up (Jan 31 → Feb 29)", async () => {
    const now = { t: at("2024-01-31T12:00:00.000Z") };
    const s = services(openTestDatabase(), 10, now);
    const user = await insertUser(s.db, "2024-01-31T12:00:00.000Z");
    await s.credits.spend(user, 7, "ask");
    now.t = at("2024-02-29T11:59:59.000Z");
    expect(await s.credits.balance(user)).toMatchObject({
      used: 7,
      remaining: 3,
      period_end: "2024-02-29T12:00:00.000Z",
    });
    now.t = at("2024-02-29T12:00:00.000Z");
    const b = await s.credits.balance(user);
    expect(b).toMatchObject({ allowance: 10, used: 0, remaining: 10 });
    expect([b.period_start, b.period_end]).toEqual(["2024-02-29T12:00:00.000Z", "2024-03-31T12:00:00.000Z"]);
  });

  test("spend returns the new balance and records one ledger row", async () => {
    const now = { t: at("2024-05-01T00:00:00.000Z") };
    const s = services(openTestDatabase(), 10, now);
    const user = await insertUser(s.db, "2024-04-20T00:00:00.000Z");
    expect(await s.credits.spend(user, 4, "ask", "ref_1")).toMatchObject({ allowance: 10, used: 4, remaining: 6 });
    expect(await s.credits.balance(user)).toMatchObject({ used: 4, remaining: 6 });
    expect(await ledgerCount(s.db, user)).toBe(1);
  });

  test("spending more than remains is refused with 402 insufficient_credit and charges nothing", async () => {
    const now = { t: at("2024-05-01T00:00:00.000Z") };
    const s = services(openTestDatabase(), 5, now);
    const user = await insertUser(s.db, "2024-04-20T00:00:00.000Z");
    await s.credits.spend(user, 3, "ask");
    let err: unknown;
    try {
      await s.credits.spend(user, 3, "ask");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("insufficient_credit");
    expect((err as AppError).status).toBe(402);
    expect((err as AppError).detail).toContain("2 remain");
    expect(await s.credits.balance(user)).toMatchObject({ used: 3, remaining: 2 });
    expect(await ledgerCount(s.db, user)).toBe(1);
    await expect(s.credits.ensure(user, 3)).rejects.toThrow(AppError);
    await s.credits.ensure(user, 2);
  });

  test("a user's plan sets the allowance", async () => {
    const now = { t: at("2024-05-01T00:00:00.000Z") };
    const config = testConfig({ PLANS: '[{"id":"pro","name":"Pro","monthly_credits":1000}]' });
    const s = createServices({ config, db: openTestDatabase(), logger: silentLogger, clock: { now: () => now.t } });
    const user = await insertUser(s.db, "2024-04-20T00:00:00.000Z", "pro");
    expect(await s.credits.balance(user)).toMatchObject({ plan: { id: "pro" }, allowance: 1000, remaining: 1000 });
  });
});

describe("two connections to one database file", () => {
  const dir = mkdtempSync(join(tmpdir(), "commonplace-credits-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Two connections on two threads (as two processes would be): in one thread, a connection waiting
  // for the file's write lock would block the thread that holds it.
  test("the last credit goes to exactly one of two spenders", async () => {
    const file = join(dir, "two-handles.db");
    const setup = openDatabase(file);
    const user = await insertUser(setup, new Date().toISOString());
    setup.close();
    const workers = await Promise.all([raceWorker(file, [user]), raceWorker(file, [user])]);
    const outcomes = (await Promise.all(workers.map((w) => w.go()))).map((r) => r[0]!);
    expect(outcomes.sort()).toEqual(["insufficient_credit", "won"]);
    const check = openDatabase(file);
    expect(await ledgerCount(check, user)).toBe(1);
    check.close();
  }, 60_000);

  test("two threads racing over many users: each user's last credit is spent exactly once", async () => {
    const file = join(dir, "race.db");
    const setup = openDatabase(file);
    const users = await Promise.all(Array.from({ length: 150 }, () => insertUser(setup, new Date().toISOString())));
    setup.close();
    // Both threads are open and waiting before either starts, so their spends really overlap.
    const workers = await Promise.all([raceWorker(file, users), raceWorker(file, users)]);
    const results = await Promise.all(workers.map((w) => w.go()));
    const check = openDatabase(file);
    for (const [i, user] of users.entries()) {
      const wins = results.filter((r) => r[i] === "won").length;
      expect({ user, wins, outcomes: results.map((r) => r[i]) }).toEqual({
        user,
        wins: 1,
        outcomes: expect.arrayContaining(["won", "insufficient_credit"]),
      });
      expect(await ledgerCount(check, user)).toBe(1);
    }
    check.close();
  }, 60_000);
});

/** A Worker thread with its own connection that spends 1 credit for each user, in order, on "go". */
async function raceWorker(file: string, users: string[]) {
  const src = resolve(import.meta.dir, "../..");
  const code = `
    import { loadConfig } from ${JSON.stringify(join(src, "config.ts"))};
    import { openDatabase } from ${JSON.stringify(join(src, "db/client.ts"))};
    import { AppError } from ${JSON.stringify(join(src, "errors.ts"))};
    import { silentLogger } from ${JSON.stringify(join(src, "log.ts"))};
    import { createServices } from ${JSON.stringify(join(src, "services.ts"))};
    let s, db;
    self.onmessage = async ({ data }) => {
      if (data.type === "open") {
        db = openDatabase(data.file);
        s = createServices({ config: loadConfig(data.env), db, logger: silentLogger });
        postMessage("ready");
        return;
      }
      const out = [];
      for (const u of data.users) {
        try { await s.credits.spend(u, 1, "ask"); out.push("won"); }
        catch (e) { out.push(e instanceof AppError ? e.code : String(e)); }
      }
      db.close();
      postMessage(out);
    };`;
  const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "application/typescript" })));
  const next = () =>
    new Promise<unknown>((done, fail) => {
      worker.onmessage = (e: MessageEvent) => done(e.data);
      worker.onerror = (e) => fail(new Error(e.message));
    });
  const ready = next();
  worker.postMessage({
    type: "open",
    file,
    env: { DATA_DIR: dirname(file), LOG_LEVEL: "silent", DEFAULT_MONTHLY_CREDITS: "1" },
  });
  await ready;
  return {
    /** Starts spending; resolves with one outcome per user. */
    go: async () => {
      const result = next();
      worker.postMessage({ type: "go", users });
      const out = (await result) as string[];
      worker.terminate();
      return out;
    },
  };
}

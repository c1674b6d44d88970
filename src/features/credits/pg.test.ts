// Credits on PostgreSQL (runs when DATABASE_URL names a server): many spends at once, through one pool and
// through two (two processes on one database), never spend more than the allowance.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl, testConfig } from "../../config.ts";
import { testSchemaName, type EngineDb } from "../../db/client.ts";
import { pgAsDb } from "../../db/pg/as-db.ts";
import { openPostgres } from "../../db/pg/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { AppError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { createAccountsRepo } from "../accounts/repo.ts";
import { createCreditsRepo } from "./repo.ts";
import { createCreditsService } from "./service.ts";

const url = databaseUrl();
const opened: EngineDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.end()));
});

function open(schema: string): EngineDb {
  const db = pgAsDb(openPostgres(url!, { schema, max: 10, idleTimeout: 2 }));
  opened.push(db);
  return db;
}

function credits(db: EngineDb, allowance: number) {
  const config = testConfig({ DEFAULT_MONTHLY_CREDITS: String(allowance) });
  return createCreditsService({
    repo: createCreditsRepo(db),
    accounts: createAccountsRepo(db),
    db,
    clock: { now: () => Date.now() },
    config,
  });
}

async function newUser(db: EngineDb): Promise<string> {
  const id = newId("user");
  const at = new Date().toISOString();
  await sqlRows(
    db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'n', 'x', 'free', ?, ?)",
    id,
    `${id.toLowerCase()}@example.com`,
    at,
    at,
  );
  return id;
}

/** Spends 1 credit `n` times at once; the outcome of each ("won" or the error code). */
async function race(services: ReturnType<typeof credits>[], user: string, n: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      services[i % services.length]!.spend(user, 1, "ask").then(
        () => "won",
        (e: unknown) => (e instanceof AppError ? e.code : String(e)),
      ),
    ),
  );
}

describe.skipIf(!url)("credits on PostgreSQL", () => {
  test("50 concurrent spends of 1 against an allowance of 20: exactly 20 win, the rest get 402", async () => {
    const db = open(testSchemaName());
    const user = await newUser(db);
    const outcomes = await race([credits(db, 20)], user, 50);
    expect(outcomes.filter((o) => o === "won")).toHaveLength(20);
    expect(outcomes.filter((o) => o === "insufficient_credit")).toHaveLength(30);
    expect(
      await sqlRow(db, "SELECT count(*) AS n, sum(amount) AS s FROM credit_ledger WHERE user_id = ?", user),
    ).toEqual({ n: 20, s: 20 });
  }, 60_000);

  test("50 concurrent spends through two pools on one schema (two processes) never overdraw", async () => {
    const schema = testSchemaName();
    const a = open(schema);
    const b = open(schema);
    await Promise.all([a.ready, b.ready]);
    const user = await newUser(a);
    const outcomes = await race([credits(a, 25), credits(b, 25)], user, 50);
    expect(outcomes.filter((o) => o === "won")).toHaveLength(25);
    expect(outcomes.filter((o) => o === "insufficient_credit")).toHaveLength(25);
    expect((await sqlRow<{ n: number }>(b, "SELECT count(*) AS n FROM credit_ledger WHERE user_id = ?", user))!.n).toBe(
      25,
    );
  }, 60_000);
});

// Caches across processes on PostgreSQL: two full service stacks over one schema (two processes' worth),
// a revocation on one refused by the other once its NOTIFY arrives, a dropped LISTEN flushing the cache.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl, testConfig } from "../../config.ts";
import { newId } from "../../ids.ts";
import { silentLogger } from "../../log.ts";
import { createServices, type Services } from "../../services.ts";
import type { CacheChange } from "../change-watch.ts";
import { testSchemaName } from "../client.ts";
import { sqlRow, sqlRows } from "../inspect.ts";
import type { EngineDb } from "../port.ts";
import { pgAsDb } from "./as-db.ts";
import { cacheChannel, createPgChangeWatch } from "./change-watch.ts";
import { openPostgres } from "./client.ts";
import type { PgDb } from "./port.ts";

const url = databaseUrl();
const opened: PgDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

function open(schema: string): PgDb {
  const pg = openPostgres(url!, { schema, max: 4, idleTimeout: 2 });
  opened.push(pg);
  return pg;
}

/** Two processes' worth of the service over one schema: each its own pool, caches and LISTEN. */
async function twoProcesses(): Promise<{ a: Services; b: Services; db: EngineDb; schema: string }> {
  const schema = testSchemaName();
  const config = testConfig({ PLANS: '[{"id":"pro","name":"Pro","monthly_credits":1000}]' });
  const [a, b] = [open(schema), open(schema)].map((pg) =>
    createServices({ config, db: pgAsDb(pg), logger: silentLogger }),
  ) as [Services, Services];
  await Promise.all([a.changes.listening, b.changes.listening]);
  return { a, b, db: a.db, schema };
}

async function userWithKey(s: Services): Promise<{ key: string; keyId: string; userId: string }> {
  const id = newId("user");
  const at = new Date().toISOString();
  await sqlRows(
    s.db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'u', 'x', 'free', ?, ?)",
    id,
    `${id}@example.com`,
    at,
    at,
  );
  const { key, row } = await s.keys.create(id, "k");
  return { key, keyId: row.id, userId: id };
}

const outcome = (s: Services, key: string) =>
  s.keys.authenticate(key).then(
    () => "accepted",
    () => "refused",
  );

/** Resolves with the first change on `s` that `match` accepts. */
function next(s: Services, match: (c: CacheChange) => boolean): Promise<number> {
  return new Promise((resolve) => s.changes.onChange((c) => match(c) && resolve(performance.now())));
}

describe.skipIf(!url)("caches across processes (PostgreSQL)", () => {
  test("a key revoked in one process is refused by the other when the NOTIFY arrives, within 100 ms", async () => {
    const { a, b, db } = await twoProcesses();
    const { key, keyId } = await userWithKey(a);
    expect(await outcome(b, key)).toBe("accepted");
    // B answers from its cache: a revocation written behind its back (no NOTIFY) is not seen...
    await sqlRows(db, "UPDATE api_keys SET revoked_at = ? WHERE id = ?", new Date().toISOString(), keyId);
    expect(await outcome(b, key)).toBe("accepted");
    await sqlRows(db, "UPDATE api_keys SET revoked_at = NULL WHERE id = ?", keyId);

    // ...so a refusal after a revocation through the service is the notification's doing.
    const heard = next(b, (c) => c?.topic === "key" && c.id === keyId);
    await a.keys.revoke(null, keyId);
    const revokedAt = performance.now();
    const heardAt = await heard;
    // Delivered at COMMIT, usually before revoke has even returned.
    expect(Math.max(0, heardAt - revokedAt)).toBeLessThan(100);
    expect(await outcome(b, key)).toBe("refused");
    expect(await outcome(a, key)).toBe("refused");
  }, 30_000);

  test("a dropped LISTEN connection flushes the cache when it is re-established", async () => {
    const { a, b, db, schema } = await twoProcesses();
    const { key, keyId } = await userWithKey(a);
    expect(await outcome(b, key)).toBe("accepted");
    // A revocation whose NOTIFY is lost (as one sent while B's LISTEN connection is down would be).
    await sqlRows(db, "UPDATE api_keys SET revoked_at = ? WHERE id = ?", new Date().toISOString(), keyId);
    expect(await outcome(b, key)).toBe("accepted");

    const flushed = next(b, (c) => c === null);
    const killed = await sqlRow<{ n: number }>(
      db,
      "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = ?",
      `commonplace-listen-${process.pid}`,
    );
    expect(killed?.n).toBe(1);
    await flushed;
    expect(await outcome(b, key)).toBe("refused");
    // And it listens again: the next announcement still arrives.
    const heard = next(b, (c) => c?.topic === "user" && c.id === "user_x");
    await a.changes.announce("user", "user_x");
    await heard;
    expect(cacheChannel(schema)).toBe(`cache_${schema}`);
  }, 30_000);

  test("a plan set in one process is what the other's user cache answers once the NOTIFY arrives", async () => {
    const { a, b, db } = await twoProcesses();
    const { userId } = await userWithKey(a);
    expect((await b.accounts.userById(userId)).planId).toBe("free");
    await sqlRows(db, "UPDATE users SET plan_id = 'behind-its-back' WHERE id = ?", userId);
    expect((await b.accounts.userById(userId)).planId).toBe("free"); // cached
    const heard = next(b, (c) => c?.topic === "user" && c.id === userId);
    await a.accounts.setPlan(userId, "pro");
    await heard;
    expect((await b.accounts.userById(userId)).planId).toBe("pro");
  }, 30_000);

  test("a webhook URL regenerated in one process stops resolving in the other once the NOTIFY arrives", async () => {
    const { a, b, db } = await twoProcesses();
    const { userId } = await userWithKey(a);
    const actor = { userId, auth: { type: "session" as const, session_id: "s" } };
    const created = await a.webhookTokens.create(actor);
    const token = created.url.split("/").at(-1)!;
    expect((await b.webhookTokens.resolve(token))?.id).toBe(created.id);
    // B answers from its cache: a hash changed behind its back (no NOTIFY) still resolves there.
    const { h } = (await sqlRow<{ h: string }>(
      db,
      "SELECT token_hash AS h FROM webhook_tokens WHERE id = ?",
      created.id,
    ))!;
    await sqlRows(db, "UPDATE webhook_tokens SET token_hash = 'elsewhere' WHERE id = ?", created.id);
    expect((await b.webhookTokens.resolve(token))?.id).toBe(created.id);
    await sqlRows(db, "UPDATE webhook_tokens SET token_hash = ? WHERE id = ?", h, created.id);
    const heard = next(b, (c) => c?.topic === "webhook_token" && c.id === created.id);
    await a.webhookTokens.regenerate(actor, created.id);
    await heard;
    expect(await b.webhookTokens.resolve(token)).toBeUndefined();
  }, 30_000);

  test("an announcement inside a transaction that rolls back is never delivered", async () => {
    const schema = testSchemaName();
    const [pa, pb] = [open(schema), open(schema)];
    const [wa, wb] = [createPgChangeWatch(pa), createPgChangeWatch(pb)];
    await Promise.all([wa.listening, wb.listening]);
    const seen: string[] = [];
    wb.onChange((c) => c && seen.push(c.id));
    await expect(
      pa.tx(async () => {
        await wa.announce("key", "rolled_back");
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    const last = new Promise<void>((resolve) => wb.onChange((c) => c?.id === "committed" && resolve()));
    await pa.tx(() => wa.announce("key", "committed"));
    await last;
    // Notifications of one session arrive in commit order: had the first been sent, it came first.
    expect(seen).toEqual(["committed"]);
  }, 30_000);

  test("the TTL backstop moves the generation, so caches drop what no announcement reached", async () => {
    let now = 1_000_000;
    const watch = createPgChangeWatch(open(testSchemaName()), { ttlMs: 1000, now: () => now });
    await watch.listening;
    const g = watch.generation();
    now += 999 - (now % 1000);
    expect(watch.generation()).toBe(g);
    now += 1;
    expect(watch.generation()).toBe(g + 1);
  }, 30_000);
});

test("channel names stay within PostgreSQL's 63-byte identifiers and apart per schema", () => {
  const long = "s".repeat(63);
  expect(cacheChannel(long).length).toBeLessThanOrEqual(63);
  expect(cacheChannel(long)).not.toBe(cacheChannel(`${"s".repeat(62)}t`));
  expect(cacheChannel("public")).toBe("cache_public");
});

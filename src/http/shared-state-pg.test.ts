// Shared state on PostgreSQL with two processes (two pools on one schema; runs when DATABASE_URL names a
// server): one rate limit enforced exactly across both, one form claim, one idempotency claim.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../config.ts";
import { testSchemaName, type EngineDb } from "../db/client.ts";
import { pgAsDb } from "../db/pg/as-db.ts";
import { openPostgres } from "../db/pg/client.ts";
import { createIdempotencyRepo } from "./idempotency-repo.ts";
import { createSharedState } from "../stores.ts";
import { asPostgres } from "../db/client.ts";

const url = databaseUrl();
const opened: EngineDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.end()));
});

/** Two pools on one fresh schema: what two processes of one deployment see. */
async function twoProcesses(): Promise<[EngineDb, EngineDb]> {
  const schema = testSchemaName();
  const [a, b] = [0, 1].map(() => pgAsDb(openPostgres(url!, { schema, max: 6, idleTimeout: 2 })));
  opened.push(a!, b!);
  await Promise.all([asPostgres(a!).ready, asPostgres(b!).ready]);
  return [a!, b!];
}

describe.skipIf(!url)("shared state on PostgreSQL", () => {
  test("two limiters over one database enforce one limit exactly, and the window resets for both", async () => {
    const [a, b] = await twoProcesses();
    let t = 1_000_000;
    const opts = { name: "api", limit: 30, windowMs: 60_000, now: () => t };
    const [la, lb] = [createSharedState(a).rateLimiters(opts), createSharedState(b).rateLimiters(opts)];
    const hits = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? la : lb).hit("usr_1")));
    expect(hits.filter((d) => d.allowed)).toHaveLength(30);
    // The remaining counts handed out are 29 … 0, each once: no two hits took the same slot.
    expect(
      hits
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect((await la.hit("usr_1")).allowed).toBe(false);
    expect((await lb.hit("usr_2")).allowed).toBe(true);
    t += 60_000;
    expect(await lb.hit("usr_1")).toMatchObject({ allowed: true, remaining: 29 });
    expect(await la.hit("usr_1")).toMatchObject({ allowed: true, remaining: 28 });
  }, 30_000);

  test("a form claimed on one process is refused on the other until released", async () => {
    const [a, b] = await twoProcesses();
    const [ga, gb] = [createSharedState(a).formGuards("key"), createSharedState(b).formGuards("key")];
    const now = 5_000_000;
    const claims = await Promise.all(
      [0, 1, 2, 3].map((i) => (i % 2 ? ga : gb).claim("usr_1", "form-1", now + 1000, now)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Another kind of form, or another user, is its own claim.
    expect(
      await createSharedState(b)
        .formGuards("webhook-token")
        .claim("usr_1", "form-1", now + 1000, now),
    ).toBe(true);
    expect(await gb.claim("usr_2", "form-1", now + 1000, now)).toBe(true);
    await ga.release("usr_1", "form-1");
    expect(await gb.claim("usr_1", "form-1", now + 1000, now)).toBe(true);
    // An expired claim is taken over.
    expect(await ga.claim("usr_1", "form-1", now + 3000, now + 1000)).toBe(true);
  }, 30_000);

  test("an idempotency key raced by two processes is claimed once; the other sees the claim", async () => {
    const [a, b] = await twoProcesses();
    const [ra, rb] = [createIdempotencyRepo(a), createIdempotencyRepo(b)];
    for (let i = 0; i < 10; i++) {
      const claim = {
        userId: "usr_1",
        key: `k${i}`,
        method: "POST",
        path: "/api/v1/keys",
        requestHash: "h",
        createdAt: "2024-01-02T00:00:00.000Z",
      };
      const results = await Promise.all([0, 1, 2, 3].map((j) => (j % 2 ? ra : rb).claimOrFind(claim, "2024-01-01")));
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
      for (const r of results.filter(Boolean)) expect(r).toMatchObject({ state: "in_progress", requestHash: "h" });
    }
    // A record older than the cut-off is replaced by the next claim.
    const stale = {
      userId: "usr_1",
      key: "k0",
      method: "POST",
      path: "/p",
      requestHash: "h2",
      createdAt: "2024-01-05",
    };
    expect(await rb.claimOrFind(stale, "2024-01-03")).toBeUndefined();
    expect(await ra.find("usr_1", "k0")).toMatchObject({ requestHash: "h2", state: "in_progress" });
  }, 30_000);
});

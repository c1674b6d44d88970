// SQL for idempotency_keys: the first response to a POST with an Idempotency-Key, per user.
// Written once for both engines (src/db/shared.ts).
import { and, eq, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/port.ts";
import { idempotencyKeys as k } from "../db/schema/index.ts";

export interface IdempotencyRecord {
  requestHash: string;
  state: "in_progress" | "done";
  responseStatus: number | null;
  responseHeaders: string | null;
  /** null when the response showed a secret once (it is never stored). */
  responseBody: string | null;
  createdAt: string;
}

/** A request taking a key: who sent it, what it asked for, and when. */
export interface IdempotencyClaim {
  userId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
  createdAt: string;
}

/** What the idempotency layer needs of its records, in its own words. */
export interface IdempotencyRepo {
  /** The user's record under this key, whatever its age. */
  find(userId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Releases the key (its request failed), so a retry may claim it. */
  remove(userId: string, key: string): Promise<void>;
  /** Records the key as in progress; fails on the primary key if another request holds it. */
  claim(c: IdempotencyClaim): Promise<void>;
  /** Stores the response a claimed key's request answered with. */
  finish(
    userId: string,
    key: string,
    response: { status: number; headers: string; body: string | null },
  ): Promise<void>;
  /**
   * Claims the key for a new request in one statement: undefined once this request holds it, else the
   * live record another request left (to replay or refuse). A record created at or before
   * `expiredBefore` is taken over. Requests racing with one key, in one process or several, never both
   * claim it.
   */
  claimOrFind(c: IdempotencyClaim, expiredBefore: string): Promise<IdempotencyRecord | undefined>;
  /** Drops records created before `before`; returns how many. */
  sweep(before: string): Promise<number>;
}

/** The count of rows a `run` changed (the shared driver hands it back beside the rows). */
const changes = (r: unknown) => (r as { changes: number }).changes;

const p = (name: string) => sql.placeholder(name);

export function createIdempotencyRepo(db: Db): IdempotencyRepo {
  const orm = db.shared;
  const byKey = and(eq(k.userId, p("userId")), eq(k.key, p("key")));
  // Every POST that carries a key runs the upsert and finish, a replay the find: built once.
  const find = orm
    .select({
      requestHash: k.requestHash,
      state: k.state,
      responseStatus: k.responseStatus,
      responseHeaders: k.responseHeaders,
      responseBody: k.responseBody,
      createdAt: k.createdAt,
    })
    .from(k)
    .where(byKey)
    .prepare();
  const claims = {
    userId: p("userId"),
    key: p("key"),
    method: p("method"),
    path: p("path"),
    requestHash: p("requestHash"),
    state: "in_progress" as const,
    createdAt: p("createdAt"),
  };
  const insert = orm.insert(k).values(claims).prepare();
  // Conflicting with a live record changes nothing (the WHERE is false), so `run` counts 0. On PostgreSQL
  // racing inserts meet at the row lock: the one that waited sees the winner's row and does not update it.
  const upsert = orm
    .insert(k)
    .values(claims)
    .onConflictDoUpdate({
      target: [k.userId, k.key],
      set: {
        method: sql`excluded.method`,
        path: sql`excluded.path`,
        requestHash: sql`excluded.request_hash`,
        state: "in_progress",
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: sql`excluded.created_at`,
      },
      setWhere: lte(k.createdAt, p("expiredBefore")),
    })
    .prepare();
  const finish = orm
    .update(k)
    // An update's values take a placeholder only as SQL.
    .set({
      state: "done",
      responseStatus: sql`${p("status")}`,
      responseHeaders: sql`${p("headers")}`,
      responseBody: sql`${p("body")}`,
    })
    .where(byKey)
    .prepare();
  const remove = orm.delete(k).where(byKey).prepare();

  return {
    find: (userId, key) => find.get({ userId, key }),
    async remove(userId, key) {
      await remove.run({ userId, key });
    },
    async claim(c) {
      await insert.run({ ...c });
    },
    async finish(userId, key, r) {
      await finish.run({ userId, key, status: r.status, headers: r.headers, body: r.body });
    },
    async claimOrFind(c, expiredBefore) {
      // The live record may vanish before it is read (its request failed and released the key): then
      // the key is free again and the claim is tried anew.
      for (let attempt = 0; attempt < 5; attempt++) {
        if (changes(await upsert.run({ ...c, expiredBefore })) > 0) return undefined;
        const existing = await find.get({ userId: c.userId, key: c.key });
        if (existing) return existing;
      }
      throw new Error("idempotency key kept changing hands; try again");
    },
    async sweep(before) {
      return changes(await orm.delete(k).where(lt(k.createdAt, before)));
    },
  };
}

// SQL for idempotency_keys: the first response to a POST with an Idempotency-Key, per user.
import type { Db } from "../db/port.ts";
import { createIdempotencyPgRepo } from "./idempotency-pg-repo.ts";

export interface IdempotencyRecord {
  requestHash: string;
  state: "in_progress" | "done";
  responseStatus: number | null;
  responseHeaders: string | null;
  /** null when the response showed a secret once (it is never stored). */
  responseBody: string | null;
  createdAt: string;
}

// Prepared SQL (bun caches it per connection): these run on every POST that carries a key.
const FIND =
  "SELECT request_hash AS requestHash, state, response_status AS responseStatus, response_headers AS responseHeaders, response_body AS responseBody, created_at AS createdAt FROM idempotency_keys WHERE user_id = ? AND key = ?";
const REMOVE = "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?";
const CLAIM =
  "INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, created_at) VALUES (?, ?, ?, ?, ?, 'in_progress', ?)";
const FINISH =
  "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_headers = ?, response_body = ? WHERE user_id = ? AND key = ?";
const SWEEP = "DELETE FROM idempotency_keys WHERE created_at < ?";

export function createIdempotencyRepo(db: Db): IdempotencyRepo {
  return db.pg ? createIdempotencyPgRepo(db.pg) : createIdempotencySqliteRepo(db);
}

function createIdempotencySqliteRepo(db: Db) {
  return {
    async find(userId: string, key: string): Promise<IdempotencyRecord | undefined> {
      return db.query((c) => c.sqlite.query<IdempotencyRecord, [string, string]>(FIND).get(userId, key) ?? undefined);
    },
    async remove(userId: string, key: string): Promise<void> {
      await db.exec((c) => c.sqlite.query<unknown, [string, string]>(REMOVE).run(userId, key));
    },
    /** Records the key as in progress; fails on the primary key if another request holds it. */
    async claim(r: {
      userId: string;
      key: string;
      method: string;
      path: string;
      requestHash: string;
      createdAt: string;
    }): Promise<void> {
      await db.exec((c) =>
        c.sqlite
          .query<unknown, [string, string, string, string, string, string]>(CLAIM)
          .run(r.userId, r.key, r.method, r.path, r.requestHash, r.createdAt),
      );
    },
    async finish(
      userId: string,
      key: string,
      response: { status: number; headers: string; body: string | null },
    ): Promise<void> {
      await db.exec((c) =>
        c.sqlite
          .query<unknown, [number, string, string | null, string, string]>(FINISH)
          .run(response.status, response.headers, response.body, userId, key),
      );
    },
    /**
     * Claims the key for a new request in one step on the writer: returns the live record another
     * request left (to replay or refuse), or undefined once this request holds the key. A record
     * created before `expiredBefore` is replaced. Two requests racing with one key never both claim it.
     */
    async claimOrFind(
      r: { userId: string; key: string; method: string; path: string; requestHash: string; createdAt: string },
      expiredBefore: string,
    ): Promise<IdempotencyRecord | undefined> {
      return db.exec((c) => {
        const existing = c.sqlite.query<IdempotencyRecord, [string, string]>(FIND).get(r.userId, r.key);
        if (existing && existing.createdAt > expiredBefore) return existing;
        if (existing) c.sqlite.query<unknown, [string, string]>(REMOVE).run(r.userId, r.key);
        c.sqlite
          .query<unknown, [string, string, string, string, string, string]>(CLAIM)
          .run(r.userId, r.key, r.method, r.path, r.requestHash, r.createdAt);
        return undefined;
      });
    },
    /** Drops records created before `before`; returns how many. */
    async sweep(before: string): Promise<number> {
      return db.exec((c) => c.sqlite.query<unknown, [string]>(SWEEP).run(before).changes);
    },
  };
}
export type IdempotencyRepo = ReturnType<typeof createIdempotencySqliteRepo>;

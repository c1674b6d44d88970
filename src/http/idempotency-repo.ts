// SQL for idempotency_keys: the first response to a POST with an Idempotency-Key, per user.
import type { Db } from "../db/port.ts";

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
const CLAIM = "INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, created_at) VALUES (?, ?, ?, ?, ?, 'in_progress', ?)";
const FINISH = "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_headers = ?, response_body = ? WHERE user_id = ? AND key = ?";
const SWEEP = "DELETE FROM idempotency_keys WHERE created_at < ?";

export function createIdempotencyRepo(db: Db) {
  return {
    find(userId: string, key: string): IdempotencyRecord | undefined {
      return db.query((c) => c.sqlite.query<IdempotencyRecord, [string, string]>(FIND).get(userId, key) ?? undefined);
    },
    remove(userId: string, key: string): void {
      db.exec((c) => c.sqlite.query<unknown, [string, string]>(REMOVE).run(userId, key));
    },
    /** Records the key as in progress; fails on the primary key if another request holds it. */
    claim(r: { userId: string; key: string; method: string; path: string; requestHash: string; createdAt: string }): void {
      db.exec((c) => c.sqlite.query<unknown, [string, string, string, string, string, string]>(CLAIM).run(r.userId, r.key, r.method, r.path, r.requestHash, r.createdAt));
    },
    finish(userId: string, key: string, response: { status: number; headers: string; body: string | null }): void {
      db.exec((c) =>
        c.sqlite.query<unknown, [number, string, string | null, string, string]>(FINISH).run(response.status, response.headers, response.body, userId, key),
      );
    },
    /** Drops records created before `before`; returns how many. */
    sweep(before: string): number {
      return db.exec((c) => c.sqlite.query<unknown, [string]>(SWEEP).run(before).changes);
    },
  };
}
export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;

// SQL for idempotency_keys on PostgreSQL: the twin of idempotency-repo.ts, same methods and results.
import type { PgDb } from "../db/pg/port.ts";
import type { IdempotencyRecord, IdempotencyRepo } from "./idempotency-repo.ts";

type Claim = Parameters<IdempotencyRepo["claim"]>[0];

export function createIdempotencyPgRepo(db: PgDb): IdempotencyRepo {
  const find = (userId: string, key: string) =>
    db.query(async (c) => {
      const [row] = await c.sql<IdempotencyRecord[]>`
        SELECT request_hash AS "requestHash", state, response_status AS "responseStatus",
          response_headers AS "responseHeaders", response_body AS "responseBody", created_at AS "createdAt"
        FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`;
      return row;
    });
  const insert = (r: Claim) =>
    db.exec(
      (c) => c.sql`
        INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, state, created_at)
        VALUES (${r.userId}, ${r.key}, ${r.method}, ${r.path}, ${r.requestHash}, 'in_progress', ${r.createdAt})`,
    );

  return {
    find,
    async remove(userId, key) {
      await db.exec((c) => c.sql`DELETE FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`);
    },
    /** Records the key as in progress; fails on the primary key if another request holds it. */
    async claim(r) {
      await insert(r);
    },
    async finish(userId, key, response) {
      await db.exec(
        (c) => c.sql`
          UPDATE idempotency_keys SET state = 'done', response_status = ${response.status},
            response_headers = ${response.headers}, response_body = ${response.body}
          WHERE user_id = ${userId} AND key = ${key}`,
      );
    },
    /**
     * One upsert claims the key unless a live record holds it (an expired one is taken over); processes
     * racing with one key meet at the row lock and exactly one claims it. When the live record vanishes
     * before it is read (its request failed and released it), the claim is tried again.
     */
    async claimOrFind(r, expiredBefore) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const claimed = await db.exec(
          (c) => c.sql`
            INSERT INTO idempotency_keys AS k (user_id, key, method, path, request_hash, state, created_at)
            VALUES (${r.userId}, ${r.key}, ${r.method}, ${r.path}, ${r.requestHash}, 'in_progress', ${r.createdAt})
            ON CONFLICT (user_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
              request_hash = excluded.request_hash, state = 'in_progress', response_status = NULL,
              response_headers = NULL, response_body = NULL, created_at = excluded.created_at
            WHERE k.created_at <= ${expiredBefore}
            RETURNING 1 AS claimed`,
        );
        if (claimed.length > 0) return undefined;
        const existing = await find(r.userId, r.key);
        if (existing) return existing;
      }
      throw new Error("idempotency key kept changing hands; try again");
    },
    /** Drops records created before `before`; returns how many. */
    async sweep(before) {
      return db.exec(async (c) => (await c.sql`DELETE FROM idempotency_keys WHERE created_at < ${before}`).count);
    },
  };
}

// SQL for webhook tokens and deliveries on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { webhookTokens } from "../../db/pg/schema/index.ts";
import type { WebhookTokenRow } from "../../db/schema/index.ts";
import type { DeliveryRecord, WebhooksRepo } from "./repo.ts";

/**
 * Another process committed a delivery with the same dedupe key while this transaction ran. Under
 * SERIALIZABLE PostgreSQL already reports that as 40001 (this transaction read the key's absence in
 * findDelivery); the explicit check makes sure it is never a unique violation (a 500) but a retry of
 * db.tx. The retry finds that delivery, answers as a replay, and the runs rolled back here never start.
 */
class DuplicateDelivery extends Error {
  readonly code = "40001";
  constructor() {
    super("a delivery with this dedupe key was committed concurrently");
  }
}

export function createWebhooksPgRepo(db: PgDb): WebhooksRepo {
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(webhookTokens).values(row));
    },
    async byId(userId, id): Promise<WebhookTokenRow | undefined> {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(webhookTokens)
          .where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id))),
      );
      return rows[0];
    },
    async existingIds(userId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db.query((c) =>
        c.orm
          .select({ id: webhookTokens.id })
          .from(webhookTokens)
          .where(and(eq(webhookTokens.userId, userId), inArray(webhookTokens.id, ids))),
      );
      return new Set(rows.map((r) => r.id));
    },
    async list(userId, opts): Promise<WebhookTokenRow[]> {
      const conds = [eq(webhookTokens.userId, userId)];
      if (opts.before) conds.push(lt(webhookTokens.id, opts.before));
      return db.query((c) =>
        c.orm
          .select()
          .from(webhookTokens)
          .where(and(...conds))
          .orderBy(desc(webhookTokens.id))
          .limit(opts.limit),
      );
    },
    async setHash(id, hash, hint, at) {
      await db.exec((c) =>
        c.orm.update(webhookTokens).set({ tokenHash: hash, hint, regeneratedAt: at }).where(eq(webhookTokens.id, id)),
      );
    },
    async delete(userId, id) {
      await db.exec((c) =>
        c.orm.delete(webhookTokens).where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id))),
      );
    },
    async byHash(hash) {
      const rows = await db.query(
        (c) =>
          c.sql<{ id: string; user_id: string }[]>`SELECT id, user_id FROM webhook_tokens WHERE token_hash = ${hash}`,
      );
      const r = rows[0];
      return r ? { id: r.id, userId: r.user_id } : undefined;
    },
    async findDelivery(tokenId, key) {
      const rows = await db.query(
        (c) => c.sql<DeliveryRecord[]>`SELECT id, run_ids, received_at FROM webhook_deliveries
          WHERE token_id = ${tokenId} AND dedupe_key = ${key}`,
      );
      return rows[0] ?? null;
    },
    async dropDelivery(id) {
      await db.exec((c) => c.sql`DELETE FROM webhook_deliveries WHERE id = ${id}`);
    },
    async insertDelivery(d) {
      const rows = await db.exec(
        (c) => c.sql`INSERT INTO webhook_deliveries (id, token_id, dedupe_key, run_ids, received_at)
          VALUES (${d.id}, ${d.tokenId}, ${d.dedupeKey}, ${JSON.stringify(d.runIds)}, ${d.receivedAt})
          ON CONFLICT (token_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
          RETURNING id`,
      );
      if (rows.length === 0) throw new DuplicateDelivery();
    },
    async pruneDeliveries(before) {
      const r = await db.exec(
        (c) => c.sql`DELETE FROM webhook_deliveries
          WHERE id IN (SELECT id FROM webhook_deliveries WHERE received_at < ${before} LIMIT 500)`,
      );
      return r.count;
    },
  };
}

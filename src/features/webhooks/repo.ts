// SQL for webhook tokens and deliveries; every token query is scoped to its owner except the hash lookup.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { webhookTokens, type WebhookTokenRow } from "../../db/schema/index.ts";
import { createWebhooksPgRepo } from "./pg-repo.ts";

export interface DeliveryRecord {
  id: string;
  run_ids: string;
  received_at: number;
}

const BY_HASH = "SELECT id, user_id FROM webhook_tokens WHERE token_hash = ?";
const FIND_DELIVERY = "SELECT id, run_ids, received_at FROM webhook_deliveries WHERE token_id = ? AND dedupe_key = ?";
const DROP_DELIVERY = "DELETE FROM webhook_deliveries WHERE id = ?";
const INSERT_DELIVERY =
  "INSERT INTO webhook_deliveries (id, token_id, dedupe_key, run_ids, received_at) VALUES (?, ?, ?, ?, ?)";
const PRUNE_DELIVERIES =
  "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE received_at < ? LIMIT 500)";

export function createWebhooksRepo(db: Db): WebhooksRepo {
  return db.pg ? createWebhooksPgRepo(db.pg) : createWebhooksSqliteRepo(db);
}

function createWebhooksSqliteRepo(db: Db) {
  return {
    async insert(row: WebhookTokenRow): Promise<void> {
      await db.exec((c) => c.orm.insert(webhookTokens).values(row).run());
    },
    async byId(userId: string, id: string): Promise<WebhookTokenRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(webhookTokens)
          .where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id)))
          .get(),
      );
    },
    /** Which of these ids name a token of the user. */
    async existingIds(userId: string, ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.query((c) =>
        c.orm
          .select({ id: webhookTokens.id })
          .from(webhookTokens)
          .where(and(eq(webhookTokens.userId, userId), inArray(webhookTokens.id, ids)))
          .all(),
      );
      return new Set(rows.map((r) => r.id));
    },
    async list(userId: string, opts: { limit: number; before?: string }): Promise<WebhookTokenRow[]> {
      const conds = [eq(webhookTokens.userId, userId)];
      if (opts.before) conds.push(lt(webhookTokens.id, opts.before));
      return db.query((c) =>
        c.orm
          .select()
          .from(webhookTokens)
          .where(and(...conds))
          .orderBy(desc(webhookTokens.id))
          .limit(opts.limit)
          .all(),
      );
    },
    async setHash(id: string, hash: string, hint: string, at: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .update(webhookTokens)
          .set({ tokenHash: hash, hint, regeneratedAt: at })
          .where(eq(webhookTokens.id, id))
          .run(),
      );
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(webhookTokens)
          .where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id)))
          .run(),
      );
    },
    async byHash(hash: string): Promise<{ id: string; userId: string } | undefined> {
      const r = await db.query((c) => c.sqlite.query<{ id: string; user_id: string }, [string]>(BY_HASH).get(hash));
      return r ? { id: r.id, userId: r.user_id } : undefined;
    },
    async findDelivery(tokenId: string, key: string): Promise<DeliveryRecord | null> {
      return db.query((c) => c.sqlite.query<DeliveryRecord, [string, string]>(FIND_DELIVERY).get(tokenId, key));
    },
    async dropDelivery(id: string): Promise<void> {
      await db.exec((c) => c.sqlite.query<null, [string]>(DROP_DELIVERY).run(id));
    },
    async insertDelivery(d: {
      id: string;
      tokenId: string;
      dedupeKey: string | null;
      runIds: string[];
      receivedAt: number;
    }): Promise<void> {
      const args: [string, string, string | null, string, number] = [
        d.id,
        d.tokenId,
        d.dedupeKey,
        JSON.stringify(d.runIds),
        d.receivedAt,
      ];
      await db.exec((c) => c.sqlite.query<null, typeof args>(INSERT_DELIVERY).run(...args));
    },
    /** Removes up to 500 deliveries received before the cut-off; returns how many went. */
    async pruneDeliveries(before: number): Promise<number> {
      return db.exec((c) => c.sqlite.query<null, [number]>(PRUNE_DELIVERIES).run(before).changes);
    },
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksSqliteRepo>;

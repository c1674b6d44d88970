// SQL for webhook tokens and deliveries; every token query is scoped to its owner except the hash lookup.
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { webhookTokens, type WebhookTokenRow } from "../../db/schema/index.ts";

export interface DeliveryRecord {
  id: string;
  run_ids: string;
  received_at: number;
}

const BY_HASH = "SELECT id, user_id FROM webhook_tokens WHERE token_hash = ?";
const FIND_DELIVERY = "SELECT id, run_ids, received_at FROM webhook_deliveries WHERE token_id = ? AND dedupe_key = ?";
const DROP_DELIVERY = "DELETE FROM webhook_deliveries WHERE id = ?";
const INSERT_DELIVERY = "INSERT INTO webhook_deliveries (id, token_id, dedupe_key, run_ids, received_at) VALUES (?, ?, ?, ?, ?)";
const PRUNE_DELIVERIES = "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE received_at < ? LIMIT 500)";

export function createWebhooksRepo(db: Db) {
  return {
    insert(row: WebhookTokenRow): void {
      db.exec((c) => c.orm.insert(webhookTokens).values(row).run());
    },
    byId(userId: string, id: string): WebhookTokenRow | undefined {
      return db.query((c) => c.orm.select().from(webhookTokens).where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id))).get());
    },
    list(userId: string, opts: { limit: number; before?: string }): WebhookTokenRow[] {
      const conds = [eq(webhookTokens.userId, userId)];
      if (opts.before) conds.push(lt(webhookTokens.id, opts.before));
      return db.query((c) => c.orm.select().from(webhookTokens).where(and(...conds)).orderBy(desc(webhookTokens.id)).limit(opts.limit).all());
    },
    setHash(id: string, hash: string, hint: string, at: string): void {
      db.exec((c) => c.orm.update(webhookTokens).set({ tokenHash: hash, hint, regeneratedAt: at }).where(eq(webhookTokens.id, id)).run());
    },
    delete(userId: string, id: string): void {
      db.exec((c) => c.orm.delete(webhookTokens).where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id))).run());
    },
    byHash(hash: string): { id: string; userId: string } | undefined {
      const r = db.query((c) => c.sqlite.query<{ id: string; user_id: string }, [string]>(BY_HASH).get(hash));
      return r ? { id: r.id, userId: r.user_id } : undefined;
    },
    findDelivery(tokenId: string, key: string): DeliveryRecord | null {
      return db.query((c) => c.sqlite.query<DeliveryRecord, [string, string]>(FIND_DELIVERY).get(tokenId, key));
    },
    dropDelivery(id: string): void {
      db.exec((c) => c.sqlite.query<null, [string]>(DROP_DELIVERY).run(id));
    },
    insertDelivery(d: { id: string; tokenId: string; dedupeKey: string | null; runIds: string[]; receivedAt: number }): void {
      const args: [string, string, string | null, string, number] = [d.id, d.tokenId, d.dedupeKey, JSON.stringify(d.runIds), d.receivedAt];
      db.exec((c) => c.sqlite.query<null, typeof args>(INSERT_DELIVERY).run(...args));
    },
    /** Removes up to 500 deliveries received before the cut-off; returns how many went. */
    pruneDeliveries(before: number): number {
      return db.exec((c) => c.sqlite.query<null, [number]>(PRUNE_DELIVERIES).run(before).changes);
    },
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;

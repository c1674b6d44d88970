// SQL for webhook tokens and deliveries; every token query is scoped to its owner except the hash lookup.
import type { Database } from "bun:sqlite";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Orm } from "../../db/client.ts";
import { webhookTokens, workflows, type WebhookTokenRow } from "../../db/schema/index.ts";

export interface DeliveryRecord {
  id: string;
  run_ids: string;
  received_at: number;
}

export function createWebhooksRepo(orm: Orm, sqlite: Database) {
  const byHash = sqlite.prepare<{ id: string; user_id: string }, [string]>("SELECT id, user_id FROM webhook_tokens WHERE token_hash = ?");
  const findDelivery = sqlite.prepare<DeliveryRecord, [string, string]>(
    "SELECT id, run_ids, received_at FROM webhook_deliveries WHERE token_id = ? AND dedupe_key = ?",
  );
  const dropDelivery = sqlite.prepare<null, [string]>("DELETE FROM webhook_deliveries WHERE id = ?");
  const insertDelivery = sqlite.prepare<null, [string, string, string | null, string, number]>(
    "INSERT INTO webhook_deliveries (id, token_id, dedupe_key, run_ids, received_at) VALUES (?, ?, ?, ?, ?)",
  );
  const pruneDeliveries = sqlite.prepare<null, [number]>(
    "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE received_at < ? LIMIT 500)",
  );

  return {
    insert(row: WebhookTokenRow): void {
      orm.insert(webhookTokens).values(row).run();
    },
    byId(userId: string, id: string): WebhookTokenRow | undefined {
      return orm.select().from(webhookTokens).where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id))).get();
    },
    list(userId: string, opts: { limit: number; before?: string }): WebhookTokenRow[] {
      const conds = [eq(webhookTokens.userId, userId)];
      if (opts.before) conds.push(lt(webhookTokens.id, opts.before));
      return orm.select().from(webhookTokens).where(and(...conds)).orderBy(desc(webhookTokens.id)).limit(opts.limit).all();
    },
    /** Workflow ids using each token, for the public view and the in-use check. */
    workflowIds(tokenIds: string[]): Map<string, string[]> {
      const out = new Map<string, string[]>();
      for (const id of tokenIds) out.set(id, []);
      if (tokenIds.length === 0) return out;
      const rows = sqlite
        .query<{ id: string; token_id: string }, string[]>(
          `SELECT id, token_id FROM workflows WHERE token_id IN (${tokenIds.map(() => "?").join(",")}) ORDER BY id`,
        )
        .all(...tokenIds);
      for (const r of rows) out.get(r.token_id)?.push(r.id);
      return out;
    },
    setHash(id: string, hash: string, hint: string, at: string): void {
      orm.update(webhookTokens).set({ tokenHash: hash, hint, regeneratedAt: at }).where(eq(webhookTokens.id, id)).run();
    },
    delete(userId: string, id: string): void {
      orm.delete(webhookTokens).where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id))).run();
    },
    inUse(id: string): boolean {
      return orm.select({ id: workflows.id }).from(workflows).where(eq(workflows.tokenId, id)).limit(1).all().length > 0;
    },
    byHash(hash: string): { id: string; userId: string } | undefined {
      const r = byHash.get(hash);
      return r ? { id: r.id, userId: r.user_id } : undefined;
    },
    findDelivery(tokenId: string, key: string): DeliveryRecord | null {
      return findDelivery.get(tokenId, key);
    },
    dropDelivery(id: string): void {
      dropDelivery.run(id);
    },
    insertDelivery(d: { id: string; tokenId: string; dedupeKey: string | null; runIds: string[]; receivedAt: number }): void {
      insertDelivery.run(d.id, d.tokenId, d.dedupeKey, JSON.stringify(d.runIds), d.receivedAt);
    },
    /** Removes up to 500 deliveries received before the cut-off; returns how many went. */
    pruneDeliveries(before: number): number {
      return pruneDeliveries.run(before).changes;
    },
  };
}
export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;

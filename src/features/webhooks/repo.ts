// SQL for webhook tokens and deliveries; every token query is scoped to its owner except the hash lookup.
// Written once for both engines (src/db/shared.ts).
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { webhookDeliveries, webhookTokens, type WebhookTokenRow } from "../../db/schema/index.ts";

export interface DeliveryRecord {
  id: string;
  run_ids: string;
  received_at: number;
}

/** What webhooks need of their tokens and deliveries, in their own words. */
export interface WebhooksRepo {
  insert(row: WebhookTokenRow): Promise<void>;
  byId(userId: string, id: string): Promise<WebhookTokenRow | undefined>;
  /** Which of these ids name a token of the user. */
  existingIds(userId: string, ids: string[]): Promise<Set<string>>;
  /** Newest first, `before` an id (exclusive). */
  list(userId: string, opts: { limit: number; before?: string }): Promise<WebhookTokenRow[]>;
  /** A regenerated token: its new hash and hint. */
  setHash(id: string, hash: string, hint: string, at: string): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
  /** The token a presented secret's hash names, whoever owns it (the one lookup not scoped to an owner). */
  byHash(hash: string): Promise<{ id: string; userId: string } | undefined>;
  /** The delivery of the token accepted under this dedupe key, or null. */
  findDelivery(tokenId: string, key: string): Promise<DeliveryRecord | null>;
  dropDelivery(id: string): Promise<void>;
  /**
   * Records an accepted delivery. A delivery with the same dedupe key committed concurrently (only
   * possible on PostgreSQL, where intakes run side by side) throws a retryable serialization error, never
   * a unique violation: the retried transaction finds that delivery and answers as a replay.
   */
  insertDelivery(d: {
    id: string;
    tokenId: string;
    dedupeKey: string | null;
    runIds: string[];
    receivedAt: number;
  }): Promise<void>;
  /** Removes up to 500 deliveries received before the cut-off; returns how many went. */
  pruneDeliveries(before: number): Promise<number>;
}

/**
 * Another process committed a delivery with the same dedupe key while this transaction ran. Under
 * SERIALIZABLE PostgreSQL already reports that as 40001 (this transaction read the key's absence in
 * findDelivery); the explicit check makes sure it is never a unique violation (a 500) but a retry of
 * db.tx. The retry finds that delivery, answers as a replay, and the runs rolled back here never start.
 * On SQLite the writer is one at a time, so the key's absence read in the same transaction still holds.
 */
class DuplicateDelivery extends Error {
  readonly code = "40001";
  constructor() {
    super("a delivery with this dedupe key was committed concurrently");
  }
}

export function createWebhooksRepo(db: Db): WebhooksRepo {
  const orm = db.shared;
  // Asked by every incoming webhook whose token is not cached: built once.
  const byHash = orm
    .select({ id: webhookTokens.id, userId: webhookTokens.userId })
    .from(webhookTokens)
    .where(eq(webhookTokens.tokenHash, sql.placeholder("hash")))
    .prepare();
  // Asked by every delivery that carries a dedupe key: built once.
  const delivery = orm
    .select({
      id: webhookDeliveries.id,
      run_ids: webhookDeliveries.runIds,
      received_at: webhookDeliveries.receivedAt,
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tokenId, sql.placeholder("tokenId")),
        eq(webhookDeliveries.dedupeKey, sql.placeholder("key")),
      ),
    )
    .prepare();
  // Every delivery is recorded with this: built once. With no conflict target, DO NOTHING skips a row
  // that breaks any unique index; the only one a new row can break is (token_id, dedupe_key), the
  // partial index of deliveries that carry a key.
  const newDelivery = orm
    .insert(webhookDeliveries)
    .values({
      id: sql.placeholder("id"),
      tokenId: sql.placeholder("tokenId"),
      dedupeKey: sql.placeholder("dedupeKey"),
      runIds: sql.placeholder("runIds"),
      receivedAt: sql.placeholder("receivedAt"),
    })
    .onConflictDoNothing()
    .prepare();
  return {
    async insert(row) {
      await orm.insert(webhookTokens).values(row);
    },
    byId(userId, id) {
      return orm
        .select()
        .from(webhookTokens)
        .where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id)))
        .get();
    },
    async existingIds(userId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await orm
        .select({ id: webhookTokens.id })
        .from(webhookTokens)
        .where(and(eq(webhookTokens.userId, userId), inArray(webhookTokens.id, ids)));
      return new Set(rows.map((r) => r.id));
    },
    list(userId, opts) {
      const conds = [eq(webhookTokens.userId, userId)];
      if (opts.before) conds.push(lt(webhookTokens.id, opts.before));
      return orm
        .select()
        .from(webhookTokens)
        .where(and(...conds))
        .orderBy(desc(webhookTokens.id))
        .limit(opts.limit);
    },
    async setHash(id, hash, hint, at) {
      await orm.update(webhookTokens).set({ tokenHash: hash, hint, regeneratedAt: at }).where(eq(webhookTokens.id, id));
    },
    async delete(userId, id) {
      await orm.delete(webhookTokens).where(and(eq(webhookTokens.userId, userId), eq(webhookTokens.id, id)));
    },
    byHash(hash) {
      return byHash.get({ hash });
    },
    async findDelivery(tokenId, key) {
      return (await delivery.get({ tokenId, key })) ?? null;
    },
    async dropDelivery(id) {
      await orm.delete(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    },
    async insertDelivery(d) {
      const r = (await newDelivery.run({ ...d, runIds: JSON.stringify(d.runIds) })) as unknown as { changes: number };
      if (r.changes === 0) throw new DuplicateDelivery();
    },
    async pruneDeliveries(before) {
      const old = orm
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(lt(webhookDeliveries.receivedAt, before))
        .limit(500);
      const r = (await orm.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old))) as unknown as {
        changes: number;
      };
      return r.changes;
    },
  };
}

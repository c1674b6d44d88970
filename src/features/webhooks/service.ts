// Webhook tokens: create (URL shown once), regenerate (the old URL stops at once), delete, resolve.
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import type { WebhookTokenRow } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { WebhooksRepo } from "./repo.ts";
import type { TokenPublic, TokenWithUrl } from "./schema.ts";
import {
  generateWebhookToken,
  hashWebhookToken,
  looksLikeWebhookToken,
  webhookTokenHint,
  webhookUrl,
} from "./token.ts";

export interface ResolvedToken {
  id: string;
  userId: string;
}

/** Which workflows use each token: the workflows feature owns that table, the root wires this port. */
export interface TokenUsers {
  /** Every given token id mapped to the ids of the workflows triggered by it ([] when none). */
  idsByToken(tokenIds: string[]): Promise<Map<string, string[]>>;
}

export function createWebhookTokensService(deps: {
  db: Transactor;
  repo: WebhooksRepo;
  workflows: TokenUsers;
  /** Moves when another connection (the CLI) commits: the cache may then be stale. */
  changes: ChangeWatch;
  clock: Clock;
  baseUrl: string;
}) {
  const { db, repo, workflows, changes, clock, baseUrl } = deps;
  const cache = new Map<string, ResolvedToken>();
  let seenGeneration = changes.generation();
  // Moves each time a token's hash is replaced or deleted, once that has committed: a lookup whose
  // read was out meanwhile may hold the old row and must not cache it.
  let replaced = 0;
  const nowIso = () => new Date(clock.now()).toISOString();
  const evict = (id: string) => {
    for (const [hash, t] of cache) if (t.id === id) cache.delete(hash);
  };
  // Another process replaced or deleted a token (PostgreSQL NOTIFY), or may have while we were not listening.
  changes.onChange((c) => {
    if (c && c.topic !== "webhook_token") return;
    replaced++;
    if (c) evict(c.id);
    else cache.clear();
  });

  function toPublic(row: WebhookTokenRow, workflowIds: string[]): TokenPublic {
    return {
      id: row.id,
      hint: row.hint,
      workflow_ids: workflowIds,
      created_at: row.createdAt,
      regenerated_at: row.regeneratedAt,
    };
  }

  async function getRow(actor: Actor, id: string): Promise<WebhookTokenRow> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Webhook token");
    return row;
  }

  async function publicOf(row: WebhookTokenRow): Promise<TokenPublic> {
    return toPublic(row, (await workflows.idsByToken([row.id])).get(row.id) ?? []);
  }

  return {
    /** Joins the caller's transaction when there is one (a workflow created with a new token). */
    async create(actor: Actor): Promise<TokenWithUrl> {
      const token = generateWebhookToken();
      const row: WebhookTokenRow = {
        id: newId("token"),
        userId: actor.userId,
        tokenHash: hashWebhookToken(token),
        hint: webhookTokenHint(token),
        createdAt: nowIso(),
        regeneratedAt: null,
      };
      await repo.insert(row);
      return { ...(await publicOf(row)), url: webhookUrl(baseUrl, token) };
    },

    get: async (actor: Actor, id: string): Promise<TokenPublic> => publicOf(await getRow(actor, id)),

    exists: async (actor: Actor, id: string): Promise<boolean> => (await repo.byId(actor.userId, id)) !== undefined,
    existingIds: (actor: Actor, ids: string[]): Promise<Set<string>> => repo.existingIds(actor.userId, ids),

    async list(actor: Actor, q: PageQuery): Promise<Page<TokenPublic>> {
      const page = await paginate(q.limit, q.cursor, (o) => repo.list(actor.userId, o));
      return mapPage(page, async (rows) => {
        const ids = await workflows.idsByToken(rows.map((r) => r.id));
        return rows.map((r) => toPublic(r, ids.get(r.id) ?? []));
      });
    },

    async regenerate(actor: Actor, id: string): Promise<TokenWithUrl> {
      return db.tx(async () => {
        await getRow(actor, id);
        const token = generateWebhookToken();
        await repo.setHash(id, hashWebhookToken(token), webhookTokenHint(token), nowIso());
        await forget(id);
        return { ...(await publicOf(await getRow(actor, id))), url: webhookUrl(baseUrl, token) };
      });
    },

    async delete(actor: Actor, id: string): Promise<TokenPublic> {
      return db.tx(async () => {
        const before = await publicOf(await getRow(actor, id));
        if (before.workflow_ids.length > 0) {
          throw new AppError(
            "conflict",
            `The token is used by ${before.workflow_ids.join(", ")}; change or delete those workflows first`,
          );
        }
        await repo.delete(actor.userId, id);
        await forget(id);
        return before;
      });
    },

    /** The token behind a webhook URL, or undefined for an unknown, malformed or replaced one. */
    async resolve(token: string): Promise<ResolvedToken | undefined> {
      if (!looksLikeWebhookToken(token)) return undefined;
      const g = changes.generation();
      if (g !== seenGeneration) {
        seenGeneration = g;
        cache.clear();
      }
      const hash = hashWebhookToken(token);
      let hit = cache.get(hash);
      if (!hit) {
        const seen = replaced;
        hit = await repo.byHash(hash);
        if (!hit) return undefined;
        if (cache.size > 10_000) cache.clear();
        if (seen === replaced) cache.set(hash, hit);
      }
      return hit;
    },
  };

  /**
   * Evicts the token now and again after the commit: until then another request's read (on the
   * reader connection) still sees the old hash, and a lookup that read it must not cache it. Other
   * processes evict it when the transaction's announcement is delivered, at the same commit.
   */
  async function forget(id: string): Promise<void> {
    evict(id);
    await changes.announce("webhook_token", id);
    db.afterCommit(() => {
      replaced++;
      evict(id);
    });
  }
}
export type WebhookTokensService = ReturnType<typeof createWebhookTokensService>;

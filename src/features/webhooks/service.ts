// Webhook tokens: create (URL shown once), regenerate (the old URL stops at once), delete, resolve.
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import type { WebhookTokenRow } from "../../db/schema/index.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { WorkflowsRepo } from "../workflows/repo.ts";
import type { WebhooksRepo } from "./repo.ts";
import type { TokenPublic, TokenWithUrl } from "./schema.ts";
import { generateWebhookToken, hashWebhookToken, looksLikeWebhookToken, webhookTokenHint, webhookUrl } from "./token.ts";

export interface ResolvedToken {
  id: string;
  userId: string;
}

export function createWebhookTokensService(deps: {
  db: Transactor;
  repo: WebhooksRepo;
  /** Which workflows use a token (the workflows feature's table). */
  workflows: Pick<WorkflowsRepo, "idsByToken">;
  /** Moves when another connection (the CLI) commits: the cache may then be stale. */
  changes: ChangeWatch;
  clock: Clock;
  baseUrl: string;
}) {
  const { db, repo, workflows, changes, clock, baseUrl } = deps;
  const cache = new Map<string, ResolvedToken>();
  let seenGeneration = changes.generation();
  const nowIso = () => new Date(clock.now()).toISOString();

  function toPublic(row: WebhookTokenRow, workflowIds: string[]): TokenPublic {
    return { id: row.id, hint: row.hint, workflow_ids: workflowIds, created_at: row.createdAt, regenerated_at: row.regeneratedAt };
  }

  function getRow(actor: Actor, id: string): WebhookTokenRow {
    const row = repo.byId(actor.userId, id);
    if (!row) throw notFound("Webhook token");
    return row;
  }

  function publicOf(row: WebhookTokenRow): TokenPublic {
    return toPublic(row, workflows.idsByToken([row.id]).get(row.id) ?? []);
  }

  return {
    /** Joins the caller's transaction when there is one (a workflow created with a new token). */
    create(actor: Actor): TokenWithUrl {
      const token = generateWebhookToken();
      const row: WebhookTokenRow = {
        id: newId("token"),
        userId: actor.userId,
        tokenHash: hashWebhookToken(token),
        hint: webhookTokenHint(token),
        createdAt: nowIso(),
        regeneratedAt: null,
      };
      repo.insert(row);
      return { ...publicOf(row), url: webhookUrl(baseUrl, token) };
    },

    get: (actor: Actor, id: string): TokenPublic => publicOf(getRow(actor, id)),

    exists: (actor: Actor, id: string): boolean => repo.byId(actor.userId, id) !== undefined,

    list(actor: Actor, opts: { limit: number; before?: string }): TokenPublic[] {
      const rows = repo.list(actor.userId, opts);
      const ids = workflows.idsByToken(rows.map((r) => r.id));
      return rows.map((r) => toPublic(r, ids.get(r.id) ?? []));
    },

    regenerate(actor: Actor, id: string): TokenWithUrl {
      return db.tx(() => {
        getRow(actor, id);
        const token = generateWebhookToken();
        repo.setHash(id, hashWebhookToken(token), webhookTokenHint(token), nowIso());
        forget(id);
        return { ...publicOf(getRow(actor, id)), url: webhookUrl(baseUrl, token) };
      });
    },

    delete(actor: Actor, id: string): TokenPublic {
      return db.tx(() => {
        const before = publicOf(getRow(actor, id));
        if (before.workflow_ids.length > 0) {
          throw new AppError("conflict", `The token is used by ${before.workflow_ids.join(", ")}; change or delete those workflows first`);
        }
        repo.delete(actor.userId, id);
        forget(id);
        return before;
      });
    },

    /** The token behind a webhook URL, or undefined for an unknown, malformed or replaced one. */
    resolve(token: string): ResolvedToken | undefined {
      if (!looksLikeWebhookToken(token)) return undefined;
      const g = changes.generation();
      if (g !== seenGeneration) {
        seenGeneration = g;
        cache.clear();
      }
      const hash = hashWebhookToken(token);
      let hit = cache.get(hash);
      if (!hit) {
        hit = repo.byHash(hash);
        if (!hit) return undefined;
        if (cache.size > 10_000) cache.clear();
        cache.set(hash, hit);
      }
      return hit;
    },
  };

  function forget(id: string): void {
    for (const [hash, t] of cache) if (t.id === id) cache.delete(hash);
  }
}
export type WebhookTokensService = ReturnType<typeof createWebhookTokensService>;

// Accepting an incoming webhook: dedupe, one run per active workflow of the token, all in one commit.
import type { Transactor } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { WebhooksRepo } from "./repo.ts";
import type { ResolvedToken } from "./service.ts";

export interface Accepted {
  delivery_id: string;
  runs: string[];
  /** True when this was a repeat of a delivery already accepted (same webhook-id / Idempotency-Key). */
  replayed: boolean;
}

/** The port a delivery starts workflow runs through; the workflows feature implements it. */
export interface WebhookTrigger {
  /** Active workflows listening on the token. */
  workflowsFor(tokenId: string): Promise<string[]>;
  /** Starts a run inside the current transaction (with its own job unless `job` is false); null when the workflow is gone. */
  startRun(
    r: { userId: string; workflowId: string; trigger: unknown; deliveryId: string },
    job: boolean,
  ): Promise<string | null>;
  /** One job that starts many runs, inside the current transaction. */
  startJob(runIds: string[]): Promise<void>;
}

export interface DeliveryDeps extends WebhookTrigger {
  db: Transactor;
  repo: WebhooksRepo;
  clock: Clock;
  dedupeWindowMs: number;
}

export function createDeliveries(deps: DeliveryDeps) {
  const { db, repo, clock } = deps;

  /** `started`: collect the new runs for one shared job instead of a job each. */
  async function acceptNow(
    token: ResolvedToken,
    body: Record<string, unknown>,
    dedupeKey: string | null,
    listeners = deps.workflowsFor,
    started?: string[],
  ): Promise<Accepted> {
    const now = clock.now();
    if (dedupeKey !== null) {
      const seen = await repo.findDelivery(token.id, dedupeKey);
      if (seen && seen.received_at > now - deps.dedupeWindowMs) {
        return { delivery_id: seen.id, runs: JSON.parse(seen.run_ids) as string[], replayed: true };
      }
      if (seen) await repo.dropDelivery(seen.id);
    }
    const id = newId("delivery");
    const runs: string[] = [];
    for (const workflowId of await listeners(token.id)) {
      const runId = await deps.startRun(
        { userId: token.userId, workflowId, trigger: body, deliveryId: id },
        started === undefined,
      );
      if (!runId) continue;
      runs.push(runId);
      started?.push(runId);
    }
    await repo.insertDelivery({ id, tokenId: token.id, dedupeKey, runIds: runs, receivedAt: now });
    return { delivery_id: id, runs, replayed: false };
  }

  // READ COMMITTED on PostgreSQL: every race of an intake is closed by a constraint, not by read
  // tracking. A repeated dedupe key meets the unique index (insertDelivery turns it into a retry that
  // answers as a replay), runs and jobs are fresh rows, and a run is created from its workflow in one
  // INSERT … SELECT. Under SERIALIZABLE, concurrent intakes reading and inserting the same index pages
  // failed each other and retried most of the time (see docs/scaling.md).
  const INTAKE = { isolation: "read committed" } as const;

  // Group commit: requests that arrive together share one transaction, so the cost of a commit is
  // paid once per batch. Every caller still hears back only after that commit.
  type Run = (listeners?: (tokenId: string) => Promise<string[]>, started?: string[]) => Promise<Accepted>;
  let batch: { run: Run; resolve: (a: Accepted) => void; reject: (e: unknown) => void }[] = [];

  async function flush(): Promise<void> {
    const items = batch;
    batch = [];
    let values: Accepted[];
    try {
      // Within one transaction the workflows of a token cannot change: look them up once per token.
      const seen = new Map<string, string[]>();
      const listeners = async (tokenId: string): Promise<string[]> => {
        const known = seen.get(tokenId);
        if (known) return known;
        const lookup = await deps.workflowsFor(tokenId);
        seen.set(tokenId, lookup);
        return lookup;
      };
      values = await db.tx(async () => {
        const started: string[] = [];
        const out: Accepted[] = [];
        // One after another: the items share the transaction's connection.
        for (const item of items) out.push(await item.run(listeners, started));
        await deps.startJob(started);
        return out;
      }, INTAKE);
    } catch {
      // One bad item must not fail the others: fall back to one transaction each.
      for (const item of items) {
        try {
          item.resolve(await db.tx(() => item.run(), INTAKE));
        } catch (error) {
          item.reject(error);
        }
      }
      return;
    }
    items.forEach((item, i) => item.resolve(values[i]!));
  }

  return {
    /** Resolves once the delivery, its runs and their first jobs are committed. */
    accept(token: ResolvedToken, body: Record<string, unknown>, dedupeKey: string | null): Promise<Accepted> {
      return new Promise((resolve, reject) => {
        batch.push({
          run: (listeners, started) => acceptNow(token, body, dedupeKey, listeners, started),
          resolve,
          reject,
        });
        if (batch.length === 1) setImmediate(() => void flush()); // flush settles every item itself
      });
    },
  };
}
export type Deliveries = ReturnType<typeof createDeliveries>;

// SQL for workflow definitions; every query a user can reach is scoped to its owner.
import type { Database } from "bun:sqlite";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Orm } from "../../db/client.ts";
import { workflows, type WorkflowRow } from "../../db/schema/index.ts";

export function createWorkflowsRepo(orm: Orm, sqlite: Database) {
  const forEvent = sqlite.prepare<{ id: string }, [string, string, string]>(
    `SELECT id FROM workflows WHERE user_id = ? AND event_type = ? AND active = 1 AND created_at <= ? ORDER BY id`,
  );
  const forToken = sqlite.prepare<{ id: string }, [string]>(`SELECT id FROM workflows WHERE token_id = ? AND active = 1 ORDER BY id`);
  const anyEventWorkflow = sqlite.prepare<{ one: number }, []>(
    `SELECT 1 AS one FROM workflows WHERE event_type IS NOT NULL AND active = 1 LIMIT 1`,
  );

  return {
    insert(row: WorkflowRow): void {
      orm.insert(workflows).values(row).run();
    },
    byId(userId: string, id: string): WorkflowRow | undefined {
      return orm.select().from(workflows).where(and(eq(workflows.userId, userId), eq(workflows.id, id))).get();
    },
    list(userId: string, opts: { limit: number; before?: string }): WorkflowRow[] {
      const conds = [eq(workflows.userId, userId)];
      if (opts.before) conds.push(lt(workflows.id, opts.before));
      return orm.select().from(workflows).where(and(...conds)).orderBy(desc(workflows.id)).limit(opts.limit).all();
    },
    update(id: string, patch: Partial<WorkflowRow>): void {
      orm.update(workflows).set(patch).where(eq(workflows.id, id)).run();
    },
    delete(userId: string, id: string): void {
      orm.delete(workflows).where(and(eq(workflows.userId, userId), eq(workflows.id, id))).run();
    },
    /** Active workflows of a user listening to an event type that existed when it happened. */
    forEvent(userId: string, type: string, occurredAt: string): string[] {
      return forEvent.all(userId, type, occurredAt).map((r) => r.id);
    },
    forToken(tokenId: string): string[] {
      return forToken.all(tokenId).map((r) => r.id);
    },
    hasEventWorkflows(): boolean {
      return anyEventWorkflow.get() !== null;
    },
  };
}
export type WorkflowsRepo = ReturnType<typeof createWorkflowsRepo>;

/** The signing secret and the event dispatch cursor: small lookups the runner and dispatcher need. */
export function createWorkflowStateRepo(sqlite: Database) {
  const secret = sqlite.prepare<{ signing_secret: string }, [string]>(`SELECT signing_secret FROM workflows WHERE id = ?`);
  const cursor = sqlite.prepare<{ last_seq: number }, []>(`SELECT last_seq FROM workflow_dispatch WHERE id = 1`);
  const setCursor = sqlite.prepare<null, [number]>(`UPDATE workflow_dispatch SET last_seq = ? WHERE id = 1`);
  // Run events (run.*) never trigger workflows; scanning back from the newest row stops at the first other one.
  const maxSeq = sqlite.prepare<{ seq: number | null }, []>(`SELECT seq FROM events WHERE type NOT LIKE 'run.%' ORDER BY seq DESC LIMIT 1`);
  return {
    signingSecret: (workflowId: string): string => secret.get(workflowId)?.signing_secret ?? "",
    dispatchCursor: (): number => cursor.get()?.last_seq ?? 0,
    setDispatchCursor: (seq: number): void => void setCursor.run(seq),
    latestEventSeq: (): number => maxSeq.get()?.seq ?? 0,
  };
}
export type WorkflowStateRepo = ReturnType<typeof createWorkflowStateRepo>;

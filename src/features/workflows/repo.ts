// SQL for workflow definitions; every query a user can reach is scoped to its owner.
// Written once for both engines (src/db/shared.ts).
import { and, desc, eq, inArray, isNotNull, lte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { workflows, type WorkflowRow } from "../../db/schema/index.ts";

/** What workflows (and the triggers that start them) need of the definitions, in their own words. */
export interface WorkflowsRepo {
  insert(row: WorkflowRow): Promise<void>;
  byId(userId: string, id: string): Promise<WorkflowRow | undefined>;
  /** Which of these ids name a workflow of the user. */
  existingIds(userId: string, ids: string[]): Promise<Set<string>>;
  /** Newest first, `before` an id (exclusive). */
  list(userId: string, opts: { limit: number; before?: string }): Promise<WorkflowRow[]>;
  update(id: string, patch: Partial<WorkflowRow>): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
  /** Active workflows of a user listening to an event type that existed when it happened. */
  forEvent(userId: string, type: string, occurredAt: string): Promise<string[]>;
  /** Active workflows listening on a webhook token, by id. */
  forToken(tokenId: string): Promise<string[]>;
  /** Whether any active workflow listens to events at all (the dispatcher idles when none does). */
  hasEventWorkflows(): Promise<boolean>;
  /** Workflow ids (active or not) using each token, for a token's public view and the in-use check. */
  idsByToken(tokenIds: string[]): Promise<Map<string, string[]>>;
  /** The per-workflow secret for signed requests ("" when the workflow is gone). */
  signingSecret(workflowId: string): Promise<string>;
}

export function createWorkflowsRepo(db: Db): WorkflowsRepo {
  const orm = db.shared;
  // Asked for every event and every incoming webhook: built once.
  const forEvent = orm
    .select({ id: workflows.id })
    .from(workflows)
    .where(
      and(
        eq(workflows.userId, sql.placeholder("userId")),
        eq(workflows.eventType, sql.placeholder("type")),
        eq(workflows.active, true),
        lte(workflows.createdAt, sql.placeholder("occurredAt")),
      ),
    )
    .orderBy(workflows.id)
    .prepare();
  const forToken = orm
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.tokenId, sql.placeholder("tokenId")), eq(workflows.active, true)))
    .orderBy(workflows.id)
    .prepare();
  const anyEventWorkflow = orm
    .select({ one: sql<number>`1` })
    .from(workflows)
    .where(and(isNotNull(workflows.eventType), eq(workflows.active, true)))
    .limit(1)
    .prepare();
  const secret = orm
    .select({ signingSecret: workflows.signingSecret })
    .from(workflows)
    .where(eq(workflows.id, sql.placeholder("id")))
    .prepare();
  return {
    async insert(row) {
      await orm.insert(workflows).values(row);
    },
    byId(userId, id) {
      return orm
        .select()
        .from(workflows)
        .where(and(eq(workflows.userId, userId), eq(workflows.id, id)))
        .get();
    },
    async existingIds(userId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await orm
        .select({ id: workflows.id })
        .from(workflows)
        .where(and(eq(workflows.userId, userId), inArray(workflows.id, ids)));
      return new Set(rows.map((r) => r.id));
    },
    list(userId, opts) {
      const conds = [eq(workflows.userId, userId)];
      if (opts.before) conds.push(lt(workflows.id, opts.before));
      return orm
        .select()
        .from(workflows)
        .where(and(...conds))
        .orderBy(desc(workflows.id))
        .limit(opts.limit);
    },
    async update(id, patch) {
      await orm.update(workflows).set(patch).where(eq(workflows.id, id));
    },
    async delete(userId, id) {
      await orm.delete(workflows).where(and(eq(workflows.userId, userId), eq(workflows.id, id)));
    },
    async forEvent(userId, type, occurredAt) {
      return (await forEvent.all({ userId, type, occurredAt })).map((r) => r.id);
    },
    async forToken(tokenId) {
      return (await forToken.all({ tokenId })).map((r) => r.id);
    },
    async hasEventWorkflows() {
      return (await anyEventWorkflow.get()) !== undefined;
    },
    async idsByToken(tokenIds) {
      const out = new Map<string, string[]>();
      for (const id of tokenIds) out.set(id, []);
      if (tokenIds.length === 0) return out;
      // A page of tokens at most: one parameter each.
      const rows = await orm
        .select({ id: workflows.id, tokenId: workflows.tokenId })
        .from(workflows)
        .where(inArray(workflows.tokenId, tokenIds))
        .orderBy(workflows.id);
      for (const r of rows) if (r.tokenId !== null) out.get(r.tokenId)?.push(r.id);
      return out;
    },
    async signingSecret(workflowId) {
      return (await secret.get({ id: workflowId }))?.signingSecret ?? "";
    },
  };
}

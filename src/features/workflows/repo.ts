// SQL for workflow definitions; every query a user can reach is scoped to its owner.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { workflows, type WorkflowRow } from "../../db/schema/index.ts";
import { createWorkflowsPgRepo } from "./pg-repo.ts";

const FOR_EVENT = `SELECT id FROM workflows WHERE user_id = ? AND event_type = ? AND active = 1 AND created_at <= ? ORDER BY id`;
const FOR_TOKEN = `SELECT id FROM workflows WHERE token_id = ? AND active = 1 ORDER BY id`;
const ANY_EVENT_WORKFLOW = `SELECT 1 AS one FROM workflows WHERE event_type IS NOT NULL AND active = 1 LIMIT 1`;
const BY_TOKENS = `SELECT id, token_id FROM workflows WHERE token_id IN (SELECT value FROM json_each(?)) ORDER BY id`;
const SECRET = `SELECT signing_secret FROM workflows WHERE id = ?`;

export function createWorkflowsRepo(db: Db): WorkflowsRepo {
  return db.pg ? createWorkflowsPgRepo(db.pg) : createWorkflowsSqliteRepo(db);
}

function createWorkflowsSqliteRepo(db: Db) {
  return {
    async insert(row: WorkflowRow): Promise<void> {
      await db.exec((c) => c.orm.insert(workflows).values(row).run());
    },
    async byId(userId: string, id: string): Promise<WorkflowRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(workflows)
          .where(and(eq(workflows.userId, userId), eq(workflows.id, id)))
          .get(),
      );
    },
    /** Which of these ids name a workflow of the user. */
    async existingIds(userId: string, ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.query((c) =>
        c.orm
          .select({ id: workflows.id })
          .from(workflows)
          .where(and(eq(workflows.userId, userId), inArray(workflows.id, ids)))
          .all(),
      );
      return new Set(rows.map((r) => r.id));
    },
    async list(userId: string, opts: { limit: number; before?: string }): Promise<WorkflowRow[]> {
      const conds = [eq(workflows.userId, userId)];
      if (opts.before) conds.push(lt(workflows.id, opts.before));
      return db.query((c) =>
        c.orm
          .select()
          .from(workflows)
          .where(and(...conds))
          .orderBy(desc(workflows.id))
          .limit(opts.limit)
          .all(),
      );
    },
    async update(id: string, patch: Partial<WorkflowRow>): Promise<void> {
      await db.exec((c) => c.orm.update(workflows).set(patch).where(eq(workflows.id, id)).run());
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(workflows)
          .where(and(eq(workflows.userId, userId), eq(workflows.id, id)))
          .run(),
      );
    },
    /** Active workflows of a user listening to an event type that existed when it happened. */
    async forEvent(userId: string, type: string, occurredAt: string): Promise<string[]> {
      return db.query((c) =>
        c.sqlite
          .query<{ id: string }, [string, string, string]>(FOR_EVENT)
          .all(userId, type, occurredAt)
          .map((r) => r.id),
      );
    },
    async forToken(tokenId: string): Promise<string[]> {
      return db.query((c) =>
        c.sqlite
          .query<{ id: string }, [string]>(FOR_TOKEN)
          .all(tokenId)
          .map((r) => r.id),
      );
    },
    async hasEventWorkflows(): Promise<boolean> {
      return db.query((c) => c.sqlite.query<{ one: number }, []>(ANY_EVENT_WORKFLOW).get() !== null);
    },
    /** Workflow ids (active or not) using each token, for a token's public view and the in-use check. */
    async idsByToken(tokenIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      for (const id of tokenIds) out.set(id, []);
      if (tokenIds.length === 0) return out;
      const rows = await db.query((c) =>
        c.sqlite.query<{ id: string; token_id: string }, [string]>(BY_TOKENS).all(JSON.stringify(tokenIds)),
      );
      for (const r of rows) out.get(r.token_id)?.push(r.id);
      return out;
    },
    /** The per-workflow secret for signed requests ("" when the workflow is gone). */
    async signingSecret(workflowId: string): Promise<string> {
      return db.query(
        (c) => c.sqlite.query<{ signing_secret: string }, [string]>(SECRET).get(workflowId)?.signing_secret ?? "",
      );
    },
  };
}
export type WorkflowsRepo = ReturnType<typeof createWorkflowsSqliteRepo>;

// SQL for workflow definitions on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { type PgDb, pgArray } from "../../db/pg/port.ts";
import { workflows } from "../../db/pg/schema/index.ts";
import type { WorkflowRow } from "../../db/schema/index.ts";
import type { WorkflowsRepo } from "./repo.ts";

export function createWorkflowsPgRepo(db: PgDb): WorkflowsRepo {
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(workflows).values(row));
    },
    async byId(userId, id): Promise<WorkflowRow | undefined> {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(workflows)
          .where(and(eq(workflows.userId, userId), eq(workflows.id, id))),
      );
      return rows[0];
    },
    async existingIds(userId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db.query((c) =>
        c.orm
          .select({ id: workflows.id })
          .from(workflows)
          .where(and(eq(workflows.userId, userId), inArray(workflows.id, ids))),
      );
      return new Set(rows.map((r) => r.id));
    },
    async list(userId, opts): Promise<WorkflowRow[]> {
      const conds = [eq(workflows.userId, userId)];
      if (opts.before) conds.push(lt(workflows.id, opts.before));
      return db.query((c) =>
        c.orm
          .select()
          .from(workflows)
          .where(and(...conds))
          .orderBy(desc(workflows.id))
          .limit(opts.limit),
      );
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(workflows).set(patch).where(eq(workflows.id, id)));
    },
    async delete(userId, id) {
      await db.exec((c) => c.orm.delete(workflows).where(and(eq(workflows.userId, userId), eq(workflows.id, id))));
    },
    async forEvent(userId, type, occurredAt) {
      const rows = await db.query(
        (c) => c.sql<{ id: string }[]>`SELECT id FROM workflows WHERE user_id = ${userId} AND event_type = ${type}
          AND active AND created_at <= ${occurredAt} ORDER BY id`,
      );
      return rows.map((r) => r.id);
    },
    async forToken(tokenId) {
      const rows = await db.query(
        (c) => c.sql<{ id: string }[]>`SELECT id FROM workflows WHERE token_id = ${tokenId} AND active ORDER BY id`,
      );
      return rows.map((r) => r.id);
    },
    async hasEventWorkflows() {
      const rows = await db.query(
        (c) => c.sql`SELECT 1 AS one FROM workflows WHERE event_type IS NOT NULL AND active LIMIT 1`,
      );
      return rows.length > 0;
    },
    async idsByToken(tokenIds) {
      const out = new Map<string, string[]>();
      for (const id of tokenIds) out.set(id, []);
      if (tokenIds.length === 0) return out;
      const rows = await db.query(
        (c) => c.sql<{ id: string; token_id: string }[]>`SELECT id, token_id FROM workflows
          WHERE token_id = ANY(${pgArray(tokenIds)}::text[]) ORDER BY id`,
      );
      for (const r of rows) out.get(r.token_id)?.push(r.id);
      return out;
    },
    async signingSecret(workflowId) {
      const rows = await db.query(
        (c) => c.sql<{ signing_secret: string }[]>`SELECT signing_secret FROM workflows WHERE id = ${workflowId}`,
      );
      return rows[0]?.signing_secret ?? "";
    },
  };
}

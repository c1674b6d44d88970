// SQL for runs and steps on PostgreSQL: the twin of runs-repo.ts, same methods and results.
import type { PgDb } from "../../db/pg/port.ts";
import type { RunRow, RunsRepo, StepRow } from "./runs-repo.ts";

export function createRunsPgRepo(db: PgDb): RunsRepo {
  return {
    async fromWorkflow(r) {
      // Parameters in a SELECT list have no column to take a type from: cast each one.
      const rows = await db.exec(
        (c) => c.sql<{ cursor: string | null }[]>`
          INSERT INTO workflow_runs (id, user_id, workflow_id, status, trigger_type, trigger_json, trigger_meta,
            actions_json, depth, chain, cursor, created_at, updated_at)
          SELECT ${r.id}::text, ${r.userId}::text, id, 'queued', ${r.triggerType}::text, ${r.triggerJson}::text,
            ${r.meta}::text, actions_json, ${r.depth}::integer, ${r.chain}::text, 'actions[0]', ${r.now}::text, ${r.now}::text
          FROM workflows WHERE id = ${r.workflowId} AND user_id = ${r.userId}
          RETURNING cursor`,
      );
      return rows[0] ?? null;
    },
    async insert(r) {
      await db.exec(
        (c) => c.sql`
          INSERT INTO workflow_runs (id, user_id, workflow_id, status, trigger_type, trigger_json, trigger_meta,
            actions_json, depth, chain, cursor, step_count, error, created_at, finished_at, updated_at)
          VALUES (${r.id}, ${r.userId}, ${r.workflowId}, ${r.status}, ${r.triggerType}, ${r.triggerJson}, ${r.meta},
            ${r.actions}, ${r.depth}, ${r.chain}, ${r.cursor}, ${r.stepCount}, ${r.error}, ${r.now}, ${r.finishedAt}, ${r.now})`,
      );
    },
    get: async (id) =>
      (await db.query((c) => c.sql<RunRow[]>`SELECT * FROM workflow_runs WHERE id = ${id}`))[0] ?? null,
    getOwned: async (userId, id) =>
      (
        await db.query((c) => c.sql<RunRow[]>`SELECT * FROM workflow_runs WHERE id = ${id} AND user_id = ${userId}`)
      )[0] ?? null,
    list: async (userId, workflowId, limit, before) =>
      db.query(
        (c) => c.sql<RunRow[]>`SELECT * FROM workflow_runs WHERE workflow_id = ${workflowId} AND user_id = ${userId}
          ${before === undefined ? c.sql`` : c.sql`AND id < ${before}`}
          ORDER BY id DESC LIMIT ${limit}`,
      ),
    steps: async (runId) =>
      db.query((c) => c.sql<StepRow[]>`SELECT * FROM workflow_steps WHERE run_id = ${runId} ORDER BY seq, started_at`),
    stepAt: async (runId, path) =>
      (
        await db.query((c) => c.sql<StepRow[]>`SELECT * FROM workflow_steps WHERE run_id = ${runId} AND path = ${path}`)
      )[0] ?? null,
    outputs: (runId) =>
      db.query(
        (c) => c.sql<{ action_id: string; output: string | null }[]>`SELECT action_id, output FROM workflow_steps
          WHERE run_id = ${runId} AND status = 'succeeded'`,
      ),
    // A crash after this commit and before the step's outcome shows as one more attempt on resume.
    async startStep(s) {
      const rows = await db.exec(
        (c) => c.sql<StepRow[]>`
          INSERT INTO workflow_steps (id, run_id, seq, path, action_id, type, status, attempts, started_at)
          VALUES (${s.id}, ${s.runId}, ${s.seq}, ${s.path}, ${s.actionId}, ${s.type}, 'running', 1, ${s.now})
          ON CONFLICT (run_id, path) DO UPDATE
            SET status = 'running', attempts = workflow_steps.attempts + 1, next_attempt_at = NULL
          RETURNING *`,
      );
      return rows[0]!;
    },
    async finishStep(s) {
      await db.exec(
        (c) => c.sql`UPDATE workflow_steps SET status = ${s.status}, input = ${s.input}, output = ${s.output},
            error = ${s.error}, log = ${s.log}, failures = ${s.failures}, next_attempt_at = ${s.nextAttemptAt},
            finished_at = ${s.finishedAt}
          WHERE id = ${s.id}`,
      );
    },
    async copyStep(fromId, id, runId, path) {
      await db.exec(
        (c) => c.sql`
          INSERT INTO workflow_steps (id, run_id, seq, path, action_id, type, status, attempts, failures, input, output,
            error, log, copied_from, started_at, finished_at)
          SELECT ${id}::text, ${runId}::text, seq, ${path}::text, action_id, type, status, attempts, failures, input,
            output, error, log, run_id, started_at, finished_at
          FROM workflow_steps WHERE id = ${fromId}`,
      );
    },
    // Compare-and-set on the cursor: a worker whose lease was taken over cannot advance the run twice.
    async advance(a) {
      const r = await db.exec(
        (c) => c.sql`UPDATE workflow_runs SET cursor = ${a.to}, step_count = step_count + 1, status = ${a.status},
            error = ${a.error}, started_at = coalesce(started_at, ${a.now}), finished_at = ${a.finishedAt},
            updated_at = ${a.now}
          WHERE id = ${a.id} AND cursor = ${a.from} AND status IN ('queued', 'running')`,
      );
      return r.count > 0;
    },
    async markRunning(id, now) {
      await db.exec(
        (c) => c.sql`UPDATE workflow_runs SET status = 'running', started_at = coalesce(started_at, ${now}),
            updated_at = ${now} WHERE id = ${id} AND status = 'queued'`,
      );
    },
    async prune(before) {
      const r = await db.exec(
        (c) => c.sql`DELETE FROM workflow_runs
          WHERE id IN (SELECT id FROM workflow_runs WHERE finished_at < ${before} LIMIT 500)`,
      );
      return r.count;
    },
  };
}

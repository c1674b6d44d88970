// SQL for runs and steps: prepared statements, synchronous, so they join the step's and the webhook's transactions.
import type { Database } from "bun:sqlite";

export interface RunRow {
  id: string;
  user_id: string;
  workflow_id: string;
  status: "queued" | "running" | "succeeded" | "failed";
  trigger_type: string;
  trigger_json: string;
  trigger_meta: string;
  actions_json: string;
  depth: number;
  chain: string;
  cursor: string | null;
  step_count: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface StepRow {
  id: string;
  run_id: string;
  seq: number;
  path: string;
  action_id: string;
  type: string;
  status: "running" | "waiting" | "succeeded" | "failed";
  attempts: number;
  failures: number;
  input: string | null;
  output: string | null;
  error: string | null;
  log: string;
  copied_from: string | null;
  next_attempt_at: string | null;
  started_at: string;
  finished_at: string | null;
}

export interface NewRun {
  id: string;
  userId: string;
  workflowId: string;
  triggerType: string;
  triggerJson: string;
  meta: string;
  depth: number;
  chain: string;
  now: string;
}

type P = Record<string, string | number | null>;

export function createRunsRepo(sqlite: Database) {
  // The actions are copied inside SQL (no JSON round trip): a run keeps the definition it started with.
  // A saved workflow has at least one action, so every run starts at actions[0].
  const fromWorkflow = sqlite.prepare<{ cursor: string | null }, [P]>(
    `INSERT INTO workflow_runs (id, user_id, workflow_id, status, trigger_type, trigger_json, trigger_meta, actions_json,
       depth, chain, cursor, created_at, updated_at)
     SELECT $id, $userId, id, 'queued', $triggerType, $triggerJson, $meta, actions_json, $depth, $chain,
       'actions[0]', $now, $now
     FROM workflows WHERE id = $workflowId AND user_id = $userId
     RETURNING cursor`,
  );
  const insertFull = sqlite.prepare<null, [P]>(
    `INSERT INTO workflow_runs (id, user_id, workflow_id, status, trigger_type, trigger_json, trigger_meta, actions_json,
       depth, chain, cursor, step_count, error, created_at, finished_at, updated_at)
     VALUES ($id, $userId, $workflowId, $status, $triggerType, $triggerJson, $meta, $actions, $depth, $chain, $cursor,
       $stepCount, $error, $now, $finishedAt, $now)`,
  );
  const get = sqlite.prepare<RunRow, [string]>(`SELECT * FROM workflow_runs WHERE id = ?`);
  const getOwned = sqlite.prepare<RunRow, [string, string]>(`SELECT * FROM workflow_runs WHERE id = ? AND user_id = ?`);
  const list = sqlite.prepare<RunRow, [P]>(
    `SELECT * FROM workflow_runs WHERE workflow_id = $workflowId AND user_id = $userId AND ($before IS NULL OR id < $before)
     ORDER BY id DESC LIMIT $limit`,
  );
  const steps = sqlite.prepare<StepRow, [string]>(`SELECT * FROM workflow_steps WHERE run_id = ? ORDER BY seq, started_at`);
  const stepAt = sqlite.prepare<StepRow, [string, string]>(`SELECT * FROM workflow_steps WHERE run_id = ? AND path = ?`);
  const outputs = sqlite.prepare<{ action_id: string; output: string | null }, [string]>(
    `SELECT action_id, output FROM workflow_steps WHERE run_id = ? AND status = 'succeeded'`,
  );
  // A crash after this commit and before the step's outcome shows as one more attempt on resume.
  const startStep = sqlite.prepare<StepRow, [P]>(
    `INSERT INTO workflow_steps (id, run_id, seq, path, action_id, type, status, attempts, started_at)
     VALUES ($id, $runId, $seq, $path, $actionId, $type, 'running', 1, $now)
     ON CONFLICT (run_id, path) DO UPDATE SET status = 'running', attempts = attempts + 1, next_attempt_at = NULL
     RETURNING *`,
  );
  const finishStep = sqlite.prepare<null, [P]>(
    `UPDATE workflow_steps SET status = $status, input = $input, output = $output, error = $error, log = $log,
       failures = $failures, next_attempt_at = $nextAttemptAt, finished_at = $finishedAt
     WHERE id = $id`,
  );
  const copyStep = sqlite.prepare<null, [P]>(
    `INSERT INTO workflow_steps (id, run_id, seq, path, action_id, type, status, attempts, failures, input, output, error, log,
       copied_from, started_at, finished_at)
     SELECT $id, $runId, seq, $path, action_id, type, status, attempts, failures, input, output, error, log, run_id, started_at, finished_at
     FROM workflow_steps WHERE id = $fromId`,
  );
  // Compare-and-set on the cursor: a worker whose lease was taken over cannot advance the run twice.
  const advance = sqlite.prepare<null, [P]>(
    `UPDATE workflow_runs SET cursor = $to, step_count = step_count + 1, status = $status, error = $error,
       started_at = coalesce(started_at, $now), finished_at = $finishedAt, updated_at = $now
     WHERE id = $id AND cursor = $from AND status IN ('queued', 'running')`,
  );
  const markRunning = sqlite.prepare<null, [string, string]>(
    `UPDATE workflow_runs SET status = 'running', started_at = coalesce(started_at, ?1), updated_at = ?1 WHERE id = ?2 AND status = 'queued'`,
  );
  const prune = sqlite.prepare<null, [string]>(
    `DELETE FROM workflow_runs WHERE id IN (SELECT id FROM workflow_runs WHERE finished_at < ? LIMIT 500)`,
  );

  return {
    /** Creates a queued run from a workflow's current actions; null when the workflow is not the user's. */
    fromWorkflow(r: NewRun): { cursor: string | null } | null {
      return fromWorkflow.get({
        id: r.id, userId: r.userId, workflowId: r.workflowId, triggerType: r.triggerType, triggerJson: r.triggerJson,
        meta: r.meta, depth: r.depth, chain: r.chain, now: r.now,
      });
    },
    insert(r: NewRun & { status: RunRow["status"]; actions: string; cursor: string | null; stepCount: number; error: string | null; finishedAt: string | null }): void {
      insertFull.run({
        id: r.id, userId: r.userId, workflowId: r.workflowId, status: r.status, triggerType: r.triggerType,
        triggerJson: r.triggerJson, meta: r.meta, actions: r.actions, depth: r.depth, chain: r.chain, cursor: r.cursor,
        stepCount: r.stepCount, error: r.error, now: r.now, finishedAt: r.finishedAt,
      });
    },
    get: (id: string): RunRow | null => get.get(id),
    getOwned: (userId: string, id: string): RunRow | null => getOwned.get(id, userId),
    list: (userId: string, workflowId: string, limit: number, before?: string): RunRow[] =>
      list.all({ userId, workflowId, limit, before: before ?? null }),
    steps: (runId: string): StepRow[] => steps.all(runId),
    stepAt: (runId: string, path: string): StepRow | null => stepAt.get(runId, path),
    outputs: (runId: string) => outputs.all(runId),
    startStep(s: { id: string; runId: string; seq: number; path: string; actionId: string; type: string; now: string }): StepRow {
      return startStep.get({ id: s.id, runId: s.runId, seq: s.seq, path: s.path, actionId: s.actionId, type: s.type, now: s.now })!;
    },
    finishStep(s: {
      id: string; status: StepRow["status"]; input: string | null; output: string | null; error: string | null; log: string;
      failures: number; nextAttemptAt: string | null; finishedAt: string | null;
    }): void {
      finishStep.run(s);
    },
    copyStep(fromId: string, id: string, runId: string, path: string): void {
      copyStep.run({ fromId, id, runId, path });
    },
    /** Moves the cursor on; false when another worker already did (the caller must roll back). */
    advance(a: { id: string; from: string; to: string | null; status: RunRow["status"]; error: string | null; finishedAt: string | null; now: string }): boolean {
      return advance.run(a).changes > 0;
    },
    markRunning(id: string, now: string): void {
      markRunning.run(now, id);
    },
    prune(before: string): number {
      return prune.run(before).changes;
    },
  };
}
export type RunsRepo = ReturnType<typeof createRunsRepo>;

// SQL for runs and steps: prepared statements through the Db port, synchronous, so they join the step's and the webhook's transactions.
import type { SqliteDb } from "../../db/port.ts";

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

// The actions are copied inside SQL (no JSON round trip): a run keeps the definition it started with.
// A saved workflow has at least one action, so every run starts at actions[0].
const FROM_WORKFLOW = `INSERT INTO workflow_runs (id, user_id, workflow_id, status, trigger_type, trigger_json, trigger_meta, actions_json,
     depth, chain, cursor, created_at, updated_at)
   SELECT $id, $userId, id, 'queued', $triggerType, $triggerJson, $meta, actions_json, $depth, $chain,
     'actions[0]', $now, $now
   FROM workflows WHERE id = $workflowId AND user_id = $userId
   RETURNING cursor`;
const INSERT_FULL = `INSERT INTO workflow_runs (id, user_id, workflow_id, status, trigger_type, trigger_json, trigger_meta, actions_json,
     depth, chain, cursor, step_count, error, created_at, finished_at, updated_at)
   VALUES ($id, $userId, $workflowId, $status, $triggerType, $triggerJson, $meta, $actions, $depth, $chain, $cursor,
     $stepCount, $error, $now, $finishedAt, $now)`;
const GET = `SELECT * FROM workflow_runs WHERE id = ?`;
const GET_OWNED = `SELECT * FROM workflow_runs WHERE id = ? AND user_id = ?`;
const LIST = `SELECT * FROM workflow_runs WHERE workflow_id = $workflowId AND user_id = $userId AND ($before IS NULL OR id < $before)
   ORDER BY id DESC LIMIT $limit`;
const STEPS = `SELECT * FROM workflow_steps WHERE run_id = ? ORDER BY seq, started_at`;
const STEP_AT = `SELECT * FROM workflow_steps WHERE run_id = ? AND path = ?`;
const OUTPUTS = `SELECT action_id, output FROM workflow_steps WHERE run_id = ? AND status = 'succeeded'`;
// A crash after this commit and before the step's outcome shows as one more attempt on resume.
const START_STEP = `INSERT INTO workflow_steps (id, run_id, seq, path, action_id, type, status, attempts, started_at)
   VALUES ($id, $runId, $seq, $path, $actionId, $type, 'running', 1, $now)
   ON CONFLICT (run_id, path) DO UPDATE SET status = 'running', attempts = attempts + 1, next_attempt_at = NULL
   RETURNING *`;
const FINISH_STEP = `UPDATE workflow_steps SET status = $status, input = $input, output = $output, error = $error, log = $log,
     failures = $failures, next_attempt_at = $nextAttemptAt, finished_at = $finishedAt
   WHERE id = $id`;
const COPY_STEP = `INSERT INTO workflow_steps (id, run_id, seq, path, action_id, type, status, attempts, failures, input, output, error, log,
     copied_from, started_at, finished_at)
   SELECT $id, $runId, seq, $path, action_id, type, status, attempts, failures, input, output, error, log, run_id, started_at, finished_at
   FROM workflow_steps WHERE id = $fromId`;
// Compare-and-set on the cursor: a worker whose lease was taken over cannot advance the run twice.
const ADVANCE = `UPDATE workflow_runs SET cursor = $to, step_count = step_count + 1, status = $status, error = $error,
     started_at = coalesce(started_at, $now), finished_at = $finishedAt, updated_at = $now
   WHERE id = $id AND cursor = $from AND status IN ('queued', 'running')`;
const MARK_RUNNING = `UPDATE workflow_runs SET status = 'running', started_at = coalesce(started_at, ?1), updated_at = ?1 WHERE id = ?2 AND status = 'queued'`;
const PRUNE = `DELETE FROM workflow_runs WHERE id IN (SELECT id FROM workflow_runs WHERE finished_at < ? LIMIT 500)`;

export function createRunsSqliteRepo(db: SqliteDb): RunsRepo {
  const run = async (sql: string, params: P): Promise<number> =>
    db.exec((c) => c.sqlite.query<null, [P]>(sql).run(params).changes);

  return {
    /** Creates a queued run from a workflow's current actions; null when the workflow is not the user's. */
    async fromWorkflow(r) {
      const params = {
        id: r.id,
        userId: r.userId,
        workflowId: r.workflowId,
        triggerType: r.triggerType,
        triggerJson: r.triggerJson,
        meta: r.meta,
        depth: r.depth,
        chain: r.chain,
        now: r.now,
      };
      return db.exec((c) => c.sqlite.query<{ cursor: string | null }, [P]>(FROM_WORKFLOW).get(params));
    },
    async insert(r) {
      await run(INSERT_FULL, {
        id: r.id,
        userId: r.userId,
        workflowId: r.workflowId,
        status: r.status,
        triggerType: r.triggerType,
        triggerJson: r.triggerJson,
        meta: r.meta,
        actions: r.actions,
        depth: r.depth,
        chain: r.chain,
        cursor: r.cursor,
        stepCount: r.stepCount,
        error: r.error,
        now: r.now,
        finishedAt: r.finishedAt,
      });
    },
    get: async (id) => db.query((c) => c.sqlite.query<RunRow, [string]>(GET).get(id)),
    getOwned: async (userId, id) =>
      db.query((c) => c.sqlite.query<RunRow, [string, string]>(GET_OWNED).get(id, userId)),
    list: async (userId, workflowId, limit, before?) =>
      db.query((c) => c.sqlite.query<RunRow, [P]>(LIST).all({ userId, workflowId, limit, before: before ?? null })),
    steps: async (runId) => db.query((c) => c.sqlite.query<StepRow, [string]>(STEPS).all(runId)),
    stepAt: async (runId, path) => db.query((c) => c.sqlite.query<StepRow, [string, string]>(STEP_AT).get(runId, path)),
    outputs: (runId) =>
      db.query((c) => c.sqlite.query<{ action_id: string; output: string | null }, [string]>(OUTPUTS).all(runId)),
    async startStep(s) {
      const params = {
        id: s.id,
        runId: s.runId,
        seq: s.seq,
        path: s.path,
        actionId: s.actionId,
        type: s.type,
        now: s.now,
      };
      return db.exec((c) => c.sqlite.query<StepRow, [P]>(START_STEP).get(params)!);
    },
    async finishStep(s) {
      await run(FINISH_STEP, s);
    },
    async copyStep(fromId, id, runId, path) {
      await run(COPY_STEP, { fromId, id, runId, path });
    },
    /** Moves the cursor on; false when another worker already did (the caller must roll back). */
    async advance(a) {
      return (await run(ADVANCE, a)) > 0;
    },
    async markRunning(id, now) {
      await db.exec((c) => c.sqlite.query<null, [string, string]>(MARK_RUNNING).run(now, id));
    },
    async prune(before) {
      return db.exec((c) => c.sqlite.query<null, [string]>(PRUNE).run(before).changes);
    },
  };
}
/** What the feature needs of its runs table(s); SQLite below, PostgreSQL in runs-pg-repo.ts (src/stores.ts chooses). */
export interface RunsRepo {
  /** Creates a queued run from a workflow's current actions; null when the workflow is not the user's. */
  fromWorkflow(r: NewRun): Promise<{
    cursor: string | null;
  } | null>;
  insert(
    r: NewRun & {
      status: RunRow["status"];
      actions: string;
      cursor: string | null;
      stepCount: number;
      error: string | null;
      finishedAt: string | null;
    },
  ): Promise<void>;
  get(id: string): Promise<RunRow | null>;
  getOwned(userId: string, id: string): Promise<RunRow | null>;
  list(userId: string, workflowId: string, limit: number, before?: string): Promise<RunRow[]>;
  steps(runId: string): Promise<StepRow[]>;
  stepAt(runId: string, path: string): Promise<StepRow | null>;
  outputs: (runId: string) => Promise<
    {
      action_id: string;
      output: string | null;
    }[]
  >;
  startStep(s: {
    id: string;
    runId: string;
    seq: number;
    path: string;
    actionId: string;
    type: string;
    now: string;
  }): Promise<StepRow>;
  finishStep(s: {
    id: string;
    status: StepRow["status"];
    input: string | null;
    output: string | null;
    error: string | null;
    log: string;
    failures: number;
    nextAttemptAt: string | null;
    finishedAt: string | null;
  }): Promise<void>;
  copyStep(fromId: string, id: string, runId: string, path: string): Promise<void>;
  /** Moves the cursor on; false when another worker already did (the caller must roll back). */
  advance(a: {
    id: string;
    from: string;
    to: string | null;
    status: RunRow["status"];
    error: string | null;
    finishedAt: string | null;
    now: string;
  }): Promise<boolean>;
  markRunning(id: string, now: string): Promise<void>;
  prune(before: string): Promise<number>;
}

// Runs: starting them (inside the caller's transaction, with their first step job), reading them, replaying them.
import type { Transactor } from "../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { defineJob } from "../../jobs/types.ts";
import { t } from "elysia";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import { StepFailure, type RunInfo } from "./actions/types.ts";
import { walkActions, type ActionDef } from "./paths.ts";
import type { WorkflowsRepo } from "./repo.ts";
import type { RunEvents } from "./run-events.ts";
import type { RunRow, RunsRepo, StepRow } from "./runs-repo.ts";
import type { RunPublic, StepPublic } from "./schema.ts";

export const STEP_JOB = defineJob("workflow.step", t.Object({ run_id: t.String(), seq: t.Integer({ minimum: 0 }) }));
/** Runs started together (one webhook batch): one job drives them all through their transactional steps. */
export const START_JOB = defineJob("workflow.runs", t.Object({ run_ids: t.Array(t.String(), { maxItems: 10_000 }) }));
// Step jobs retry through RetryLaterError up to the action's own limit (≤ 11 tries); the rest
// is headroom for attempts cut short by crashes, which also count against a job.
export const STEP_JOB_MAX_ATTEMPTS = 25;

export interface StartRun {
  userId: string;
  workflowId: string;
  triggerType: "webhook" | "event" | "workflow";
  trigger: unknown;
  meta: Record<string, unknown>;
  depth: number;
  chain: string[];
}

const parse = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

export function toPublicStep(s: StepRow): StepPublic {
  return {
    id: s.id,
    action_id: s.action_id,
    type: s.type,
    path: s.path,
    status: s.status,
    attempts: s.attempts,
    input: parse(s.input),
    output: parse(s.output),
    error: parse(s.error) as StepPublic["error"],
    log: JSON.parse(s.log) as string[],
    copied_from: s.copied_from,
    next_attempt_at: s.next_attempt_at,
    started_at: s.started_at,
    finished_at: s.finished_at,
  };
}

export function toPublicRun(r: RunRow, steps?: StepRow[]): RunPublic {
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    status: r.status,
    trigger: { type: r.trigger_type, ...(JSON.parse(r.trigger_meta) as object), data: JSON.parse(r.trigger_json) },
    depth: r.depth,
    error: parse(r.error) as RunPublic["error"],
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    updated_at: r.updated_at,
    ...(steps ? { steps: steps.map(toPublicStep) } : {}),
  };
}

export function runInfo(r: RunRow): RunInfo {
  return {
    id: r.id,
    workflowId: r.workflow_id,
    userId: r.user_id,
    depth: r.depth,
    chain: JSON.parse(r.chain) as string[],
  };
}

export function createRuns(deps: {
  db: Transactor;
  runs: RunsRepo;
  workflows: WorkflowsRepo;
  queue: JobEnqueuer;
  clock: Clock;
  runEvents: RunEvents;
}) {
  const { db, runs, workflows, queue, clock, runEvents } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();

  async function enqueueStep(runId: string, seq: number): Promise<void> {
    await queue.enqueue(
      STEP_JOB,
      { run_id: runId, seq },
      { idempotencyKey: `${runId}:${seq}`, maxAttempts: STEP_JOB_MAX_ATTEMPTS },
    );
  }

  /** Call inside the transaction that started the runs (with `job: false`). */
  async function enqueueStart(runIds: string[]): Promise<void> {
    if (runIds.length === 0) return;
    await queue.enqueue(
      START_JOB,
      { run_ids: runIds },
      { idempotencyKey: `start:${runIds[0]}`, maxAttempts: STEP_JOB_MAX_ATTEMPTS },
    );
  }

  /**
   * Call inside a transaction: the run and its first job commit together (or, with `job: false`,
   * the caller adds one START_JOB for many runs). Null: no such workflow of that user.
   */
  async function start(r: StartRun, opts: { job?: boolean } = {}): Promise<string | null> {
    const id = newId("run");
    const created = await runs.fromWorkflow({
      id,
      userId: r.userId,
      workflowId: r.workflowId,
      triggerType: r.triggerType,
      triggerJson: JSON.stringify(r.trigger ?? null),
      meta: JSON.stringify(r.meta),
      depth: r.depth,
      chain: JSON.stringify(r.chain),
      now: nowIso(),
    });
    if (!created) return null;
    if (opts.job !== false) await enqueueStep(id, 0);
    await runEvents.started(id);
    return id;
  }

  /** Records a run that was refused before it began (the loop guard), so the history says why. */
  async function refuse(r: StartRun, code: string, message: string): Promise<string> {
    const id = newId("run");
    const now = nowIso();
    await runs.insert({
      id,
      userId: r.userId,
      workflowId: r.workflowId,
      triggerType: r.triggerType,
      triggerJson: JSON.stringify(r.trigger ?? null),
      meta: JSON.stringify(r.meta),
      depth: r.depth,
      chain: JSON.stringify(r.chain),
      now,
      status: "failed",
      actions: "[]",
      cursor: null,
      stepCount: 0,
      error: JSON.stringify({ code, message }),
      finishedAt: now,
    });
    await runEvents.finished(id);
    return id;
  }

  async function startChild(
    parent: RunInfo,
    workflowId: string,
    input: unknown,
  ): Promise<{ run_id: string; workflow_id: string }> {
    const id = await start({
      userId: parent.userId,
      workflowId,
      triggerType: "workflow",
      trigger: input,
      meta: { parent_run_id: parent.id, parent_workflow_id: parent.workflowId },
      depth: parent.depth + 1,
      chain: [...parent.chain, parent.workflowId],
    });
    if (!id) throw new StepFailure("not_found", `workflow ${workflowId} does not exist`);
    return { run_id: id, workflow_id: workflowId };
  }

  async function getRow(actor: Actor, id: string): Promise<RunRow> {
    const row = await runs.getOwned(actor.userId, id);
    if (!row) throw notFound("Run");
    return row;
  }

  async function replay(actor: Actor, id: string, from: "start" | "failed"): Promise<RunPublic> {
    return db.tx(async () => {
      const orig = await getRow(actor, id);
      if (orig.status === "queued" || orig.status === "running")
        throw new AppError("conflict", "The run has not finished yet");
      const wf = await workflows.byId(actor.userId, orig.workflow_id);
      if (!wf) throw notFound("Workflow");
      const base = {
        userId: actor.userId,
        workflowId: wf.id,
        triggerType: orig.trigger_type as StartRun["triggerType"],
        trigger: JSON.parse(orig.trigger_json),
        meta: { ...(JSON.parse(orig.trigger_meta) as object), replay_of: orig.id },
        depth: orig.depth,
        chain: JSON.parse(orig.chain) as string[],
      };
      const newRunId =
        from === "start"
          ? (await start(base))!
          : await replayFromFailed(orig, JSON.parse(wf.actionsJson) as ActionDef[], base);
      return toPublicRun((await runs.get(newRunId))!, await runs.steps(newRunId));
    });
  }

  /** A new run over the current actions that reuses the finished steps and resumes at the failed one. */
  async function replayFromFailed(orig: RunRow, actions: ActionDef[], base: StartRun): Promise<string> {
    if (orig.status !== "failed")
      throw new AppError("conflict", "Only a failed run can be replayed from its failed step; use ?from=start");
    const failed = orig.cursor ? await runs.stepAt(orig.id, orig.cursor) : null;
    if (!failed) throw new AppError("conflict", "This run failed before any step ran; use ?from=start");
    const pathOf = new Map<string, string>();
    walkActions(actions, (a, path) => pathOf.set((a as ActionDef).id, path));
    const resume = pathOf.get(failed.action_id);
    if (!resume)
      throw new AppError("conflict", `Step "${failed.action_id}" is no longer in the workflow; use ?from=start`);
    const id = newId("run");
    const done = (await runs.steps(orig.id)).filter((s) => s.status === "succeeded" && pathOf.has(s.action_id));
    await runs.insert({
      id,
      userId: base.userId,
      workflowId: base.workflowId,
      triggerType: base.triggerType,
      triggerJson: orig.trigger_json,
      meta: JSON.stringify(base.meta),
      depth: base.depth,
      chain: orig.chain,
      now: nowIso(),
      status: "queued",
      actions: JSON.stringify(actions),
      cursor: resume,
      stepCount: done.length,
      error: null,
      finishedAt: null,
    });
    for (const s of done) await runs.copyStep(s.id, newId("step"), id, pathOf.get(s.action_id)!);
    await enqueueStep(id, done.length);
    await runEvents.started(id);
    return id;
  }

  return {
    start,
    enqueueStart,
    refuse,
    startChild,
    enqueueStep,
    get: async (actor: Actor, id: string): Promise<RunPublic> => {
      const row = await getRow(actor, id);
      return toPublicRun(row, await runs.steps(row.id));
    },
    async list(actor: Actor, workflowId: string, q: PageQuery): Promise<Page<RunPublic>> {
      if (!(await workflows.byId(actor.userId, workflowId))) throw notFound("Workflow");
      const page = await paginate(q.limit, q.cursor, (o) => runs.list(actor.userId, workflowId, o.limit, o.before));
      return mapPage(page, (rows) => rows.map((r) => toPublicRun(r)));
    },
    replay,
  };
}
export type Runs = ReturnType<typeof createRuns>;

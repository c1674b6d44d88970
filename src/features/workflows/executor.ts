// Executes runs: render a step, run it, then commit its outcome with the run's cursor (and the next job) at once.
import type { Transactor } from "../../db/port.ts";
import { isTransientDbError } from "../../db/transient.ts";
import { newId } from "../../ids.ts";
import { defaultBackoff, RetryLaterError } from "../../jobs/retry.ts";
import type { JobContext } from "../../jobs/types.ts";
import type { Clock } from "../../time.ts";
import { systemActor } from "../../actor.ts";
import type { ActionCatalog } from "./actions/catalog.ts";
import { StepFailure, type ActionDeps, type ActionModule, type StepEnv, type StepOutcome } from "./actions/types.ts";
import { actionAt, enterBranch, nextAfter, type ActionDef } from "./paths.ts";
import type { WorkflowsRepo } from "./repo.ts";
import { runInfo, type Runs } from "./runs.ts";
import type { RunEvents } from "./run-events.ts";
import type { RunRow, RunsRepo, StepRow } from "./runs-repo.ts";
import { buildScope } from "./scope.ts";
import { render, TemplateError } from "./templates.ts";

export interface ExecutorDeps {
  db: Transactor;
  runs: RunsRepo;
  starter: Runs;
  workflows: Pick<WorkflowsRepo, "signingSecret">;
  clock: Clock;
  /** The action types this engine runs (the composition root's list). */
  catalog: ActionCatalog;
  actions: Omit<ActionDeps, "startChildRun">;
  /** Whether this attempt of the step's job still holds it (see Queue.holdsLease). */
  holdsLease: (jobId: string, attempt: number) => Promise<boolean>;
  /** Told when a run reaches succeeded or failed (retention pruning hooks in here). */
  onFinished?: () => void;
  runEvents: RunEvents;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const shown = (p: Prepared, input: unknown) => (p.mod.redact ? p.mod.redact(input as Record<string, unknown>) : input);

/** Thrown inside a commit when the cursor had already moved: another worker finished this step. */
class AlreadyAdvanced extends Error {}

interface Prepared {
  run: RunRow;
  actions: ActionDef[];
  path: string;
  action: ActionDef;
  mod: ActionModule;
  env: StepEnv;
}

export function createExecutor(deps: ExecutorDeps) {
  const { db, runs, clock } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();
  const actionDeps: ActionDeps = { ...deps.actions, startChildRun: deps.starter.startChild };

  async function scopeOf(run: RunRow): Promise<Record<string, unknown>> {
    const steps: Record<string, unknown> = Object.create(null);
    for (const s of await runs.outputs(run.id)) steps[s.action_id] = s.output === null ? null : JSON.parse(s.output);
    return buildScope({
      runId: run.id,
      workflowId: run.workflow_id,
      depth: run.depth,
      triggerType: run.trigger_type,
      trigger: JSON.parse(run.trigger_json),
      steps,
    });
  }

  function renderInput(p: Prepared): { input: Record<string, unknown>; log: string[] } {
    const skip = new Set(["id", "type", ...(p.mod.unrendered ?? [])]);
    const raw = Object.fromEntries(Object.entries(p.action).filter(([k]) => !skip.has(k)));
    try {
      const { value, missing } = render(raw, p.env.scope);
      const input = p.mod.type === "condition" ? { if: p.action.if } : (value as Record<string, unknown>);
      return { input, log: missing.map((m) => `no value for {{ ${m} }}: rendered as ""`) };
    } catch (err) {
      if (err instanceof TemplateError)
        throw new StepFailure("template_error", `${err.jsonPath ?? ""}: ${err.message}`);
      throw err;
    }
  }

  async function startStep(p: Prepared): Promise<StepRow> {
    await runs.markRunning(p.run.id, nowIso());
    return runs.startStep({
      id: newId("step"),
      runId: p.run.id,
      seq: p.run.step_count,
      path: p.path,
      actionId: p.action.id,
      type: p.action.type,
      now: nowIso(),
    });
  }

  const nextPath = (p: Prepared, outcome: StepOutcome) =>
    outcome.branch ? enterBranch(p.actions, p.path, outcome.branch) : nextAfter(p.actions, p.path);

  /** Inside a transaction: the step's result, the run's cursor and the next step's job, together. */
  async function complete(
    p: Prepared,
    step: StepRow,
    input: unknown,
    log: string[],
    outcome: StepOutcome,
  ): Promise<void> {
    const next = nextPath(p, outcome);
    const now = nowIso();
    await runs.finishStep({
      id: step.id,
      status: "succeeded",
      input: JSON.stringify(shown(p, input)),
      output: JSON.stringify(outcome.output ?? null),
      error: null,
      log: JSON.stringify([...log, ...(outcome.log ?? [])]),
      failures: step.failures,
      nextAttemptAt: null,
      finishedAt: now,
    });
    const moved = await runs.advance({
      id: p.run.id,
      from: p.path,
      to: next,
      status: next ? "running" : "succeeded",
      error: null,
      finishedAt: next ? null : now,
      now,
    });
    if (!moved) throw new AlreadyAdvanced();
    await deps.runEvents.stepFinished(p.run.id, p.path);
    if (!next) await deps.runEvents.finished(p.run.id);
    // A transactional next step runs right after this commit in the same job (a crash before it
    // leaves that job unfinished, so it is taken over); an external one gets its own job now.
    const after = next ? actionAt(p.actions, next) : undefined;
    if (after && deps.catalog.get(after.type)?.mode === "external")
      await deps.starter.enqueueStep(p.run.id, p.run.step_count + 1);
  }

  /** Records a failed try; schedules the next one (RetryLaterError) or fails the step and the run. */
  async function fail(
    p: Prepared,
    started: boolean,
    failure: StepFailure,
    input: unknown,
    log: string[],
    ctx: JobContext,
  ): Promise<void> {
    const tries = p.mod.maxTries?.(p.action) ?? 1;
    let delay: number | null = null;
    await db.tx(async () => {
      // A try whose start was rolled back (or never written) is recorded now, so it still counts.
      const row = started ? (await runs.stepAt(p.run.id, p.path))! : await startStep(p);
      const failures = row.failures + 1;
      const retry = failure.opts.retryable === true && failures < tries && ctx.attempt < ctx.maxAttempts;
      const now = clock.now();
      if (retry) delay = failure.opts.retryAfterMs ?? defaultBackoff(failures);
      const error = { code: failure.code, message: failure.message };
      await runs.finishStep({
        id: row.id,
        status: retry ? "waiting" : "failed",
        input: input === undefined ? null : JSON.stringify(shown(p, input as Record<string, unknown>)),
        output: failure.opts.output === undefined ? null : JSON.stringify(failure.opts.output),
        error: JSON.stringify(error),
        log: JSON.stringify(log),
        failures,
        nextAttemptAt: delay === null ? null : new Date(now + delay).toISOString(),
        finishedAt: retry ? null : new Date(now).toISOString(),
      });
      if (retry) return deps.runEvents.stepFinished(p.run.id, p.path);
      const iso = new Date(now).toISOString();
      await runs.advance({
        id: p.run.id,
        from: p.path,
        to: p.path,
        status: "failed",
        error: JSON.stringify({ ...error, step: p.action.id }),
        finishedAt: iso,
        now: iso,
      });
      await deps.runEvents.stepFinished(p.run.id, p.path);
      await deps.runEvents.finished(p.run.id);
    });
    if (delay !== null) throw new RetryLaterError(delay, `step ${p.action.id}: ${failure.message}`);
    deps.onFinished?.();
  }

  async function prepare(runId: string, signal: AbortSignal): Promise<Prepared | null> {
    const run = await runs.get(runId);
    if (!run || run.cursor === null || (run.status !== "queued" && run.status !== "running")) return null;
    const actions = JSON.parse(run.actions_json) as ActionDef[];
    const action = actionAt(actions, run.cursor);
    const mod = action ? deps.catalog.get(action.type) : undefined;
    if (!action || !mod) throw new Error(`run ${run.id}: no action at ${run.cursor}`);
    const info = runInfo(run);
    const env: StepEnv = {
      run: info,
      stepId: "",
      action,
      attempt: 1,
      signal,
      actor: systemActor(run.user_id, `workflow ${run.workflow_id} run ${run.id}`, run.depth + 1),
      scope: await scopeOf(run),
      signingSecret: action.sign === true ? await deps.workflows.signingSecret(run.workflow_id) : "",
      deps: actionDeps,
    };
    return { run, actions, path: run.cursor, action, mod, env };
  }

  const asFailure = (err: unknown): StepFailure =>
    err instanceof StepFailure
      ? err
      : new StepFailure("internal_error", err instanceof Error ? err.message : String(err));

  /**
   * Drives one run: transactional steps run here one after another (each in its own commit); an
   * external step (an HTTP request) runs only in the job made for it, `ownSeq` naming its place,
   * so its retries and leases stay its own. Safe to call again for the same run at any time.
   */
  async function drive(runId: string, ownSeq: number | null, ctx: JobContext): Promise<void> {
    for (let first = true; ; first = false) {
      // Transactional steps never wait on I/O: yield between them so HTTP requests are not starved.
      await yieldToLoop();
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const p = await prepare(runId, ctx.signal);
      if (!p) return;
      if (p.mod.mode === "external" && !(first && ownSeq === p.run.step_count)) {
        // Enqueued when this step became next; enqueueing again only matters after a crash and dedupes.
        await deps.starter.enqueueStep(p.run.id, p.run.step_count);
        return;
      }
      if (!(await runOne(p, ctx))) return;
    }
  }

  /** Runs the step at the cursor; true when it succeeded and the run goes on. */
  async function runOne(p: Prepared, ctx: JobContext): Promise<boolean> {
    const prior = await runs.stepAt(p.run.id, p.path);
    p.env.attempt = (prior?.failures ?? 0) + 1;
    let rendered: { input: Record<string, unknown>; log: string[] };
    try {
      rendered = renderInput(p);
    } catch (err) {
      await fail(p, false, asFailure(err), undefined, [], ctx);
      return false;
    }
    const { input, log } = rendered;
    if (p.mod.mode === "transaction") return runInTransaction(p, input, log, ctx);
    const step = await db.tx(() => startStep(p));
    p.env.stepId = step.id;
    let outcome: StepOutcome;
    try {
      outcome = await p.mod.run(input, p.env);
    } catch (err) {
      // Stopping or a lost lease: leave the step as it is; it runs again from here.
      if (ctx.signal.aborted) throw err;
      await fail(p, true, asFailure(err), input, log, ctx);
      return false;
    }
    try {
      await db.tx(async () => {
        // A lease that ran out while this request was in flight has let another attempt take the step
        // over: its request counts, not this one's, so this result is dropped rather than recorded.
        if (!(await deps.holdsLease(ctx.jobId, ctx.attempt))) throw new AlreadyAdvanced();
        await complete(p, step, input, log, outcome);
      });
    } catch (err) {
      if (err instanceof AlreadyAdvanced) return false;
      throw err;
    }
    return goesOn(p, outcome);
  }

  async function runInTransaction(
    p: Prepared,
    input: Record<string, unknown>,
    log: string[],
    ctx: JobContext,
  ): Promise<boolean> {
    let outcome: StepOutcome;
    try {
      outcome = await db.tx(async () => {
        const step = await startStep(p);
        p.env.stepId = step.id;
        // Database work only: the action's writes commit with the step, so a retry never repeats them.
        const out = await p.mod.run(input, p.env);
        await complete(p, step, input, log, out);
        return out;
      });
    } catch (err) {
      if (err instanceof AlreadyAdvanced) return false;
      // The database's passing trouble (a serialisation failure its retries did not get past, a lost
      // connection) is not the step's fault: the job runs again later, from this same step.
      if (isTransientDbError(err)) throw err;
      await fail(p, false, asFailure(err), input, log, ctx);
      return false;
    }
    return goesOn(p, outcome);
  }

  function goesOn(p: Prepared, outcome: StepOutcome): boolean {
    if (nextPath(p, outcome)) return true;
    deps.onFinished?.();
    return false;
  }

  return {
    /** The workflow.step job: `seq` is the step this job was made for. */
    runStep: (runId: string, seq: number, ctx: JobContext) => drive(runId, seq, ctx),
    /** The workflow.runs job: new runs of one webhook batch, started together. */
    async startRuns(runIds: string[], ctx: JobContext): Promise<void> {
      for (const id of runIds) await drive(id, null, ctx);
    },
  };
}
export type Executor = ReturnType<typeof createExecutor>;

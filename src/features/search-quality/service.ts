// Search quality runs: start one (a background job; one at a time per user), follow its progress, read
// its report. The job evaluates the library (evaluate.ts), storing progress after each source and
// telling the owner's open pages (search_quality.progress, live only).
import { Type } from "@sinclair/typebox";
import { type Actor, systemActor } from "../../actor.ts";
import type { Transactor } from "../../db/port.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { defineJob } from "../../jobs/types.ts";
import type { Logger } from "../../log.ts";
import { evaluate, type EvaluateDeps, tooFewSources } from "./evaluate.ts";
import type { QualityRunRow, QualityRunsRepo } from "./repo.ts";
import {
  DEFAULT_SAMPLE,
  MAX_SEED,
  MIN_READY_SOURCES,
  type QualityReport,
  type QualityRunPublic,
  type QualityStart,
} from "./schema.ts";

export const SEARCH_QUALITY_JOB = defineJob("search.quality", Type.Object({ run_id: Type.String() }));

/** A run not heard of for this long (its process died on its last attempt) no longer blocks a new one. */
export const STALE_MS = 30 * 60_000;

export type ProgressNote = {
  id: string;
  status: QualityRunPublic["status"];
  progress: { done: number; total: number };
  percent: number;
};

export interface SearchQualityDeps extends EvaluateDeps {
  db: Transactor;
  repo: QualityRunsRepo;
  jobs: JobEnqueuer;
  logger: Logger;
  /** Tells the owner's open pages where a run is (live only, never stored). */
  publish: (userId: string, note: ProgressNote) => void;
}

export function toPublicRun(r: QualityRunRow): QualityRunPublic {
  return {
    id: r.id,
    status: r.status,
    progress: { done: r.progress, total: r.total },
    sample: r.sample,
    seed: r.seed,
    embedder: r.embedder,
    report: r.report ? (JSON.parse(r.report) as QualityReport) : null,
    error: r.error,
    created_at: r.createdAt,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
  };
}

export function createSearchQualityService(d: SearchQualityDeps) {
  const { repo, clock } = d;
  const iso = () => new Date(clock.now()).toISOString();

  const note = (r: Pick<QualityRunRow, "id" | "userId" | "status" | "progress" | "total">) =>
    d.publish(r.userId, {
      id: r.id,
      status: r.status,
      progress: { done: r.progress, total: r.total },
      percent: r.total ? Math.round((r.progress / r.total) * 100) : 0,
    });

  async function finish(row: QualityRunRow, patch: { status: "done" | "failed" } & Partial<QualityRunRow>) {
    const at = iso();
    await repo.update(row.id, { ...patch, finishedAt: at, updatedAt: at });
    note({ ...row, ...patch });
  }

  return {
    /**
     * Starts a run, or returns the one already queued or running (`created` false). 409 when the
     * library has fewer than five ready sources.
     */
    async start(actor: Actor, input: QualityStart = {}): Promise<{ run: QualityRunPublic; created: boolean }> {
      const current = await repo.active(actor.userId);
      if (current && clock.now() - Date.parse(current.updatedAt) < STALE_MS)
        return { run: toPublicRun(current), created: false };
      const ready = (await d.library.readySourceIds(actor.userId)).length;
      if (ready < MIN_READY_SOURCES) throw tooFewSources(ready);
      return d.db.tx(async () => {
        if (current) await finish(current, { status: "failed", error: "Stopped without finishing." });
        const at = iso();
        const id = newId("qualityRun");
        const inserted = await repo.insertIfIdle({
          id,
          userId: actor.userId,
          status: "queued",
          sample: input.sample ?? DEFAULT_SAMPLE,
          seed: input.seed ?? Math.floor(Math.random() * MAX_SEED),
          createdAt: at,
          updatedAt: at,
        });
        // Another start won the race: its run is the one.
        if (!inserted) return { run: toPublicRun((await repo.active(actor.userId))!), created: false };
        await d.jobs.enqueue(SEARCH_QUALITY_JOB, { run_id: id }, { idempotencyKey: id });
        return { run: toPublicRun((await repo.byIdUnscoped(id))!), created: true };
      });
    },

    /** The user's newest run, with its progress and (once done) its report. */
    async latest(actor: Actor): Promise<QualityRunPublic> {
      const [r] = await repo.recent(actor.userId, 1);
      if (!r) throw notFound("Search quality run");
      return toPublicRun(r);
    },

    /** The user's newest runs, newest first (the page compares them). */
    async recent(actor: Actor, limit = 10): Promise<QualityRunPublic[]> {
      return (await repo.recent(actor.userId, limit)).map(toPublicRun);
    },

    /** The same evaluation without a stored run (the CLI). */
    evaluate: (actor: Actor, opts: { sample: number; seed: number }) => evaluate(d, actor, opts),

    /** The job: evaluates and stores the report; a failure on the last attempt (or a 4xx) fails the run. */
    async run(runId: string, ctx: { signal?: AbortSignal; attempt: number; maxAttempts: number }): Promise<void> {
      let row = await repo.byIdUnscoped(runId);
      if (!row || row.status === "done" || row.status === "failed") return;
      const at = iso();
      // A retry starts again from the first query: the sample is the same, drawn from the same seed.
      row = { ...row, status: "running", progress: 0, startedAt: row.startedAt ?? at, updatedAt: at };
      await repo.update(row.id, { status: "running", progress: 0, startedAt: row.startedAt, updatedAt: at });
      note(row);
      const current = row;
      try {
        const report = await evaluate(d, systemActor(row.userId, "search quality"), row, {
          signal: ctx.signal,
          onStart: async ({ total, embedder }) => {
            Object.assign(current, { total, embedder });
            await repo.update(current.id, { total, embedder, updatedAt: iso() });
            note(current);
          },
          onProgress: async (done) => {
            current.progress = done;
            await repo.update(current.id, { progress: done, updatedAt: iso() });
            note(current);
          },
        });
        await finish(current, { status: "done", progress: current.total, report: JSON.stringify(report) });
      } catch (e) {
        const final = (e instanceof AppError && e.status < 500) || ctx.attempt >= ctx.maxAttempts;
        if (!final) throw e;
        if (!(e instanceof AppError)) d.logger.error("search quality run failed", { run_id: runId, error: String(e) });
        const message = e instanceof AppError ? (e.detail ?? e.message) : "The run failed; see the server log.";
        await finish(current, { status: "failed", error: message });
      }
    },
  };
}
export type SearchQualityService = ReturnType<typeof createSearchQualityService>;

// Test helpers for workflows: create one over HTTP, post to its webhook, read a run.
import { expect } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";

export async function createWorkflow(ctx: TestContext, key: string, def: Record<string, unknown>) {
  const r = await call(ctx, "POST", "/api/v1/workflows", { key, body: { name: "test", ...def } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; webhook_url?: string; signing_secret: string; trigger: { token_id?: string } };
}

/** The path part of a webhook URL, for app.handle. */
export const hookPath = (url: string) => new URL(url).pathname;

/** A webhook workflow with the given actions; returns it with its webhook path. */
export async function webhookWorkflow(ctx: TestContext, key: string, actions: unknown[]) {
  const wf = await createWorkflow(ctx, key, { trigger: { type: "webhook" }, actions });
  return { ...wf, path: hookPath(wf.webhook_url!) };
}

/** Posts to a webhook and returns the single run id it started. */
export async function fire(ctx: TestContext, path: string, body: unknown = {}, headers: Record<string, string> = {}) {
  const r = await call(ctx, "POST", path, { body, headers });
  expect(r.status, r.text).toBe(202);
  return r.body as { delivery_id: string; runs: string[] };
}

export async function getRun(ctx: TestContext, key: string, id: string) {
  const r = await call(ctx, "GET", `/api/v1/runs/${id}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body as {
    id: string;
    status: string;
    depth: number;
    error: { code: string; message: string; step?: string } | null;
    trigger: Record<string, unknown>;
    steps: {
      action_id: string;
      path: string;
      status: string;
      attempts: number;
      input: any;
      output: any;
      error: any;
      log: string[];
      next_attempt_at: string | null;
      copied_from: string | null;
    }[];
  };
}

/** Runs every due job, then returns the run. */
export async function runToEnd(ctx: TestContext, key: string, id: string) {
  await ctx.runner.drain();
  return getRun(ctx, key, id);
}

// The workflows, runs and webhooks repositories on whichever engine the test run uses (SQLite, or
// PostgreSQL with DATABASE_URL): trigger lookups, run creation from a definition, step attempts, the
// cursor's compare-and-set, replay copies, pruning, and delivery dedupe records.
import { afterEach, describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import { sqlRows } from "../../db/inspect.ts";
import type { EngineDb } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import { createWebhooksRepo } from "../webhooks/repo.ts";
import { createWorkflowsRepo } from "./repo.ts";
import { createRunsRepo } from "../../stores.ts";

const dbs: EngineDb[] = [];
afterEach(() => dbs.splice(0).forEach((d) => d.close()));

async function seedUser(db: EngineDb): Promise<string> {
  const id = newId("user");
  const at = new Date(0).toISOString();
  await sqlRows(
    db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'u', 'x', 'free', ?, ?)",
    id,
    `${id}@example.test`,
    at,
    at,
  );
  return id;
}

async function setup() {
  const db = openTestDatabase();
  dbs.push(db);
  const workflows = createWorkflowsRepo(db);
  const runs = createRunsRepo(db);
  const webhooks = createWebhooksRepo(db);
  const userId = await seedUser(db);
  const tokenId = newId("token");
  await webhooks.insert({
    id: tokenId,
    userId,
    tokenHash: `hash-${tokenId}`,
    hint: "…abcd",
    createdAt: new Date(0).toISOString(),
    regeneratedAt: null,
  });
  const addWorkflow = async (p: { event?: string; token?: string; active?: boolean; createdAt?: string } = {}) => {
    const id = newId("workflow");
    await workflows.insert({
      id,
      userId,
      name: "w",
      active: p.active ?? true,
      triggerType: p.event ? "event" : "webhook",
      tokenId: p.token ?? null,
      eventType: p.event ?? null,
      triggerJson: "{}",
      actionsJson: JSON.stringify([{ id: "a", type: "create_notebook", name: "x" }]),
      signingSecret: `secret-${id}`,
      createdAt: p.createdAt ?? "2030-01-01T00:00:00.000Z",
      updatedAt: "2030-01-01T00:00:00.000Z",
    });
    return id;
  };
  return { db, workflows, runs, webhooks, userId, tokenId, addWorkflow };
}

describe("workflows repository", () => {
  test("trigger lookups see active workflows only, event ones only if older than the event", async () => {
    const { workflows, userId, tokenId, addWorkflow } = await setup();
    expect(await workflows.hasEventWorkflows()).toBe(false);
    const onEvent = await addWorkflow({ event: "source.created" });
    await addWorkflow({ event: "source.created", active: false });
    await addWorkflow({ event: "source.created", createdAt: "2031-01-01T00:00:00.000Z" });
    const [w1, w2] = [await addWorkflow({ token: tokenId }), await addWorkflow({ token: tokenId })];
    const off = await addWorkflow({ token: tokenId, active: false });
    expect(await workflows.hasEventWorkflows()).toBe(true);
    expect(await workflows.forEvent(userId, "source.created", "2030-06-01T00:00:00.000Z")).toEqual([onEvent]);
    expect(await workflows.forEvent("usr_other", "source.created", "2030-06-01T00:00:00.000Z")).toEqual([]);
    expect(await workflows.forToken(tokenId)).toEqual([w1, w2]);
    const byToken = await workflows.idsByToken([tokenId, "whk_none"]);
    expect(byToken.get(tokenId)).toEqual([w1, w2, off].sort());
    expect(byToken.get("whk_none")).toEqual([]);
    expect(await workflows.signingSecret(w1)).toBe(`secret-${w1}`);
    expect(await workflows.signingSecret("wf_gone")).toBe("");
    expect(await workflows.existingIds(userId, [w1, "wf_gone"])).toEqual(new Set([w1]));
    await workflows.update(w1, { active: false });
    expect((await workflows.byId(userId, w1))?.active).toBe(false);
    expect((await workflows.list(userId, { limit: 2 })).length).toBe(2);
    await workflows.delete(userId, w2);
    expect(await workflows.byId(userId, w2)).toBeUndefined();
  });
});

describe("runs repository", () => {
  const now = "2030-01-02T00:00:00.000Z";
  const newRun = (userId: string, workflowId: string) => ({
    id: newId("run"),
    userId,
    workflowId,
    triggerType: "webhook",
    triggerJson: '{"a":1}',
    meta: "{}",
    depth: 2,
    chain: "[]",
    now,
  });

  test("a run copies its workflow's actions; another user's workflow starts nothing", async () => {
    const { runs, userId, addWorkflow } = await setup();
    const wf = await addWorkflow();
    const r = newRun(userId, wf);
    expect(await runs.fromWorkflow(r)).toEqual({ cursor: "actions[0]" });
    expect(await runs.fromWorkflow(newRun("usr_other", wf))).toBeNull();
    const row = await runs.get(r.id);
    expect(row).toMatchObject({ status: "queued", depth: 2, step_count: 0, cursor: "actions[0]", created_at: now });
    expect(JSON.parse(row!.actions_json)).toEqual([{ id: "a", type: "create_notebook", name: "x" }]);
    expect(await runs.getOwned("usr_other", r.id)).toBeNull();
    expect((await runs.list(userId, wf, 10)).map((x) => x.id)).toEqual([r.id]);
    expect(await runs.list(userId, wf, 10, r.id)).toEqual([]);
  });

  test("a step started again counts an attempt; the cursor moves once per from; replay copies steps", async () => {
    const { runs, userId, addWorkflow } = await setup();
    const wf = await addWorkflow();
    const r = newRun(userId, wf);
    await runs.fromWorkflow(r);
    await runs.markRunning(r.id, now);
    const step = {
      id: newId("step"),
      runId: r.id,
      seq: 0,
      path: "actions[0]",
      actionId: "a",
      type: "create_notebook",
      now,
    };
    expect(await runs.startStep(step)).toMatchObject({ status: "running", attempts: 1 });
    expect(await runs.startStep({ ...step, id: newId("step") })).toMatchObject({ id: step.id, attempts: 2 });
    await runs.finishStep({
      id: step.id,
      status: "succeeded",
      input: "{}",
      output: '{"ok":true}',
      error: null,
      log: "[]",
      failures: 0,
      nextAttemptAt: null,
      finishedAt: now,
    });
    expect(await runs.outputs(r.id)).toEqual([{ action_id: "a", output: '{"ok":true}' }]);
    const advance = {
      id: r.id,
      from: "actions[0]",
      to: null,
      status: "succeeded" as const,
      error: null,
      finishedAt: now,
      now,
    };
    expect(await runs.advance(advance)).toBe(true);
    expect(await runs.advance(advance)).toBe(false);
    expect(await runs.get(r.id)).toMatchObject({ status: "succeeded", step_count: 1, cursor: null, started_at: now });

    const replay = newRun(userId, wf);
    await runs.fromWorkflow(replay);
    await runs.copyStep(step.id, newId("step"), replay.id, "actions[0]");
    expect(await runs.stepAt(replay.id, "actions[0]")).toMatchObject({
      copied_from: r.id,
      status: "succeeded",
      attempts: 2,
      output: '{"ok":true}',
    });
    expect((await runs.steps(replay.id)).length).toBe(1);
  });

  test("prune removes finished runs before the cut-off only", async () => {
    const { runs, userId, addWorkflow } = await setup();
    const wf = await addWorkflow();
    const old = {
      ...newRun(userId, wf),
      status: "failed" as const,
      actions: "[]",
      cursor: null,
      stepCount: 0,
      error: "x",
    };
    await runs.insert({ ...old, finishedAt: "2030-01-01T00:00:00.000Z" });
    const recent = { ...old, id: newId("run"), finishedAt: "2030-03-01T00:00:00.000Z" };
    await runs.insert(recent);
    expect(await runs.prune("2030-02-01T00:00:00.000Z")).toBe(1);
    expect(await runs.get(old.id)).toBeNull();
    expect(await runs.get(recent.id)).not.toBeNull();
  });
});

describe("webhooks repository", () => {
  test("tokens by hash; deliveries found by dedupe key, dropped and pruned", async () => {
    const { webhooks, userId, tokenId } = await setup();
    expect(await webhooks.byHash(`hash-${tokenId}`)).toEqual({ id: tokenId, userId });
    expect(await webhooks.byHash("nope")).toBeUndefined();
    await webhooks.setHash(tokenId, "hash-new", "…wxyz", "2030-01-01T00:00:00.000Z");
    expect(await webhooks.byHash("hash-new")).toEqual({ id: tokenId, userId });
    expect((await webhooks.list(userId, { limit: 5 })).map((t) => t.hint)).toEqual(["…wxyz"]);
    expect(await webhooks.existingIds(userId, [tokenId, "whk_x"])).toEqual(new Set([tokenId]));

    const d = { id: newId("delivery"), tokenId, dedupeKey: "k1", runIds: ["run_1"], receivedAt: 1_000 };
    await webhooks.insertDelivery(d);
    await webhooks.insertDelivery({ ...d, id: newId("delivery"), dedupeKey: null, receivedAt: 5_000 });
    expect(await webhooks.findDelivery(tokenId, "k1")).toEqual({ id: d.id, run_ids: '["run_1"]', received_at: 1_000 });
    expect(await webhooks.findDelivery(tokenId, "k2")).toBeNull();
    expect(await webhooks.pruneDeliveries(2_000)).toBe(1);
    expect(await webhooks.findDelivery(tokenId, "k1")).toBeNull();
    await webhooks.insertDelivery({ ...d, id: newId("delivery") });
    const again = await webhooks.findDelivery(tokenId, "k1");
    await webhooks.dropDelivery(again!.id);
    expect(await webhooks.findDelivery(tokenId, "k1")).toBeNull();
    await webhooks.delete(userId, tokenId);
    expect(await webhooks.byId(userId, tokenId)).toBeUndefined();
  });
});

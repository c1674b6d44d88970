// Run events on the live stream: a run's start, each step's end (including a retry's wait) and its
// outcome, in order; they never start event-triggered workflows.
import { afterEach, describe, expect, test } from "bun:test";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { startTestServer, type TestServer } from "../../net/test-server.ts";
import { dataOf, sseReader } from "../events/sse-client.ts";
import { createWorkflow, fire, runToEnd, webhookWorkflow } from "./testing.ts";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

const stream = (ctx: TestContext, key: string) =>
  ctx.app.handle(new Request("http://localhost/api/v1/events/stream", { headers: { authorization: `Bearer ${key}` } }));

const runEventsOf = async (ctx: TestContext, userId: string) =>
  (
    await sqlRows<{ type: string; data: string }>(
      ctx.db,
      "SELECT type, data FROM events WHERE user_id = ? AND type LIKE 'run.%' ORDER BY seq",
      userId,
    )
  ).map((r) => ({ type: r.type, data: JSON.parse(r.data) }));

describe("run events", () => {
  test("a succeeding run: started, one step_finished per step, succeeded — live on the stream", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "one", type: "create_notebook", name: "first {{ n }}" },
      { id: "two", type: "create_notebook", name: "second {{ n }}" },
    ]);
    const sse = sseReader(await stream(ctx, a.key));
    const runId = (await fire(ctx, wf.path, { n: 1, secret: "not in events" })).runs[0]!;
    await runToEnd(ctx, a.key, runId);
    const seen: { type: string; step?: string; status: string }[] = [];
    while (seen.at(-1)?.type !== "run.succeeded") {
      const e = dataOf(await sse.event());
      if (!e.type.startsWith("run.")) continue;
      expect(e.data.id).toBe(runId);
      seen.push({ type: e.type, step: e.data.step?.action_id, status: e.data.step?.status ?? e.data.status });
    }
    expect(seen).toEqual([
      { type: "run.started", step: undefined, status: "queued" },
      { type: "run.step_finished", step: "one", status: "succeeded" },
      { type: "run.step_finished", step: "two", status: "succeeded" },
      { type: "run.succeeded", step: undefined, status: "succeeded" },
    ]);
    // The trigger body stays out of the events.
    expect(JSON.stringify(await runEventsOf(ctx, a.userId))).not.toContain("not in events");
    await sse.cancel();
  });

  test("a failing step reports its retry wait, then the failure of step and run", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const server = startTestServer(() => new Response("down", { status: 503, headers: { "retry-after": "0" } }));
    servers.push(server);
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "call", type: "http_request", method: "POST", url: `http://127.0.0.1:${server.port}/x`, retries: 1 },
    ]);
    const runId = (await fire(ctx, wf.path, {})).runs[0]!;
    const run = await runToEnd(ctx, a.key, runId);
    expect(run.status).toBe("failed");
    const events = (await runEventsOf(ctx, a.userId)).map((e) => [e.type, e.data.step?.status ?? e.data.status]);
    expect(events).toEqual([
      ["run.started", "queued"],
      ["run.step_finished", "waiting"],
      ["run.step_finished", "failed"],
      ["run.failed", "failed"],
    ]);
    expect((await runEventsOf(ctx, a.userId)).at(-1)!.data.error).toMatchObject({ step: "call" });
  }, 30_000);

  test("run events never trigger workflows nor queue dispatch jobs", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    await createWorkflow(ctx, a.key, {
      trigger: { type: "event", event: "notebook.deleted" },
      actions: [{ id: "x", type: "create_notebook", name: "never" }],
    });
    const wf = await webhookWorkflow(ctx, a.key, [{ id: "one", type: "create_notebook", name: "made" }]);
    const runId = (await fire(ctx, wf.path, {})).runs[0]!;
    await runToEnd(ctx, a.key, runId);
    const dispatchJobs = (await sqlRow<{ n: number }>(
      ctx.db,
      "SELECT count(*) AS n FROM jobs WHERE type = 'workflow.dispatch'",
    ))!.n;
    // One dispatch for notebook.created (a trigger type); none for the four run events.
    expect(dispatchJobs).toBe(1);
    expect((await runEventsOf(ctx, a.userId)).map((e) => e.type)).toEqual([
      "run.started",
      "run.step_finished",
      "run.succeeded",
    ]);
  });
});

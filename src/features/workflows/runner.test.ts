// Running workflows end to end: conditions, chaining with its limits, event triggers and the loop
// guard, replay, and resuming after a worker died mid-step.
import { afterEach, describe, expect, test } from "bun:test";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { fakeClock } from "../../jobs/testing.ts";
import { Type as T } from "@sinclair/typebox";
import type { ActionModule } from "./actions/types.ts";
import { startTestServer, type TestServer } from "../../net/test-server.ts";
import { createWorkflow, fire, getRun, runToEnd, webhookWorkflow } from "./testing.ts";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

function receiver(handler: (n: number) => Response) {
  let n = 0;
  const s = startTestServer(() => handler(++n));
  servers.push(s);
  return { ...s, url: `http://127.0.0.1:${s.port}` };
}

async function setup(opts: { clock?: ReturnType<typeof fakeClock> } = {}) {
  const ctx = createTestContext({}, opts);
  return { ctx, a: await userWithKey(ctx), b: await userWithKey(ctx) };
}

const notebooks = async (ctx: TestContext, userId: string) =>
  (await sqlRows<{ name: string }>(ctx.db, "SELECT name FROM notebooks WHERE user_id = ? ORDER BY id", userId)).map(
    (r) => r.name,
  );

describe("conditions", () => {
  test("each branch runs only its own actions, then the run continues after the condition", async () => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, [
      {
        id: "big",
        type: "condition",
        if: {
          all: [
            { left: "{{ n }}", op: "gte", right: 10 },
            { left: "{{ tags }}", op: "contains", right: "x" },
          ],
        },
        then: [{ id: "yes", type: "create_notebook", name: "big {{ n }}" }],
        else: [{ id: "no", type: "create_notebook", name: "small {{ n }}" }],
      },
      { id: "end", type: "create_notebook", name: "end {{ steps.big.branch }}" },
    ]);
    const hi = await runToEnd(ctx, a.key, (await fire(ctx, wf.path, { n: "12", tags: ["x"] })).runs[0]!);
    const lo = await runToEnd(ctx, a.key, (await fire(ctx, wf.path, { n: 3, tags: ["x"] })).runs[0]!);
    expect(hi.steps.map((s) => s.action_id)).toEqual(["big", "yes", "end"]);
    expect(lo.steps.map((s) => s.action_id)).toEqual(["big", "no", "end"]);
    expect(hi.steps[0]!.output.clauses).toEqual([
      { left: "12", op: "gte", right: 10, result: true },
      { left: ["x"], op: "contains", right: "x", result: true },
    ]);
    expect(await notebooks(ctx, a.userId)).toEqual(["big 12", "end then", "small 3", "end else"]);
  });
});

describe("run_workflow", () => {
  test("the input becomes the child's trigger; the child is one level deeper", async () => {
    const { ctx, a } = await setup();
    const child = await webhookWorkflow(ctx, a.key, [
      { id: "nb", type: "create_notebook", name: "child {{ x }} {{ trigger.list | json }}" },
    ]);
    const parent = await webhookWorkflow(ctx, a.key, [
      { id: "call", type: "run_workflow", workflow_id: child.id, input: { x: "{{ name }}", list: "{{ list }}" } },
    ]);
    const run = await runToEnd(ctx, a.key, (await fire(ctx, parent.path, { name: "Ann", list: [1, 2] })).runs[0]!);
    expect(run.status).toBe("succeeded");
    const childRun = await getRun(ctx, a.key, run.steps[0]!.output.run_id);
    expect(childRun).toMatchObject({
      status: "succeeded",
      depth: 1,
      trigger: { type: "workflow", parent_run_id: run.id, data: { x: "Ann", list: [1, 2] } },
    });
    expect(await notebooks(ctx, a.userId)).toEqual(["child Ann [1,2]"]);
  });

  test("chains stop at depth 5 and cycles are refused; both are recorded on the step", async () => {
    const { ctx, a } = await setup();
    let next = await webhookWorkflow(ctx, a.key, [{ id: "leaf", type: "create_notebook", name: "leaf" }]);
    for (let i = 0; i < 5; i++)
      next = await webhookWorkflow(ctx, a.key, [{ id: "call", type: "run_workflow", workflow_id: next.id }]);
    const top = await runToEnd(ctx, a.key, (await fire(ctx, next.path)).runs[0]!);
    let run = top;
    const depths: number[] = [];
    while (run.steps[0]?.output?.run_id) {
      depths.push(run.depth);
      run = await getRun(ctx, a.key, run.steps[0].output.run_id);
    }
    expect(depths).toEqual([0, 1, 2, 3]);
    expect(run).toMatchObject({ depth: 4, status: "failed", error: { code: "depth_limit" } });
    expect(await notebooks(ctx, a.userId)).toEqual([]);

    const one = await webhookWorkflow(ctx, a.key, [{ id: "nb", type: "create_notebook", name: "x" }]);
    const two = await webhookWorkflow(ctx, a.key, [{ id: "back", type: "run_workflow", workflow_id: one.id }]);
    await call(ctx, "PATCH", `/api/v1/workflows/${one.id}`, {
      key: a.key,
      body: { actions: [{ id: "go", type: "run_workflow", workflow_id: two.id }] },
    });
    const first = await runToEnd(ctx, a.key, (await fire(ctx, one.path)).runs[0]!);
    const second = await getRun(ctx, a.key, first.steps[0]!.output.run_id);
    expect(second.status).toBe("failed");
    expect(second.steps[0]!.error.code).toBe("cycle_detected");
    expect(second.steps[0]!.error.message).toContain(`${one.id} → ${two.id} → ${one.id}`);
  });

  test("another user's workflow cannot be started", async () => {
    const { ctx, a, b } = await setup();
    const theirs = await webhookWorkflow(ctx, b.key, [{ id: "nb", type: "create_notebook", name: "x" }]);
    const mine = await webhookWorkflow(ctx, a.key, [{ id: "call", type: "run_workflow", workflow_id: "{{ target }}" }]);
    const run = await runToEnd(ctx, a.key, (await fire(ctx, mine.path, { target: theirs.id })).runs[0]!);
    expect(run.steps[0]!.error).toMatchObject({ code: "not_found" });
    expect(await notebooks(ctx, b.userId)).toEqual([]);
  });
});

describe("event triggers", () => {
  test("each event starts one run per matching active workflow, exactly once", async () => {
    const { ctx, a, b } = await setup();
    const wf = await createWorkflow(ctx, a.key, {
      trigger: { type: "event", event: "notebook.created" },
      actions: [{ id: "c", type: "condition", if: { all: [{ left: "{{ name }}", op: "starts_with", right: "In" }] } }],
    });
    await createWorkflow(ctx, a.key, {
      active: false,
      trigger: { type: "event", event: "notebook.created" },
      actions: [{ id: "c", type: "condition", if: { any: [] } }],
    });
    await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Inbox" } });
    await call(ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "Theirs" } });
    await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "not a notebook" } });
    expect(await ctx.services.workflows.dispatcher.runOnce()).toBe(1);
    expect(await ctx.services.workflows.dispatcher.runOnce()).toBe(0);
    await ctx.runner.drain();
    const runs = (await call(ctx, "GET", `/api/v1/workflows/${wf.id}/runs`, { key: a.key })).body.data;
    expect(runs).toHaveLength(1);
    const run = await getRun(ctx, a.key, runs[0].id);
    expect(run).toMatchObject({
      status: "succeeded",
      depth: 0,
      trigger: {
        type: "event",
        event_type: "notebook.created",
        data: { type: "notebook.created", data: { name: "Inbox" } },
      },
    });
    expect(run.steps[0]!.output.result).toBe(true);
  });

  test("the loop guard: a source.created workflow that creates sources stops at depth 5 and says why", async () => {
    const { ctx, a } = await setup();
    const wf = await createWorkflow(ctx, a.key, {
      trigger: { type: "event", event: "source.created" },
      actions: [{ id: "again", type: "create_source", url: "{{ url }}x" }],
    });
    await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "http://127.0.0.1:9/loop/" } });
    // The runner's own dispatch jobs carry the loop; run them until nothing is due.
    for (let i = 0; i < 10; i++) await ctx.runner.drain();
    const runs = (await call(ctx, "GET", `/api/v1/workflows/${wf.id}/runs`, { key: a.key })).body.data.reverse();
    expect(runs.map((r: { depth: number; status: string }) => [r.depth, r.status])).toEqual([
      [0, "succeeded"],
      [1, "succeeded"],
      [2, "succeeded"],
      [3, "succeeded"],
      [4, "succeeded"],
      [5, "failed"],
    ]);
    expect(runs[5].error.code).toBe("depth_limit");
    const sources = (await sqlRow<{ n: number }>(ctx.db, "SELECT count(*) AS n FROM sources"))!;
    expect(sources.n).toBe(6);
  });
});

describe("replay", () => {
  test("from the failed step reuses finished steps; from start runs everything again", async () => {
    const { ctx, a, b } = await setup();
    const rx = receiver((n) => (n === 1 ? new Response("bad", { status: 400 }) : Response.json({ ok: true })));
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "first", type: "create_notebook", name: "first {{ n }}" },
      { id: "send", type: "http_request", url: rx.url, body: { nb: "{{ steps.first.notebook.id }}" }, retries: 0 },
      { id: "after", type: "create_notebook", name: "after" },
    ]);
    const failed = await runToEnd(ctx, a.key, (await fire(ctx, wf.path, { n: 1 })).runs[0]!);
    expect(failed).toMatchObject({ status: "failed", error: { code: "http_400", step: "send" } });
    expect((await call(ctx, "POST", `/api/v1/runs/${failed.id}/replay`, { key: b.key })).status).toBe(404);
    const replay = await call(ctx, "POST", `/api/v1/runs/${failed.id}/replay`, { key: a.key });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({
      status: "queued",
      trigger: { type: "webhook", replay_of: failed.id, data: { n: 1 } },
    });
    const again = await runToEnd(ctx, a.key, replay.body.id);
    expect(again.status).toBe("succeeded");
    expect(again.steps.map((s) => [s.action_id, s.copied_from])).toEqual([
      ["first", failed.id],
      ["send", null],
      ["after", null],
    ]);
    expect(JSON.parse(rx.seen[1]!.body).nb).toBe(failed.steps[0]!.output.notebook.id);
    expect(await notebooks(ctx, a.userId)).toEqual(["first 1", "after"]);
    expect((await call(ctx, "POST", `/api/v1/runs/${again.id}/replay`, { key: a.key })).status).toBe(409);
    const fromStart = await call(ctx, "POST", `/api/v1/runs/${again.id}/replay?from=start`, { key: a.key });
    expect(fromStart.status).toBe(202);
    expect(
      (await call(ctx, "POST", `/api/v1/runs/${fromStart.body.id}/replay?from=start`, { key: a.key })).status,
    ).toBe(409);
    await ctx.runner.drain();
    expect(await notebooks(ctx, a.userId)).toEqual(["first 1", "after", "first 1", "after"]);
  });
});

describe("resuming", () => {
  test("a step whose worker died is reclaimed after its lease; finished steps are not repeated", async () => {
    const clock = fakeClock(Date.now());
    const { ctx, a } = await setup({ clock });
    const rx = receiver(() => new Response("ok"));
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "one", type: "http_request", url: rx.url },
      { id: "two", type: "http_request", url: rx.url },
    ]);
    const { runs } = await fire(ctx, wf.path);
    await ctx.runner.runDue(); // the webhook's start job hands step one to a job of its own
    await ctx.runner.runDue(); // step one
    // A worker takes step two and dies before doing anything.
    const [job] = await ctx.queue.claim("dead-worker", 1, 5_000, ["workflow.step"]);
    expect(job).toBeDefined();
    expect((await runToEnd(ctx, a.key, runs[0]!)).status).toBe("running");
    clock.advance(5_001);
    const run = await runToEnd(ctx, a.key, runs[0]!);
    expect(run.status).toBe("succeeded");
    expect(rx.seen.map((s) => s.headers["idempotency-key"])).toEqual([`${runs[0]}:one`, `${runs[0]}:two`]);
  });

  test("a database error that may pass (serialisation failure, lost connection) retries the step's job; the run goes on", async () => {
    const clock = fakeClock(Date.now());
    let calls = 0;
    // Stands in for a database connection lost mid-transaction: what the driver throws then. (A
    // serialisation failure would be retried inside db.tx on PostgreSQL before it reached the step.)
    const busy: ActionModule = {
      type: "busy_database",
      title: "Busy database",
      idBase: "busy",
      fields: [],
      outputs: ["calls"],
      schema: T.Object({ id: T.String(), type: T.Literal("busy_database") }),
      available: true,
      mode: "transaction",
      run() {
        if (++calls === 1) throw Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
        return { output: { calls } };
      },
    };
    const ctx = createTestContext({}, { clock, actions: [busy] });
    const a = await userWithKey(ctx);
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "tx", type: "busy_database" },
      { id: "nb", type: "create_notebook", name: "after" },
    ]);
    const { runs } = await fire(ctx, wf.path);
    const first = await runToEnd(ctx, a.key, runs[0]!);
    expect(first.status).toBe("queued"); // the step's commit rolled back: nothing recorded, nothing failed
    expect(first.steps).toEqual([]);
    clock.advance(60_000); // past the job's backoff
    const run = await runToEnd(ctx, a.key, runs[0]!);
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((s) => [s.action_id, s.status])).toEqual([
      ["tx", "succeeded"],
      ["nb", "succeeded"],
    ]);
    expect(calls).toBe(2);
    expect(await notebooks(ctx, a.userId)).toEqual(["after"]);
  });

  test("running a finished step's job again changes nothing", async () => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, [{ id: "nb", type: "create_notebook", name: "once" }]);
    const { runs } = await fire(ctx, wf.path);
    await ctx.runner.drain();
    const job = {
      jobId: "j",
      attempt: 1,
      maxAttempts: 1,
      signal: new AbortController().signal,
      logger: ctx.services.logger,
    };
    await ctx.services.workflows.executor.runStep(runs[0]!, 0, job);
    expect(await notebooks(ctx, a.userId)).toEqual(["once"]);
    expect((await getRun(ctx, a.key, runs[0]!)).steps).toHaveLength(1);
  });
});

describe("retention", () => {
  test("finished runs older than RUN_RETENTION_DAYS are pruned", async () => {
    const clock = fakeClock(Date.now());
    const { ctx, a } = await setup({ clock });
    const wf = await webhookWorkflow(ctx, a.key, [{ id: "c", type: "condition", if: { any: [] } }]);
    const old = (await fire(ctx, wf.path)).runs[0]!;
    await ctx.runner.drain();
    clock.advance(31 * 24 * 3600 * 1000);
    const fresh = (await fire(ctx, wf.path)).runs[0]!;
    expect((await ctx.services.workflows.prune()).runs).toBe(1);
    expect((await call(ctx, "GET", `/api/v1/runs/${old}`, { key: a.key })).status).toBe(404);
    expect((await call(ctx, "GET", `/api/v1/runs/${fresh}`, { key: a.key })).status).toBe(200);
  });
});

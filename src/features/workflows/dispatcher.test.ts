// The events outbox is claimed, not read after a cursor: a late commit is still dispatched, two
// dispatchers never double a run, and a dispatcher that died after claiming is replaced after its lease.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { testConfig } from "../../config.ts";
import { openDatabase, type EngineDb } from "../../db/client.ts";
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { fakeClock } from "../../jobs/testing.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { systemActor, type Actor } from "../../actor.ts";
import { createEventsRepo } from "../../stores.ts";
import { createDispatcher } from "./dispatcher.ts";
import { createWorkflow } from "./testing.ts";

const dirs: string[] = [];
const dbs: EngineDb[] = [];
afterEach(() => {
  dbs.splice(0).forEach((d) => d.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const ON_NOTEBOOK = {
  trigger: { type: "event", event: "notebook.created" },
  actions: [{ id: "c", type: "condition", if: { any: [] } }],
};

/** Runs started per event id (every run of an event-triggered workflow names its event). */
async function runsPerEvent(db: EngineDb): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const r of await sqlRows<{ trigger_meta: string }>(db, "SELECT trigger_meta FROM workflow_runs ORDER BY id")) {
    const id = (JSON.parse(r.trigger_meta) as { event_id: string }).event_id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

const eventIds = async (db: EngineDb, type = "notebook.created") =>
  (await sqlRows<{ id: string }>(db, "SELECT id FROM events WHERE type = ? ORDER BY seq", type)).map((r) => r.id);

async function setup(clock = fakeClock()) {
  const ctx = createTestContext({}, { clock });
  const a = await userWithKey(ctx);
  await createWorkflow(ctx, a.key, ON_NOTEBOOK);
  const actor = systemActor(a.userId, "test");
  return { ctx, clock, actor };
}

const newNotebook = (ctx: TestContext, actor: Actor, name: string) => ctx.services.notebooks.create(actor, { name });

describe("event dispatch", () => {
  test("an event that commits after a later one was dispatched is still dispatched", async () => {
    const { ctx, actor } = await setup();
    const { dispatcher } = ctx.services.workflows;
    await newNotebook(ctx, actor, "Late");
    // Stand-in for a writer whose transaction took a sequence number first but commits last:
    // its row is invisible while the later event is dispatched, then appears with the lower seq.
    // A plain table, not a temporary one: on PostgreSQL each statement may run on another pooled connection.
    await sqlRows(ctx.db, "CREATE TABLE held_events AS SELECT * FROM events WHERE type = 'notebook.created'");
    await sqlRows(ctx.db, "DELETE FROM events WHERE type = 'notebook.created'");
    await newNotebook(ctx, actor, "Early");
    expect(await dispatcher.runOnce()).toBe(1);
    expect(await dispatcher.pending()).toBe(false);
    await sqlRows(ctx.db, "INSERT INTO events SELECT * FROM held_events");
    const [late, early] = await eventIds(ctx.db);
    const seqOf = async (id: string) =>
      (await sqlRow<{ seq: number }>(ctx.db, "SELECT seq FROM events WHERE id = ?", id))!.seq;
    expect(await seqOf(late!)).toBeLessThan(await seqOf(early!));
    expect(await dispatcher.pending()).toBe(true);
    expect(await dispatcher.runOnce()).toBe(1);
    expect(await dispatcher.runOnce()).toBe(0);
    expect(await runsPerEvent(ctx.db)).toEqual(
      new Map([
        [early!, 1],
        [late!, 1],
      ]),
    );
  });

  test("drain() waits for the jobs a commit's listeners queue, however late they queue them", async () => {
    // The dispatcher's own kick needs a few round trips after the commit (PostgreSQL): here a
    // listener takes 30 ms more before it queues a dispatch, and drain() still runs what it queued.
    let ctx!: TestContext;
    let queued = 0;
    const late = async () => {
      await new Promise((r) => setTimeout(r, 30));
      await ctx.services.workflows.dispatcher.kick();
      queued++;
    };
    ctx = createTestContext({}, { listeners: { eventsRecorded: late } });
    const a = await userWithKey(ctx);
    await createWorkflow(ctx, a.key, ON_NOTEBOOK);
    await newNotebook(ctx, systemActor(a.userId, "test"), "Slow");
    await ctx.runner.drain();
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(await ctx.services.events.settled()).toBeUndefined();
    expect([...(await runsPerEvent(ctx.db)).values()]).toEqual([1]);
    expect((await ctx.queue.counts()).queued).toBe(0);
  });

  test("events that can never trigger a workflow are written already dispatched", async () => {
    const { ctx, actor } = await setup();
    await newNotebook(ctx, actor, "One");
    await ctx.services.events.record(actor, "run.started", { id: "run_x" });
    const rows = (
      await sqlRows<{ type: string; dispatched: number | boolean }>(
        ctx.db,
        "SELECT type, dispatched_at IS NOT NULL AS dispatched FROM events ORDER BY seq",
      )
    ).map((r) => ({ type: r.type, dispatched: Number(r.dispatched) }));
    expect(rows).toEqual([
      { type: "notebook.created", dispatched: 0 },
      { type: "run.started", dispatched: 1 },
    ]);
  });

  test("a dispatcher that claimed and died: its events wait for the lease, then are dispatched once", async () => {
    const { ctx, clock, actor } = await setup();
    const { dispatcher } = ctx.services.workflows;
    await newNotebook(ctx, actor, "One");
    await newNotebook(ctx, actor, "Two");
    const leaseMs = ctx.config.jobs.leaseMs;
    // The claim of a dispatcher that crashed before marking anything.
    const claimed = await createEventsRepo(ctx.db).claimPending({
      now: clock.now(),
      leaseUntil: clock.now() + leaseMs,
      limit: 200,
    });
    expect(claimed).toHaveLength(2);
    expect(await dispatcher.runOnce()).toBe(0);
    expect(await dispatcher.pending()).toBe(true);
    // A dispatch job is due when the dead claim runs out, so nothing waits for the next event.
    const followUp = await sqlRow<{ run_at: number }>(
      ctx.db,
      "SELECT run_at FROM jobs WHERE type = 'workflow.dispatch' AND idempotency_key LIKE 'lease:%'",
    );
    expect(followUp?.run_at).toBe(clock.now() + leaseMs);
    clock.advance(leaseMs - 1);
    expect(await dispatcher.runOnce()).toBe(0);
    clock.advance(1);
    expect(await dispatcher.runOnce()).toBe(2);
    expect(await dispatcher.runOnce()).toBe(0);
    expect(await dispatcher.pending()).toBe(false);
    expect([...(await runsPerEvent(ctx.db)).values()]).toEqual([1, 1]);
  });

  test("a dispatcher whose lease was taken over mid-batch starts nothing for the events it lost", async () => {
    const { ctx, clock, actor } = await setup();
    for (const name of ["One", "Two", "Three"]) await newNotebook(ctx, actor, name);
    const services = ctx.services;
    const outbox = createEventsRepo(ctx.db);
    const leaseMs = 1_000;
    const other = services.workflows.dispatcher;
    let interleaved = false;
    // Dispatcher A stalls after its first event until its lease is gone; B claims and dispatches the rest.
    const a = createDispatcher({
      db: ctx.db,
      workflows: services.workflows.repo,
      runs: services.workflows.runs,
      queue: services.queue,
      clock,
      leaseMs,
      logger: silentLogger,
      outbox: {
        ...outbox,
        async markDispatched(seq, lease, now) {
          if (!interleaved && seq !== eventSeqs[0]) {
            interleaved = true;
            clock.advance(leaseMs);
            expect(await other.runOnce()).toBe(2);
          }
          return outbox.markDispatched(seq, lease, now);
        },
      },
    });
    const eventSeqs = (await sqlRows<{ seq: number }>(ctx.db, "SELECT seq FROM events ORDER BY seq")).map((r) => r.seq);
    expect(await a.runOnce()).toBe(1);
    expect(interleaved).toBe(true);
    expect([...(await runsPerEvent(ctx.db)).values()]).toEqual([1, 1, 1]);
  });

  test("two processes dispatching one outbox: 400 events, each starts exactly one run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "commonplace-dispatch-"));
    dirs.push(dir);
    const path = join(dir, "test.db");
    const db = openDatabase(path);
    dbs.push(db);
    const services = createServices({ config: testConfig({ EMBEDDER: "hashed" }), db, logger: silentLogger });
    const ctx = { db, services, app: undefined } as unknown as TestContext;
    const user = await userWithKey(ctx);
    const actor = systemActor(user.userId, "test");
    await services.workflows.service.create(actor, { name: "on notebook", ...ON_NOTEBOOK } as never);
    await db.tx(async () => {
      for (let i = 0; i < 400; i++) await services.notebooks.create(actor, { name: `nb ${i}` });
    });
    const script = join(import.meta.dir, "fixtures", "dispatch-worker.ts");
    const workers = [0, 1].map(() =>
      Bun.spawn([process.execPath, script, path], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }),
    );
    const readers = workers.map((w) => lines(w.stdout));
    for (const r of readers) expect(await r.next()).toEqual({ done: false, value: "ready" });
    for (const w of workers) {
      void w.stdin.write("go\n");
      await w.stdin.flush();
      await w.stdin.end();
    }
    const results = await Promise.all(
      readers.map(async (r) => JSON.parse((await r.next()).value as string) as { started: number }),
    );
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    expect(results[0]!.started + results[1]!.started).toBe(400);
    const counts = await runsPerEvent(db);
    expect(counts.size).toBe(400);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    await services.extractor.close();
  }, 60_000);
});

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
    }
  }
  if (buffered) yield buffered;
}

// GET /api/v1/events/stream: resume after Last-Event-ID, isolation between users, heartbeats,
// live-only progress, limits, and streams that end cleanly when the client goes away.
import { describe, expect, test } from "bun:test";
import { sqlRows } from "../../db/inspect.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { dataOf, sseReader } from "./sse-client.ts";

type User = Awaited<ReturnType<typeof userWithKey>>;

function open(
  ctx: TestContext,
  key: string,
  opts: { lastEventId?: string; query?: string; signal?: AbortSignal } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (opts.lastEventId !== undefined) headers["last-event-id"] = opts.lastEventId;
  return ctx.app.handle(
    new Request(`http://localhost/api/v1/events/stream${opts.query ?? ""}`, { headers, signal: opts.signal }),
  );
}

async function notebook(ctx: TestContext, u: User, name: string): Promise<string> {
  const r = await call(ctx, "POST", "/api/v1/notebooks", { key: u.key, body: { name } });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function seqOf(ctx: TestContext, eventType: string, objectId: string): Promise<number> {
  const rows = await sqlRows<{ seq: number; data: string }>(
    ctx.db,
    "SELECT seq, data FROM events WHERE type = ?",
    eventType,
  );
  return rows.find((r) => (JSON.parse(r.data) as { id?: string }).id === objectId)!.seq;
}

describe("event stream", () => {
  test("text/event-stream with a retry hint and the current cursor; 401 without a key", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    await notebook(ctx, a, "before");
    const res = await open(ctx, a.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("ratelimit")).toContain('"default"');
    const sse = sseReader(res);
    const first = await sse.next();
    expect(first.retry).toBe("3000");
    expect(first.id).toBe(String(await ctx.services.events.latestSeq()));
    await sse.cancel();

    const anon = await ctx.app.handle(new Request("http://localhost/api/v1/events/stream"));
    expect(anon.status).toBe(401);
    expect(anon.headers.get("content-type")).toBe("application/problem+json");
  });

  test("live events carry id, event type and the object as JSON", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const sse = sseReader(await open(ctx, a.key));
    const id = await notebook(ctx, a, "Live one");
    const f = await sse.event();
    expect(f.event).toBe("notebook.created");
    expect(f.id).toBe(String(await seqOf(ctx, "notebook.created", id)));
    const body = dataOf(f);
    expect(body).toMatchObject({ type: "notebook.created", data: { id, name: "Live one" } });
    expect(body.id).toMatch(/^evt_/);
    await sse.cancel();
  });

  test("Last-Event-ID replays what was missed, in order, then continues live", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const n1 = await notebook(ctx, a, "one");
    const n2 = await notebook(ctx, a, "two");
    const n3 = await notebook(ctx, a, "three");
    const sse = sseReader(await open(ctx, a.key, { lastEventId: String(await seqOf(ctx, "notebook.created", n1)) }));
    const replayed = [dataOf(await sse.event()), dataOf(await sse.event())];
    expect(replayed.map((e) => e.data.id)).toEqual([n2, n3]);
    const n4 = await notebook(ctx, a, "four");
    expect(dataOf(await sse.event()).data.id).toBe(n4);
    // Nothing was sent twice.
    expect((await sse.drainFor(50)).filter((f) => f.data)).toEqual([]);
    await sse.cancel();
  });

  test("?last_event_id resumes too; the header wins over it; a malformed cursor is 422", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const n1 = await notebook(ctx, a, "one");
    const n2 = await notebook(ctx, a, "two");
    const s1 = await seqOf(ctx, "notebook.created", n1);
    const byQuery = sseReader(await open(ctx, a.key, { query: "?last_event_id=0" }));
    expect(dataOf(await byQuery.event()).data.id).toBe(n1);
    await byQuery.cancel();
    const both = sseReader(await open(ctx, a.key, { query: "?last_event_id=0", lastEventId: String(s1) }));
    expect(dataOf(await both.event()).data.id).toBe(n2);
    await both.cancel();
    const bad = await open(ctx, a.key, { lastEventId: "abc" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual([
      { path: "last_event_id", message: expect.stringContaining("whole number") },
    ]);
  });

  test("a cursor beyond the newest event resumes from the newest, not past future events", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const sse = sseReader(await open(ctx, a.key, { lastEventId: "999999" }));
    const id = await notebook(ctx, a, "after a restore");
    expect(dataOf(await sse.event()).data.id).toBe(id);
    await sse.cancel();
  });

  test("a user never sees another user's events, live or replayed", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const aLive = sseReader(await open(ctx, a.key));
    const bLive = sseReader(await open(ctx, b.key));
    const bNotebook = await notebook(ctx, b, "B's secret");
    const aNotebook = await notebook(ctx, a, "A's own");
    // A's first event is its own, although B's was committed before it.
    const first = dataOf(await aLive.event());
    expect(first.data.id).toBe(aNotebook);
    expect(dataOf(await bLive.event()).data.id).toBe(bNotebook);
    // Replaying everything from the start gives A only A's events.
    const aAll = sseReader(await open(ctx, a.key, { lastEventId: "0" }));
    expect(dataOf(await aAll.event()).data.id).toBe(aNotebook);
    const rest = await aAll.drainFor(50);
    expect(rest.filter((f) => f.data)).toEqual([]);
    for (const s of [aLive, bLive, aAll]) await s.cancel();
  });

  test("heartbeats arrive as comment lines at the configured interval", async () => {
    const ctx = createTestContext({ EVENTS_HEARTBEAT_MS: "30" });
    const a = await userWithKey(ctx);
    const sse = sseReader(await open(ctx, a.key));
    const started = Date.now();
    await sse.next((f) => f.comments.includes("heartbeat"));
    await sse.next((f) => f.comments.includes("heartbeat"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    await sse.cancel();
  });

  test("podcast progress is live only: delivered with the last stored cursor, shown to streams opened later, never replayed", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    await notebook(ctx, a, "stored");
    const cursor = String(await ctx.services.events.latestSeq());
    const sse = sseReader(await open(ctx, a.key));
    const bSse = sseReader(await open(ctx, b.key));
    ctx.services.events.publish(a.userId, "podcast.progress", {
      id: "pod_X",
      status: "generating",
      phase: "speech",
      percent: 40,
      detail: "Speaking line 2 of 5",
    });
    const f = await sse.event();
    expect(f.event).toBe("podcast.progress");
    expect(f.id).toBe(cursor);
    expect(dataOf(f)).toMatchObject({ id: null, type: "podcast.progress", data: { id: "pod_X", percent: 40 } });
    // A stream opened now starts with the latest progress; B's stream never gets it.
    const later = sseReader(await open(ctx, a.key));
    expect(dataOf(await later.event()).data).toMatchObject({ id: "pod_X", phase: "speech" });
    expect((await bSse.drainFor(50)).filter((x) => x.data)).toEqual([]);
    const replay = sseReader(await open(ctx, a.key, { lastEventId: "0" }));
    expect(dataOf(await replay.event()).type).toBe("notebook.created");
    for (const s of [sse, bSse, later, replay]) await s.cancel();
  });

  test("a client that stops reading falls back to the outbox and still gets every event once, in order", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const sse = sseReader(await open(ctx, a.key));
    await sse.next(); // the opening lines
    const ids: string[] = [];
    for (let i = 0; i < 300; i++)
      ids.push(
        (
          await ctx.services.notebooks.create(
            { userId: a.userId, auth: { type: "system", reason: "test" } },
            { name: `n${i}` },
          )
        ).id,
      );
    await Bun.sleep(0);
    const got: string[] = [];
    while (got.length < ids.length) got.push(dataOf(await sse.event()).data.id);
    expect(got).toEqual(ids);
    await sse.cancel();
  });

  test("EVENTS_MAX_STREAMS_PER_USER caps open streams per account (429); a closed one frees its place", async () => {
    const ctx = createTestContext({ EVENTS_MAX_STREAMS_PER_USER: "1" });
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const first = sseReader(await open(ctx, a.key));
    const second = await open(ctx, a.key);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("3");
    const other = await open(ctx, b.key);
    expect(other.status).toBe(200);
    await other.body!.cancel();
    await first.cancel();
    expect(ctx.services.live.hub.connections(a.userId)).toBe(0);
    const again = await open(ctx, a.key);
    expect(again.status).toBe(200);
    await again.body!.cancel();
  });
});

describe("event stream over a real connection", () => {
  test("the stream is released when the client disconnects", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => ctx.app.handle(r) });
    try {
      const hub = ctx.services.live.hub;
      const abort = new AbortController();
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/events/stream`, {
        headers: { authorization: `Bearer ${a.key}` },
        signal: abort.signal,
      });
      const sse = sseReader(res);
      await sse.next();
      expect(hub.connections(a.userId)).toBe(1);
      const id = await notebook(ctx, a, "over tcp");
      expect(dataOf(await sse.event()).data.id).toBe(id);
      abort.abort();
      // The server learns of the disconnect asynchronously: wait for it, bounded.
      const deadline = Date.now() + 10_000;
      while (hub.connections() > 0 && Date.now() < deadline) await Bun.sleep(10);
      expect(hub.connections()).toBe(0);
      // Events after the disconnect reach no one and break nothing.
      await notebook(ctx, a, "after");
    } finally {
      await server.stop(true);
    }
  }, 30_000);
});

describe("stopping the server", () => {
  test("closing the hub ends open streams, so a graceful stop finishes; new streams get 503", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => ctx.app.handle(r) });
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/events/stream`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    const reader = res.body!.getReader();
    await reader.read();
    const stopped = server.stop();
    ctx.services.live.hub.close();
    await stopped;
    // The client sees the stream end rather than hang.
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(ctx.services.live.hub.connections()).toBe(0);
    const late = await open(ctx, a.key);
    expect(late.status).toBe(503);
  }, 30_000);
});

describe("OpenAPI", () => {
  test("the stream is documented with a text/event-stream response and its resume parameter", async () => {
    const ctx = createTestContext();
    const spec = (await (await ctx.app.handle(new Request("http://localhost/api/openapi.json"))).json()) as any;
    const op = spec.paths["/api/v1/events/stream"].get;
    expect(Object.keys(op.responses["200"].content)).toEqual(["text/event-stream"]);
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain("last_event_id");
    expect(op.description).toContain("Last-Event-ID");
  });
});

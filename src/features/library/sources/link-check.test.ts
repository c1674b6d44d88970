// The link check against a real local site, on the configured engine: verdicts (ok, gone, moved, and
// nothing learned), HEAD then GET, conditional requests, per-host spacing, events only on a change,
// the hourly dispatch of due sources. Nothing is ever deleted.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../../test/helpers.ts";
import { queryPlan, sqlRows } from "../../../db/inspect.ts";
import { startTestServer } from "../../../net/test-server.ts";
import { insertReadySource } from "../../podcasts/testing.ts";
import { SHORT_ARTICLE } from "../../podcasts/testdata.ts";
import { LINK_CHECK_JOB } from "./link-check.ts";
import { dueQuery } from "./link-check-repo.ts";

const spacedAt: number[] = [];
const site = startTestServer((req) => {
  const path = new URL(req.url).pathname;
  switch (path) {
    case "/spaced":
      spacedAt.push(performance.now());
      return new Response("ok");
    case "/ok":
      if (req.headers.get("if-none-match") === '"v1"') return new Response(null, { status: 304 });
      return new Response(req.method === "HEAD" ? null : "hello", {
        headers: { etag: '"v1"', "last-modified": "Tue, 05 Mar 2024 09:30:00 GMT", "content-type": "text/html" },
      });
    case "/gone":
      return new Response("gone", { status: 410 });
    case "/missing":
      return new Response("missing", { status: 404 });
    case "/moved":
      return new Response(null, { status: 301, headers: { location: "/new-home" } });
    case "/new-home":
      return new Response("here now");
    case "/to-https":
      // The same page under another scheme spelling is not a move (ends at /ok on this host).
      return new Response(null, { status: 308, headers: { location: "/to-https/" } });
    case "/to-https/":
      return new Response("same page");
    case "/temporary":
      return new Response(null, { status: 302, headers: { location: "/new-home" } });
    case "/broken":
      return new Response("oops", { status: 503 });
    case "/no-head":
      if (req.method === "HEAD") return new Response(null, { status: 405 });
      return new Response("fine", { status: req.headers.get("range") ? 206 : 200 });
    default:
      return new Response("not found", { status: 404 });
  }
});
afterAll(() => site.stop());
const url = (p: string) => `http://127.0.0.1:${site.port}${p}`;

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.runner.stop({ graceMs: 1_000 });
});

const DAY = 86_400_000;
async function setup(env: Record<string, string> = {}) {
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const ctx = createTestContext({ LINK_CHECK_HOST_SPACING_MS: "0", ...env }, { clock });
  contexts.push(ctx);
  const u = await userWithKey(ctx);
  const add = (path: string) => insertReadySource(ctx.services, u.userId, { markdown: SHORT_ARTICLE, url: url(path) });
  const get = async (id: string) => (await call(ctx, "GET", `/api/v1/sources/${id}`, { key: u.key })).body;
  const events = async (id: string) =>
    (await sqlRows<{ type: string; data: string }>(ctx.db, "SELECT type, data FROM events ORDER BY seq"))
      .filter((r) => (JSON.parse(r.data) as { id?: string }).id === id)
      .map((r) => r.type);
  return { ctx, u, add, get, events, later: (ms: number) => (offset += ms), check: ctx.services.linkCheck.check };
}

describe("link check", () => {
  test("verdicts: ok, gone (404, 410), moved (a permanent redirect elsewhere); temporary redirects and a scheme-only move are ok", async () => {
    const { ctx, add, get, check } = await setup();
    const ids = {
      ok: await add("/ok"),
      gone: await add("/gone"),
      missing: await add("/missing"),
      moved: await add("/moved"),
      temporary: await add("/temporary"),
      slash: await add("/to-https"),
    };
    for (const id of Object.values(ids)) await check(id);
    expect((await get(ids.ok)).original_status).toBe("ok");
    expect((await get(ids.gone)).original_status).toBe("gone");
    expect((await get(ids.missing)).original_status).toBe("gone");
    expect((await get(ids.moved)).original_status).toBe("moved");
    expect((await get(ids.temporary)).original_status).toBe("ok");
    expect((await get(ids.slash)).original_status).toBe("ok");
    expect((await get(ids.ok)).original_checked_at).toBeString();
    const [row] = await sqlRows<{ original_moved_to: string; content: string }>(
      ctx.db,
      "SELECT original_moved_to, content FROM sources WHERE id = ?",
      ids.moved,
    );
    expect(row!.original_moved_to).toBe(url("/new-home"));
    // Nothing is deleted: the archived copy is still there.
    expect(row!.content).toBe(SHORT_ARTICLE);
    // Only HEAD requests were needed.
    expect(site.seen.filter((r) => ["/ok", "/gone", "/moved"].includes(r.path)).every((r) => r.method === "HEAD")).toBe(
      true,
    );
  });

  test("a transient failure changes nothing but the time; HEAD refused falls back to a one-byte GET", async () => {
    const { add, get, check, ctx } = await setup();
    const broken = await add("/broken");
    await sqlRows(ctx.db, "UPDATE sources SET original_status = 'ok' WHERE id = ?", broken);
    expect(await check(broken)).toMatchObject({ status: null });
    const after = await get(broken);
    expect(after.original_status).toBe("ok");
    expect(after.original_checked_at).toBeString();

    const noHead = await add("/no-head");
    expect(await check(noHead)).toEqual({ status: "ok" });
    const asked = site.seen.filter((r) => r.path === "/no-head");
    expect(asked.map((r) => r.method)).toEqual(["HEAD", "GET"]);
    expect(asked[1]!.headers.range).toBe("bytes=0-0");
  });

  test("the next check is conditional on what the last one saw; an event only when the verdict changes", async () => {
    const { add, check, events } = await setup();
    const id = await add("/ok");
    await check(id);
    const first = site.seen.filter((r) => r.path === "/ok").at(-1)!;
    expect(first.headers["if-none-match"]).toBeUndefined();
    await check(id);
    const second = site.seen.filter((r) => r.path === "/ok").at(-1)!;
    expect(second.headers["if-none-match"]).toBe('"v1"');
    expect(second.headers["if-modified-since"]).toBe("Tue, 05 Mar 2024 09:30:00 GMT");
    // null → ok was a change (one event); ok → ok (a 304) was not.
    expect((await events(id)).filter((t) => t === "source.updated")).toHaveLength(1);
  });

  test("requests to one host are spaced, however many checks run at once", async () => {
    const { add, check } = await setup({ LINK_CHECK_HOST_SPACING_MS: "300" });
    const ids = [await add("/spaced"), await add("/spaced?2"), await add("/spaced?3")];
    const started = performance.now();
    await Promise.all(ids.map((id) => check(id)));
    expect(spacedAt).toHaveLength(3);
    // The gate books each start 300 ms after the one before: the third cannot start before 600 ms.
    expect(spacedAt[2]! - started).toBeGreaterThanOrEqual(600 - 5);
  });

  test("the dispatch enqueues each ready source once it is due (weekly by default), a host's checks spread out", async () => {
    const { ctx, add, later } = await setup({ LINK_CHECK_HOST_SPACING_MS: "5000" });
    const a = await add("/ok");
    const b = await add("/gone");
    const lc = ctx.services.linkCheck;
    expect(await lc.dispatchDue()).toBe(0);
    later(6 * DAY);
    expect(await lc.dispatchDue()).toBe(0);
    later(2 * DAY);
    expect(await lc.dispatchDue()).toBe(2);
    // The same round is not enqueued twice.
    expect(await lc.dispatchDue()).toBe(0);
    const jobs = await sqlRows<{ payload: string; run_at: number }>(
      ctx.db,
      "SELECT payload, run_at FROM jobs WHERE type = ? ORDER BY run_at",
      LINK_CHECK_JOB.type,
    );
    expect(jobs.map((j) => JSON.parse(j.payload).source_id).sort()).toEqual([a, b].sort());
    expect(Number(jobs[1]!.run_at) - Number(jobs[0]!.run_at)).toBeGreaterThanOrEqual(5000);
    // Checked sources are not due again until another interval has passed.
    const checkedAt = new Date(ctx.services.clock.now()).toISOString();
    await sqlRows(ctx.db, "UPDATE sources SET original_checked_at = ? WHERE id IN (?, ?)", checkedAt, a, b);
    later(6 * DAY);
    expect(await lc.dispatchDue()).toBe(0);
    later(2 * DAY);
    expect(await lc.dispatchDue()).toBe(2);
  });

  test("LINK_CHECK_INTERVAL_HOURS=0 turns the check off", async () => {
    const { ctx, add, later } = await setup({ LINK_CHECK_INTERVAL_HOURS: "0" });
    await add("/ok");
    later(365 * DAY);
    expect(await ctx.services.linkCheck.dispatchDue()).toBe(0);
  });
});

describe("link check: the due query", () => {
  test("is answered from its own index, never by reading every source row (their text comes first)", async () => {
    const ctx = createTestContext();
    contexts.push(ctx);
    const plan = await queryPlan(ctx.db, dueQuery(ctx.db.shared, new Date().toISOString(), 1000).toSQL());
    if (ctx.db.engine === "sqlite") expect(plan).toMatch(/USING INDEX sources_link_check_due \(<expr><\?\)/);
    else expect(plan).toContain("sources_link_check_due");
    expect(plan).not.toMatch(/Sort|TEMP B-TREE/);
  });
});

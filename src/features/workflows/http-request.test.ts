// The http_request action against a local receiver: retries and backoff, Retry-After, timeouts,
// non-JSON bodies, blocked addresses, form bodies, signatures and a stable Idempotency-Key.
import { afterEach, describe, expect, test } from "bun:test";
import { sqlRow } from "../../db/inspect.ts";
import { Webhook } from "standardwebhooks";
import { createTestContext, userWithKey } from "../../../test/helpers.ts";
import { fakeClock, deferred } from "../../jobs/testing.ts";
import { startTestServer, type SeenRequest, type TestServer } from "../../net/test-server.ts";
import { fire, getRun, runToEnd, webhookWorkflow } from "./testing.ts";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

function receiver(handler: (req: Request, seen: SeenRequest, n: number) => Response | Promise<Response>) {
  let n = 0;
  const s = startTestServer((req, seen) => handler(req, seen, ++n));
  servers.push(s);
  return { ...s, url: `http://127.0.0.1:${s.port}` };
}

async function setup() {
  const clock = fakeClock(Date.now());
  const ctx = createTestContext({}, { clock });
  return { ctx, clock, a: await userWithKey(ctx) };
}

const storedHeaders = (run: { steps: { input: any }[] }) => run.steps[0]!.input.headers;

describe("http_request", () => {
  test("fails, backs off, then succeeds; the Idempotency-Key is the same on every try", async () => {
    const { ctx, clock, a } = await setup();
    const rx = receiver((_req, _seen, n) =>
      n < 3 ? new Response("busy", { status: 503 }) : Response.json({ id: 42 }),
    );
    const wf = await webhookWorkflow(ctx, a.key, [
      {
        id: "send",
        type: "http_request",
        url: `${rx.url}/hook/{{ kind | urlencode }}`,
        body: { who: "{{ who }}", n: "{{ n }}" },
        retries: 3,
        store_response: true,
      },
      { id: "use", type: "create_notebook", name: "got {{ steps.send.response.body.id }}" },
    ]);
    const { runs } = await fire(ctx, wf.path, { kind: "a b", who: "me", n: 5 });
    let run = await runToEnd(ctx, a.key, runs[0]!);
    expect(run.status).toBe("running");
    expect(run.steps[0]).toMatchObject({ status: "waiting", attempts: 1, error: { code: "http_503" } });
    const due = Date.parse(run.steps[0]!.next_attempt_at!) - clock.now();
    expect(due).toBeGreaterThanOrEqual(500);
    expect(due).toBeLessThanOrEqual(1000);
    clock.advance(due);
    run = await runToEnd(ctx, a.key, runs[0]!);
    const second = Date.parse(run.steps[0]!.next_attempt_at!) - clock.now();
    expect(second).toBeGreaterThanOrEqual(1000);
    expect(second).toBeLessThanOrEqual(2000);
    clock.advance(second);
    run = await runToEnd(ctx, a.key, runs[0]!);
    expect(run.status).toBe("succeeded");
    expect(run.steps[0]).toMatchObject({
      status: "succeeded",
      attempts: 3,
      output: { status: 200, response: { status: 200, body: { id: 42 } } },
    });
    expect(run.steps[1]!.output.notebook.name).toBe("got 42");
    expect(rx.seen).toHaveLength(3);
    expect(rx.seen[0]!.path).toBe("/hook/a%20b");
    expect(JSON.parse(rx.seen[0]!.body)).toEqual({ who: "me", n: 5 });
    const keys = new Set(rx.seen.map((s) => s.headers["idempotency-key"]));
    expect([...keys]).toEqual([`${runs[0]}:send`]);
  });

  test("Retry-After decides the delay; 4xx other than 408/429 is final at once", async () => {
    const { ctx, clock, a } = await setup();
    const rx = receiver((_r, _s, n) =>
      n === 1
        ? new Response("slow down", { status: 429, headers: { "retry-after": "7" } })
        : new Response("no", { status: 404 }),
    );
    const wf = await webhookWorkflow(ctx, a.key, [{ id: "send", type: "http_request", url: rx.url, retries: 5 }]);
    const { runs } = await fire(ctx, wf.path);
    let run = await runToEnd(ctx, a.key, runs[0]!);
    expect(Date.parse(run.steps[0]!.next_attempt_at!) - clock.now()).toBe(7000);
    const job = (await sqlRow<{ run_at: number }>(
      ctx.db,
      "SELECT run_at FROM jobs WHERE type = 'workflow.step' AND status = 'queued'",
    ))!;
    expect(job.run_at - clock.now()).toBe(7000);
    clock.advance(7000);
    run = await runToEnd(ctx, a.key, runs[0]!);
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ code: "http_404", step: "send" });
    expect(run.steps[0]).toMatchObject({ status: "failed", attempts: 2 });
    expect(rx.seen).toHaveLength(2);
  });

  test("a receiver that hangs is cut by timeout_ms", async () => {
    const { ctx, a } = await setup();
    const release = deferred<Response>();
    const rx = receiver(() => release.promise);
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "send", type: "http_request", url: rx.url, timeout_ms: 200, retries: 0 },
    ]);
    const { runs } = await fire(ctx, wf.path);
    const run = await runToEnd(ctx, a.key, runs[0]!);
    release.resolve(new Response("late"));
    expect(run.status).toBe("failed");
    expect(run.steps[0]!.error.code).toBe("timeout");
  });

  test("a non-JSON response with store_response is kept as text, not a crash", async () => {
    const { ctx, a } = await setup();
    const rx = receiver(() => new Response("<html>ok</html>", { headers: { "content-type": "application/json" } }));
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "send", type: "http_request", method: "GET", url: rx.url, store_response: true },
      {
        id: "c",
        type: "condition",
        if: { all: [{ left: "{{ steps.send.response.body }}", op: "contains", right: "ok" }] },
      },
    ]);
    const run = await runToEnd(ctx, a.key, (await fire(ctx, wf.path)).runs[0]!);
    expect(run.status).toBe("succeeded");
    expect(run.steps[0]!.output.response).toMatchObject({
      status: 200,
      body: "<html>ok</html>",
      headers: { "content-type": "application/json" },
    });
    expect(run.steps[1]!.output.result).toBe(true);
  });

  test("a template that renders a URL to a blocked address fails the step with blocked_address", async () => {
    const { ctx, a } = await setup();
    const wf = await webhookWorkflow(ctx, a.key, [
      { id: "send", type: "http_request", url: "http://{{ host }}/latest/meta-data/", retries: 3 },
    ]);
    const run = await runToEnd(ctx, a.key, (await fire(ctx, wf.path, { host: "169.254.169.254" })).runs[0]!);
    expect(run.status).toBe("failed");
    expect(run.steps[0]).toMatchObject({ attempts: 1, error: { code: "blocked_address" } });
  });

  test("form bodies, custom headers and Standard Webhooks signatures that the public library verifies", async () => {
    const { ctx, a } = await setup();
    const rx = receiver(() => new Response(null, { status: 204 }));
    const wf = await webhookWorkflow(ctx, a.key, [
      {
        id: "form",
        type: "http_request",
        url: rx.url,
        body_type: "form",
        body: { q: "{{ q }}", tags: ["a", "b"] },
        headers: { "X-Who": "{{ who }}", Authorization: "Bearer {{ secret }}" },
        sign: true,
      },
      { id: "json", type: "http_request", method: "PUT", url: rx.url, body: { list: "{{ list }}" }, sign: true },
    ]);
    const run = await runToEnd(
      ctx,
      a.key,
      (await fire(ctx, wf.path, { q: "x&y", who: "bot", list: [1, 2], secret: "s3cret" })).runs[0]!,
    );
    expect(storedHeaders(run)).toEqual({ "X-Who": "bot", Authorization: "[redacted]" });
    expect(run.status).toBe("succeeded");
    const [form, json] = rx.seen;
    expect(form!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(form!.body).toBe("q=x%26y&tags=a&tags=b");
    expect(form!.headers["x-who"]).toBe("bot");
    expect(form!.headers["authorization"]).toBe("Bearer s3cret");
    expect(json!.method).toBe("PUT");
    expect(JSON.parse(json!.body)).toEqual({ list: [1, 2] });
    const hook = new Webhook(wf.signing_secret);
    for (const seen of [form!, json!]) {
      expect(() => hook.verify(seen.body, seen.headers, { jsonParse: false })).not.toThrow();
      expect(seen.headers["webhook-id"]).toBe(seen.headers["idempotency-key"]);
    }
    expect(() => hook.verify(`${json!.body} `, json!.headers)).toThrow();
  });

  test("a template that names nothing renders as empty (or its default) and the step log says so", async () => {
    const { ctx, a } = await setup();
    const rx = receiver(() => new Response("ok"));
    const wf = await webhookWorkflow(ctx, a.key, [
      {
        id: "send",
        type: "http_request",
        url: rx.url,
        body: {
          a: "{{ missing }}",
          b: '{{ gone | default: "fallback" }}',
          c: "x{{ nope.deeper }}y",
          n: "{{ n }}",
          j: "{{ obj | json }}",
        },
      },
    ]);
    const run = await runToEnd(ctx, a.key, (await fire(ctx, wf.path, { n: 3, obj: { k: [1] } })).runs[0]!);
    expect(JSON.parse(rx.seen[0]!.body)).toEqual({ a: "", b: "fallback", c: "xy", n: 3, j: '{"k":[1]}' });
    expect(run.steps[0]!.log).toEqual([
      'no value for {{ missing }}: rendered as ""',
      'no value for {{ nope.deeper }}: rendered as ""',
    ]);
    expect((await getRun(ctx, a.key, run.id)).steps[0]!.input.body.b).toBe("fallback");
  });
});

// Workflow definitions over HTTP: create, validation with JSON paths, limits, update, delete, isolation.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { createWorkflow } from "./testing.ts";

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  return { ctx, a: await userWithKey(ctx), b: await userWithKey(ctx) };
}

const notebook = (id: string, name = "NB") => ({ id, type: "create_notebook", name });

async function rejects(body: Record<string, unknown>, path: string, env: Record<string, string> = {}) {
  const { ctx, a } = await setup(env);
  const r = await call(ctx, "POST", "/api/v1/workflows", { key: a.key, body: { name: "w", ...body } });
  expect(r.status, r.text).toBe(422);
  expect(r.body.code).toBe("validation_failed");
  expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  return r.body.errors as { path: string; message: string }[];
}

describe("variables and ids are checked when saving, not when running", () => {
  const hook = { type: "webhook", fields: ["title", "url"] };

  test("a variable neither the trigger nor an earlier step gives is 422 at its field, listing what is available", async () => {
    const errors = await rejects(
      {
        trigger: hook,
        actions: [
          notebook("nb", "{{ title }}"),
          { id: "save", type: "create_source", url: "{{ url }}" },
          notebook("late", "{{ titel }}"),
        ],
      },
      "actions[2].name",
    );
    const message = errors.find((e) => e.path === "actions[2].name")!.message;
    expect(message).toStartWith(
      '{{ titel }}: the webhook declares no body field "titel"; available: {{ title }}, {{ url }}, ',
    );
    expect(message).toContain("{{ steps.nb.notebook.id }}");
    expect(message).toContain("{{ steps.save.source.id }}");
    // trigger.<field> is held to the declared fields too; the declared ones pass.
    await rejects({ trigger: hook, actions: [notebook("n", "{{ trigger.colour }}")] }, "actions[0].name");
  });

  test("a step's output that it does not have is refused with the outputs it does have", async () => {
    const errors = await rejects(
      { trigger: { type: "webhook" }, actions: [notebook("nb"), notebook("n", "{{ steps.nb.id }}")] },
      "actions[1].name",
    );
    expect(errors[0]!.message).toStartWith(
      '{{ steps.nb.id }}: step "nb" (create_notebook) gives no "id"; it gives {{ steps.nb.notebook }}, {{ steps.nb.notebook.id }}, {{ steps.nb.notebook.name }}',
    );
    // Open outputs (a stored response body) take any path below them.
    const { ctx, a } = await setup();
    const ok = await call(ctx, "POST", "/api/v1/workflows", {
      key: a.key,
      body: {
        name: "w",
        trigger: { type: "webhook" },
        actions: [
          { id: "r", type: "http_request", url: "https://example.com", store_response: true },
          notebook("n", "{{ steps.r.response.body.items[0].name }} {{ steps.r.status }} {{ url }}"),
        ],
      },
    });
    expect(ok.status, ok.text).toBe(201);
  });

  test("a notebook given by name, or one that is not yours, is 422 where an id belongs", async () => {
    const { ctx, a, b } = await setup();
    const reading = await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Reading" } });
    const theirs = await call(ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "Theirs" } });
    const link = (notebook_id: string) => ({
      id: "add",
      type: "add_source_to_notebook",
      source_id: "{{ steps.save.source.id }}",
      notebook_id,
    });
    const save = { id: "save", type: "create_source", url: "{{ url }}" };
    const post = (actions: unknown[]) =>
      call(ctx, "POST", "/api/v1/workflows", {
        key: a.key,
        body: { name: "w", trigger: { type: "webhook" }, actions },
      });

    let r = await post([save, link("Reading")]);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        path: "actions[1].notebook_id",
        message: `"Reading" is the name of a notebook, not its id: use ${reading.body.id}`,
      },
    ]);
    r = await post([save, link("Inbox")]);
    expect(r.body.errors[0]).toEqual({
      path: "actions[1].notebook_id",
      message: '"Inbox" is not a notebook id (nb_…): choose a notebook from your list, or write a template',
    });
    r = await post([save, link(theirs.body.id)]);
    expect(r.body.errors[0]).toEqual({
      path: "actions[1].notebook_id",
      message: `notebook ${theirs.body.id} does not exist`,
    });
    r = await post([{ ...save, notebook_ids: [reading.body.id, "Reading"] }]);
    expect(r.body.errors[0].path).toBe("actions[0].notebook_ids[1]");
    r = await post([{ id: "run", type: "run_workflow", workflow_id: "Nightly" }]);
    expect(r.body.errors[0]).toEqual({
      path: "actions[0].workflow_id",
      message: '"Nightly" is not a workflow id (wf_…): choose a workflow from your list, or write a template',
    });
    // The id, or a template giving one, is accepted.
    r = await post([save, link(reading.body.id), { ...link("{{ nb }}"), id: "add2" }]);
    expect(r.status, r.text).toBe(201);

    // PATCH checks the same way.
    const patched = await call(ctx, "PATCH", `/api/v1/workflows/${r.body.id}`, {
      key: a.key,
      body: { actions: [save, link("Reading"), notebook("n", "{{ steps.add.nope }}")] },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.errors.map((e: { path: string }) => e.path)).toEqual(["actions[1].notebook_id"]);
    const again = await call(ctx, "PATCH", `/api/v1/workflows/${r.body.id}`, {
      key: a.key,
      body: { actions: [save, link(reading.body.id), notebook("n", "{{ steps.add.nope }}")] },
    });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].path).toBe("actions[2].name");
    expect(again.body.errors[0].message).toContain("{{ steps.add.source.id }}");
  });

  test("declared body fields must not shadow the run's own names", async () => {
    const errors = await rejects(
      { trigger: { type: "webhook", fields: ["url", "steps"] }, actions: [notebook("n")] },
      "trigger.fields[1]",
    );
    expect(errors[0]!.message).toContain("{{ trigger.steps }}");
  });
});

describe("POST /api/v1/workflows", () => {
  test("a webhook trigger without token_id gets a new token whose URL is shown once", async () => {
    const { ctx, a } = await setup();
    const r = await call(ctx, "POST", "/api/v1/workflows", {
      key: a.key,
      body: { name: " Hook ", trigger: { type: "webhook" }, actions: [notebook("n")] },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/v1/workflows/${r.body.id}`);
    expect(r.body).toMatchObject({ name: "Hook", active: true, actions: [notebook("n")] });
    expect(r.body.id).toMatch(/^wf_/);
    expect(r.body.trigger.token_id).toMatch(/^whk_/);
    expect(r.body.webhook_url).toMatch(/\/api\/webhooks\/workflows\/cpw_[A-Za-z0-9_-]{43}$/);
    expect(r.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const again = await call(ctx, "GET", `/api/v1/workflows/${r.body.id}`, { key: a.key });
    expect(again.body.webhook_url).toBeUndefined();
    expect(again.body.trigger).toEqual(r.body.trigger);
    const tokens = await call(ctx, "GET", "/api/v1/webhook-tokens", { key: a.key });
    expect(tokens.body.data).toHaveLength(1);
    expect(tokens.body.data[0].workflow_ids).toEqual([r.body.id]);
  });

  test("several workflows can share one token; an event trigger needs no token", async () => {
    const { ctx, a } = await setup();
    const first = await createWorkflow(ctx, a.key, { trigger: { type: "webhook" }, actions: [notebook("n")] });
    const second = await createWorkflow(ctx, a.key, {
      trigger: { type: "webhook", token_id: first.trigger.token_id },
      actions: [notebook("n")],
    });
    expect(second.webhook_url).toBeUndefined();
    const ev = await createWorkflow(ctx, a.key, {
      trigger: { type: "event", event: "source.created" },
      actions: [notebook("n", "{{ title }}")],
    });
    expect(ev.trigger as unknown).toEqual({ type: "event", event: "source.created" });
    const list = await call(ctx, "GET", "/api/v1/workflows?limit=2", { key: a.key });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([ev.id, second.id]);
    expect(list.body.next_cursor).toBeString();
  });

  test.each<[Record<string, unknown>, string]>([
    [{ trigger: { type: "cron" }, actions: [notebook("n")] }, "trigger.type"],
    [{ trigger: "webhook", actions: [notebook("n")] }, "trigger"],
    [{ trigger: { type: "event", event: "source.exploded" }, actions: [notebook("n")] }, "trigger.event"],
    [
      { trigger: { type: "webhook", token_id: "whk_01J0000000000000000000000A" }, actions: [notebook("n")] },
      "trigger.token_id",
    ],
    [{ trigger: { type: "webhook" }, actions: [] }, "actions"],
    [{ trigger: { type: "webhook" }, actions: [{ id: "x", type: "teleport" }] }, "actions[0].type"],
    [
      { trigger: { type: "webhook" }, actions: [{ id: "bad id!", type: "create_notebook", name: "x" }] },
      "actions[0].id",
    ],
    [{ trigger: { type: "webhook" }, actions: [{ id: "x", type: "create_notebook" }] }, "actions[0].name"],
    [
      { trigger: { type: "webhook" }, actions: [{ id: "x", type: "create_notebook", name: "x", colour: "red" }] },
      "actions[0].colour",
    ],
    [{ trigger: { type: "webhook" }, actions: [notebook("x"), notebook("x")] }, "actions[1].id"],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "h", type: "http_request", url: "https://x.test", method: "FETCH" }],
      },
      "actions[0].method",
    ],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "h", type: "http_request", url: "https://x.test", method: "GET", body: {} }],
      },
      "actions[0].body",
    ],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "h", type: "http_request", url: "https://x.test", headers: { Host: "y" } }],
      },
      "actions[0].headers.Host",
    ],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "h", type: "http_request", url: "https://x.test", retries: 99 }],
      },
      "actions[0].retries",
    ],
    [
      { trigger: { type: "webhook" }, actions: [{ id: "c", type: "condition", if: { all: [{ left: 1, op: "gt" }] } }] },
      "actions[0].if.all[0].right",
    ],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "c", type: "condition", if: { all: [{ left: 1, op: "like", right: 2 }] } }],
      },
      "actions[0].if.all[0].op",
    ],
    [{ trigger: { type: "webhook" }, actions: [{ id: "c", type: "condition", if: {}, then: [] }] }, "actions[0].if"],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "c", type: "condition", if: { any: [] }, then: [{ id: "x", type: "nope" }] }],
      },
      "actions[0].then[0].type",
    ],
    [
      {
        trigger: { type: "webhook" },
        actions: [{ id: "r", type: "run_workflow", workflow_id: "wf_01J0000000000000000000000A" }],
      },
      "actions[0].workflow_id",
    ],
  ])("%j → 422 at %s", async (body, path) => {
    await rejects(body, path);
  });

  test("templates are parsed at save time; references must name earlier steps and real trigger fields", async () => {
    const hook = { type: "webhook" };
    let errors = await rejects({ trigger: hook, actions: [notebook("n", "{{ title ")] }, "actions[0].name");
    expect(errors[0]!.message).toContain("position");
    errors = await rejects(
      { trigger: hook, actions: [notebook("n", "{{ steps.later.id }}"), notebook("later")] },
      "actions[0].name",
    );
    expect(errors[0]!.message).toStartWith(
      '{{ steps.later.id }}: step "later" does not run before this one; available: ',
    );
    errors = await rejects({ trigger: hook, actions: [notebook("n", "{{ steps.ghost.id }}")] }, "actions[0].name");
    expect(errors[0]!.message).toContain('there is no step with id "ghost"');
    errors = await rejects({ trigger: hook, actions: [notebook("n", "{{ event.id }}")] }, "actions[0].name");
    expect(errors[0]!.message).toContain("only for event triggers");
    const ev = { type: "event", event: "source.created" };
    errors = await rejects({ trigger: ev, actions: [notebook("n", "{{ colour }}")] }, "actions[0].name");
    expect(errors[0]!.message).toStartWith('{{ colour }}: source.created events have no field "colour"; available: ');
    expect(errors[0]!.message).toContain("{{ url }}, {{ normalized_url }}");
    await rejects({ trigger: ev, actions: [notebook("n", "{{ event.data.colour }}")] }, "actions[0].name");
    await rejects({ trigger: ev, actions: [notebook("n", "{{ trigger.colour }}")] }, "actions[0].name");
    // A branch that never ran before this one: else cannot read then.
    await rejects(
      {
        trigger: hook,
        actions: [
          {
            id: "c",
            type: "condition",
            if: { any: [{ left: 1, op: "exists" }] },
            then: [notebook("t")],
            else: [notebook("e", "{{ steps.t.notebook.id }}")],
          },
        ],
      },
      "actions[0].else[0].name",
    );
    await rejects(
      {
        trigger: hook,
        actions: [{ id: "c", type: "condition", if: { all: [{ left: "{{ steps.c.x }}", op: "exists" }] } }],
      },
      "actions[0].if.all[0].left",
    );
  }, 60_000);

  test("valid references: top-level fields, event fields, the condition inside its branch, earlier branches", async () => {
    const { ctx, a } = await setup();
    await createWorkflow(ctx, a.key, {
      trigger: { type: "event", event: "source.created" },
      actions: [
        notebook("n", '{{ title | default: "untitled" }} {{ event.data.url }} {{ trigger.occurred_at }} {{ run.id }}'),
        {
          id: "c",
          type: "condition",
          if: { all: [{ left: "{{ url }}", op: "contains", right: "x" }] },
          then: [notebook("t", "{{ steps.c.result }}")],
          else: [],
        },
        notebook("after", "{{ steps.t.notebook.id }} {{ steps.n.notebook.id }}"),
      ],
    });
  });

  test("limits come from config: number of actions and depth of conditions", async () => {
    const many = Array.from({ length: 4 }, (_, i) => notebook(`n${i}`));
    const errors = await rejects({ trigger: { type: "webhook" }, actions: many }, "actions", {
      WORKFLOW_MAX_ACTIONS: "3",
    });
    expect(errors[0]!.message).toContain("at most 3 actions");
    const nest = (d: number): Record<string, unknown> => ({
      id: `c${d}`,
      type: "condition",
      if: { any: [{ left: 1, op: "exists" }] },
      then: d > 1 ? [nest(d - 1)] : [],
    });
    await rejects({ trigger: { type: "webhook" }, actions: [nest(3)] }, "actions[0].then[0].then[0]", {
      WORKFLOW_MAX_CONDITION_DEPTH: "2",
    });
  });
});

describe("PATCH / DELETE /api/v1/workflows/{id}", () => {
  test("update re-checks the definition; switching to a webhook makes a token once", async () => {
    const { ctx, a } = await setup();
    const wf = await createWorkflow(ctx, a.key, {
      trigger: { type: "event", event: "note.created" },
      actions: [notebook("n")],
    });
    const off = await call(ctx, "PATCH", `/api/v1/workflows/${wf.id}`, {
      key: a.key,
      body: { active: false, name: "Off" },
    });
    expect(off.body).toMatchObject({ active: false, name: "Off" });
    const bad = await call(ctx, "PATCH", `/api/v1/workflows/${wf.id}`, {
      key: a.key,
      body: { actions: [notebook("n", "{{ colour }}")] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("actions[0].name");
    // A null trigger is a value like any other, not "keep the stored one".
    const none = await call(ctx, "PATCH", `/api/v1/workflows/${wf.id}`, { key: a.key, body: { trigger: null } });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].path).toBe("trigger");
    expect(none.body.errors[0].message).toMatch(/^must be /);
    const hook = await call(ctx, "PATCH", `/api/v1/workflows/${wf.id}`, {
      key: a.key,
      body: { trigger: { type: "webhook" } },
    });
    expect(hook.status).toBe(200);
    expect(hook.body.webhook_url).toContain("/api/webhooks/workflows/");
    expect(hook.body.actions).toEqual([notebook("n")]);
  });

  test("delete removes it; the token it used can then be deleted", async () => {
    const { ctx, a } = await setup();
    const wf = await createWorkflow(ctx, a.key, { trigger: { type: "webhook" }, actions: [notebook("n")] });
    const busy = await call(ctx, "DELETE", `/api/v1/webhook-tokens/${wf.trigger.token_id}`, { key: a.key });
    expect(busy.status).toBe(409);
    expect((await call(ctx, "DELETE", `/api/v1/workflows/${wf.id}`, { key: a.key })).status).toBe(200);
    expect((await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: a.key })).status).toBe(404);
    expect((await call(ctx, "DELETE", `/api/v1/webhook-tokens/${wf.trigger.token_id}`, { key: a.key })).status).toBe(
      200,
    );
  });
});

describe("isolation", () => {
  test("another user's workflows, runs and tokens are 404, and cannot be referenced", async () => {
    const { ctx, a, b } = await setup();
    const wf = await createWorkflow(ctx, a.key, { trigger: { type: "webhook" }, actions: [notebook("n")] });
    for (const [method, path] of [
      ["GET", `/api/v1/workflows/${wf.id}`],
      ["PATCH", `/api/v1/workflows/${wf.id}`],
      ["DELETE", `/api/v1/workflows/${wf.id}`],
      ["GET", `/api/v1/workflows/${wf.id}/runs`],
      ["GET", `/api/v1/webhook-tokens/${wf.trigger.token_id}`],
      ["POST", `/api/v1/webhook-tokens/${wf.trigger.token_id}/regenerate`],
      ["DELETE", `/api/v1/webhook-tokens/${wf.trigger.token_id}`],
    ] as const) {
      const r = await call(ctx, method, path, { key: b.key, ...(method === "PATCH" ? { body: { name: "x" } } : {}) });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(ctx, "GET", "/api/v1/workflows", { key: b.key })).body.data).toEqual([]);
    const steal = await call(ctx, "POST", "/api/v1/workflows", {
      key: b.key,
      body: {
        name: "x",
        trigger: { type: "webhook", token_id: wf.trigger.token_id },
        actions: [{ id: "r", type: "run_workflow", workflow_id: wf.id }],
      },
    });
    expect(steal.status).toBe(422);
    expect(steal.body.errors[0].path).toBe("trigger.token_id");
    expect((await call(ctx, "GET", "/api/v1/workflows")).status).toBe(401);
  });
});

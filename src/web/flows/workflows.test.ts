// Workflows in the browser: the list with last runs, editing a stored workflow, the JSON view's round
// trip, switching to a new webhook token (URL shown once), activate/deactivate and delete.
import { describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { createWorkflow, fire, hookPath } from "../../features/workflows/testing.ts";
import { post, setup } from "../library/test-helpers.ts";
import { errorBeside, submitForm, fieldValue } from "./test-helpers.ts";

const DEF_WITH_PLACEHOLDER = {
  name: "Sort links",
  trigger: { type: "webhook" },
  actions: [
    {
      id: "save",
      type: "create_source",
      url: "{{ url }}",
      notebook_ids: ["{{ nb }}", "NOTEBOOK"],
    },
    {
      id: "check",
      type: "condition",
      if: {
        all: [
          { left: "{{ steps.save.created }}", op: "eq", right: true },
          { left: "{{ n }}", op: "gte", right: 5 },
          { left: "{{ tag }}", op: "in", right: ["a", "b"] },
          { left: "{{ s }}", op: "eq", right: "5" },
        ],
      },
      then: [
        {
          id: "mail",
          type: "send_email",
          to: ["a@example.com", "b@example.com"],
          subject: "New",
          text: "Line 1\nLine 2",
        },
      ],
      else: [
        {
          id: "feed",
          type: "watch_feed",
          feed_url: "https://example.com/feed.xml",
          schedule: "0 * * * *",
          backfill: 3,
        },
      ],
    },
    {
      id: "ping",
      type: "http_request",
      method: "PUT",
      url: "https://example.com/x",
      headers: { "X-A": "1" },
      body: { a: ["{{ url }}"] },
      body_type: "form",
      timeout_ms: 2000,
      sign: true,
    },
    { id: "pod", type: "create_podcast", format: "brief", source_ids: ["{{ steps.save.source.id }}"], title: "T" },
    { id: "nb", type: "create_notebook", name: "N", description: "D" },
    {
      id: "link",
      type: "add_source_to_notebook",
      source_id: "{{ steps.save.source.id }}",
      notebook_id: "{{ steps.nb.notebook.id }}",
    },
  ],
};

describe("workflows", () => {
  test("the list shows trigger, active and the last run's status marked for live updates", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      name: "Hooked <b>",
      trigger: { type: "webhook" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    await createWorkflow(ctx, me.key, {
      name: "On sources",
      active: false,
      trigger: { type: "event", event: "source.created" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const empty = await b.get("/workflows");
    expect(empty.text).toContain("Never run");
    const { runs } = await fire(ctx, hookPath(wf.webhook_url!), {});
    await ctx.runner.drain();
    const list = await b.get("/workflows");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Hooked &lt;b&gt;</a>");
    expect(list.text).toContain("Event <code>source.created</code>");
    expect(list.text).toContain('<span class="status inactive">inactive</span>');
    expect(list.text).toContain(
      `<span class="status succeeded" data-live="run" data-live-id="${runs[0]}" data-live-field="status">succeeded</span>`,
    );
    const page = await b.get(`/workflows/${wf.id}`);
    expect(page.text).toContain(`data-live-id="${runs[0]}"`);
    expect(page.text).toContain(`href="/runs/${runs[0]}"`);
  });

  test("every field of every action type survives the form and the JSON view unchanged", async () => {
    const { ctx, b, me } = await setup();
    const reading = await call(ctx, "POST", "/api/v1/notebooks", { key: me.key, body: { name: "Reading" } });
    const DEF = JSON.parse(JSON.stringify(DEF_WITH_PLACEHOLDER).replace("NOTEBOOK", reading.body.id));
    const wf = await createWorkflow(ctx, me.key, DEF);
    const before = (await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: me.key })).body;
    const edit = `/workflows/${wf.id}/edit`;
    const form = await b.get(edit);
    expect(fieldValue(form.text, "actions[1].if.all[1].right")).toBe("5");
    expect(fieldValue(form.text, "actions[1].if.all[3].right")).toBe('"5"');
    // The notebook is ticked in the list by name; the template stays text beside it.
    expect(form.text).toMatch(
      new RegExp(
        `<input type="checkbox" id="f-actions-0-notebook_ids-0" name="actions\\[0\\]\\.notebook_ids" value="${reading.body.id}" checked> Reading</label>`,
      ),
    );
    expect(fieldValue(form.text, "actions[0].notebook_ids.template")).toBe("{{ nb }}");
    // Form → JSON view → form → save: nothing changed.
    const json = await submitForm(ctx, b, form, edit, { op: "view_json" });
    expect(JSON.parse(fieldValue(json.text, "json")!)).toEqual({
      name: DEF.name,
      active: true,
      trigger: before.trigger,
      actions: DEF.actions,
    });
    const back = await submitForm(ctx, b, json, edit, { op: "view_form" });
    const saved = await submitForm(ctx, b, back, edit, { op: "save" });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/workflows/${wf.id}?notice=saved`);
    const after = (await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: me.key })).body;
    expect(after.actions).toEqual(DEF.actions);
    expect(after.trigger).toEqual(before.trigger);
  });

  test("saving from the JSON view; the form then shows the same", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      trigger: { type: "webhook" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const edit = `/workflows/${wf.id}/edit`;
    const jsonPage = await b.get(`${edit}?view=json`);
    const def = JSON.parse(fieldValue(jsonPage.text, "json")!);
    def.name = "Renamed";
    def.actions.push({ id: "s", type: "create_source", url: "{{ url }}" });
    const saved = await submitForm(ctx, b, jsonPage, edit, { op: "save", set: { json: JSON.stringify(def) } });
    expect(saved.location).toBe(`/workflows/${wf.id}?notice=saved`);
    const form = await b.get(edit);
    expect(fieldValue(form.text, "name")).toBe("Renamed");
    expect(fieldValue(form.text, "actions[1].url")).toBe("{{ url }}");
    expect((await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: me.key })).body.actions[1]).toEqual({
      id: "s",
      type: "create_source",
      url: "{{ url }}",
    });
  });

  test("the JSON view explains bad JSON, unknown fields, API errors and what the form cannot show", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      trigger: { type: "webhook" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const edit = `/workflows/${wf.id}/edit`;
    const page = await b.get(`${edit}?view=json`);
    const bad = await submitForm(ctx, b, page, edit, { op: "save", set: { json: "{ nope" } });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("json: is not valid JSON");
    expect(fieldValue(bad.text, "json")).toBe("{ nope");
    const extra = await submitForm(ctx, b, page, edit, {
      op: "save",
      set: { json: JSON.stringify({ name: "x", trigger: { type: "webhook" }, actions: [], colour: "red" }) },
    });
    expect(extra.text).toContain("colour: is not a field of a workflow");
    const api = await submitForm(ctx, b, page, edit, {
      op: "save",
      set: {
        json: JSON.stringify({
          name: "x",
          trigger: { type: "webhook" },
          actions: [{ id: "r", type: "http_request", url: "" }],
        }),
      },
    });
    expect(api.status).toBe(422);
    expect(api.text).toContain("actions[0].url: must not be empty");
    const lossy = await submitForm(ctx, b, page, edit, {
      op: "view_form",
      set: {
        json: JSON.stringify({
          name: "x",
          trigger: { type: "webhook" },
          actions: [{ id: "r", type: "create_notebook", name: "n", colour: 1 }],
        }),
      },
    });
    expect(lossy.status).toBe(422);
    expect(lossy.text).toContain("actions[0].colour: has no field in the form");
    expect((await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: me.key })).body.name).toBe("test");
  });

  test("switching an event workflow to a new webhook token shows the URL once, and the URL works", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      trigger: { type: "event", event: "note.created" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const edit = `/workflows/${wf.id}/edit`;
    const form = await b.get(edit);
    const saved = await submitForm(ctx, b, form, edit, {
      op: "save",
      set: { "trigger.type": "webhook", "trigger.token_id": "" },
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("Saved, with a new webhook token.");
    const url = /value="(http:\/\/localhost[^"]*\/api\/webhooks\/workflows\/cpw_[^"]+)"/.exec(saved.text)![1]!;
    expect((await call(ctx, "POST", hookPath(url), { body: {} })).status).toBe(202);
    expect((await b.get(`/workflows/${wf.id}`)).text).not.toContain(hookPath(url));
  });

  test("an event trigger's unknown field is refused beside the action's field", async () => {
    const { ctx, b } = await setup();
    let page = await b.get("/workflows/new");
    page = await submitForm(ctx, b, page, "/workflows/new", {
      set: { "add_type:actions": "create_notebook" },
      op: "add:actions",
    });
    page = await submitForm(ctx, b, page, "/workflows/new", {
      op: "save",
      set: { name: "E", "trigger.type": "event", "trigger.event": "source.created", "actions[0].name": "{{ colour }}" },
    });
    expect(page.status).toBe(422);
    expect(errorBeside(page.text, "f-actions-0-name")).toStartWith(
      '{{ colour }}: source.created events have no field "colour"; available: {{ id }}, {{ url }}',
    );
    expect(fieldValue(page.text, "trigger.event")).toBe("source.created");
    // The variables offered are the event's fields.
    expect(page.text).toContain("<code>{{ title }}</code>");
  });

  test("deactivate, activate and delete", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      trigger: { type: "webhook" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const off = await post(ctx, b, `/workflows/${wf.id}/active`, { active: "false", back: "/workflows" });
    expect(off.location).toBe("/workflows?notice=deactivated");
    expect((await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: me.key })).body.active).toBe(false);
    expect((await call(ctx, "POST", hookPath(wf.webhook_url!), { body: {} })).body.runs).toEqual([]);
    const on = await post(ctx, b, `/workflows/${wf.id}/active`, { active: "true", back: "https://evil.example/" });
    expect(on.location).toBe(`/workflows/${wf.id}?notice=activated`);
    expect((await call(ctx, "GET", `/api/v1/workflows/${wf.id}`, { key: me.key })).body.active).toBe(true);
    const confirm = await b.get(`/workflows/${wf.id}/delete`);
    expect(confirm.text).toContain("Delete this workflow?");
    const gone = await post(ctx, b, `/workflows/${wf.id}/delete`);
    expect(gone.location).toBe("/workflows?notice=deleted");
    expect((await b.get(`/workflows/${wf.id}`)).status).toBe(404);
  });
});

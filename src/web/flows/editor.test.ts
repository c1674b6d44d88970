// The workflow editor in the browser's terms: forms per action type, buttons that add, remove and
// reorder actions and clauses without JavaScript, the API's validation messages beside the fields,
// the JSON view's round trip, and the webhook URL shown exactly once.
import { describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { testBrowser } from "../../../test/browser-client.ts";
import { setup } from "../library/test-helpers.ts";
import { errorBeside, submitForm, fieldValue } from "./test-helpers.ts";

const NEW = "/workflows/new";

/** A new workflow form with actions added through the "Add action" button. */
async function withActions(
  ctx: Awaited<ReturnType<typeof setup>>["ctx"],
  b: Awaited<ReturnType<typeof setup>>["b"],
  types: string[],
) {
  let page = await b.get(NEW);
  for (const type of types)
    page = await submitForm(ctx, b, page, NEW, { set: { "add_type:actions": type }, op: "add:actions" });
  return page;
}

describe("workflow editor", () => {
  test("a signed-out visitor is sent to sign in and back", async () => {
    const { ctx } = await setup();
    const res = await testBrowser(ctx).get(NEW);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/signin?next=${encodeURIComponent(NEW)}`);
  });

  test("Add action gives each type its fields and a unique id, focused for the keyboard", async () => {
    const { ctx, b } = await setup();
    const page = await withActions(ctx, b, ["http_request", "create_source", "create_source", "condition"]);
    expect(page.status).toBe(200);
    for (const name of [
      "url",
      "method",
      "headers",
      "body",
      "body_type",
      "timeout_ms",
      "retries",
      "store_response",
      "sign",
    ]) {
      expect(page.text).toContain(`name="actions[0].${name}"`);
    }
    expect(fieldValue(page.text, "actions[1].id")).toBe("save");
    expect(fieldValue(page.text, "actions[2].id")).toBe("save_2");
    expect(page.text).toContain('name="actions[3].if.all[0].left"');
    expect(page.text).toContain('name="actions[3].if.match"');
    expect(page.text).toMatch(/id="f-actions-3-id" name="actions\[3\]\.id"[^>]*autofocus/);
    // Branch lists have their own add buttons; later steps are offered the earlier steps' outputs.
    expect(page.text).toContain('value="add:actions[3].then"');
    expect(page.text).toContain("{{ steps.save.source.id }}");
    expect(page.text).toContain("{{ steps.request.response.body }}");
  });

  test("move up, move down and remove keep what was typed", async () => {
    const { ctx, b } = await setup();
    let page = await withActions(ctx, b, ["create_notebook", "send_email"]);
    page = await submitForm(ctx, b, page, NEW, {
      set: { "actions[0].name": "Inbox", "actions[1].to": "me@example.com" },
      op: "down:actions[0]",
    });
    expect(fieldValue(page.text, "actions[0].type")).toBe("send_email");
    expect(fieldValue(page.text, "actions[0].to")).toBe("me@example.com");
    expect(fieldValue(page.text, "actions[1].name")).toBe("Inbox");
    expect(page.text).toMatch(/name="actions\[1\]\.id"[^>]*autofocus/);
    page = await submitForm(ctx, b, page, NEW, { set: { "add_type:actions": "create_source" }, op: "add:actions" });
    page = await submitForm(ctx, b, page, NEW, { op: "up:actions[2]" });
    expect(page.text).toMatch(/value="up:actions\[1\]"[^>]*autofocus/);
    page = await submitForm(ctx, b, page, NEW, { op: "remove:actions[1]" });
    page = await submitForm(ctx, b, page, NEW, { op: "up:actions[1]" });
    expect(fieldValue(page.text, "actions[0].name")).toBe("Inbox");
    page = await submitForm(ctx, b, page, NEW, { op: "remove:actions[0]" });
    expect(fieldValue(page.text, "actions[0].type")).toBe("send_email");
    expect(fieldValue(page.text, "actions[1].type")).toBeUndefined();
  });

  test("clauses and branch actions are added and removed inside a condition", async () => {
    const { ctx, b } = await setup();
    let page = await withActions(ctx, b, ["condition"]);
    page = await submitForm(ctx, b, page, NEW, { op: "add_clause:actions[0].if.all" });
    expect(page.text).toContain('name="actions[0].if.all[1].op"');
    page = await submitForm(ctx, b, page, NEW, {
      set: { "actions[0].if.all[1].left": "{{ kind }}" },
      op: "remove_clause:actions[0].if.all[0]",
    });
    expect(fieldValue(page.text, "actions[0].if.all[0].left")).toBe("{{ kind }}");
    expect(page.text).not.toContain('name="actions[0].if.all[1].op"');
    page = await submitForm(ctx, b, page, NEW, {
      set: { "add_type:actions[0].else": "create_notebook" },
      op: "add:actions[0].else",
    });
    expect(fieldValue(page.text, "actions[0].else[0].type")).toBe("create_notebook");
    expect(page.text).toContain('value="remove:actions[0].else[0]"');
  });

  test("saving a webhook workflow shows its URL once; the definition is what the form said", async () => {
    const { ctx, b, me } = await setup();
    let page = await withActions(ctx, b, ["condition", "http_request"]);
    page = await submitForm(ctx, b, page, NEW, {
      set: { "add_type:actions[0].then": "create_source" },
      op: "add:actions[0].then",
    });
    const saved = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: {
        name: "Links from chat",
        "actions[0].id": "is_link",
        "actions[0].if.match": "any",
        "actions[0].if.all[0].left": "{{ kind }}",
        "actions[0].if.all[0].op": "eq",
        "actions[0].if.all[0].right": "link",
        "actions[0].then[0].url": "{{ url }}",
        "actions[1].id": "notify",
        "actions[1].url": "https://chat.example/hook",
        "actions[1].headers": "X-Team: blue\nAuthorization: Bearer {{ token }}",
        "actions[1].body": '{"text": "Saved {{ steps.save.source.url }}", "n": 2}',
        "actions[1].retries": "2",
        "actions[1].store_response": "true",
      },
    });
    expect(saved.status).toBe(200);
    const url = /value="(http:\/\/localhost[^"]*\/api\/webhooks\/workflows\/cpw_[^"]+)"/.exec(saved.text)?.[1];
    expect(url).toBeString();
    expect(saved.text).toMatch(/data-replace-history="\/workflows\/wf_[0-9A-Z]{26}"/);
    expect(saved.text).toContain("It is shown only this once.");

    const list = await call(ctx, "GET", "/api/v1/workflows", { key: me.key });
    const wf = list.body.data[0];
    expect(wf.name).toBe("Links from chat");
    expect(wf.trigger.type).toBe("webhook");
    expect(wf.actions).toEqual([
      {
        id: "is_link",
        type: "condition",
        if: { any: [{ left: "{{ kind }}", op: "eq", right: "link" }] },
        then: [{ id: "save", type: "create_source", url: "{{ url }}" }],
      },
      {
        id: "notify",
        type: "http_request",
        method: "POST",
        url: "https://chat.example/hook",
        headers: { "X-Team": "blue", Authorization: "Bearer {{ token }}" },
        body: { text: "Saved {{ steps.save.source.url }}", n: 2 },
        retries: 2,
        store_response: true,
      },
    ]);
    const again = await b.get(`/workflows/${wf.id}`);
    expect(again.text).not.toContain(url!);
    expect(again.text).not.toContain("/api/webhooks/workflows/cpw_");
  });

  test("validation errors are the API's, beside their fields, with the input kept", async () => {
    const { ctx, b, me } = await setup();
    let page = await withActions(ctx, b, ["http_request", "send_email"]);
    page = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: {
        name: "",
        "actions[0].url": "https://x.example/{{ steps.nope.id }}",
        "actions[0].timeout_ms": "soon",
        "actions[1].to": "not an address",
        "actions[1].text": "<b>kept</b>",
      },
    });
    expect(page.status).toBe(422);
    const api = await call(ctx, "POST", "/api/v1/workflows", {
      key: me.key,
      body: { name: "", trigger: { type: "webhook" }, actions: [{ id: "r", type: "http_request", url: "x" }] },
    });
    expect(errorBeside(page.text, "f-name")).toBe(api.body.errors[0].message);
    expect(errorBeside(page.text, "f-actions-0-timeout_ms")).toBe("must be an integer from 100 to 120000");
    expect(page.text).toContain("The workflow was not saved");
    expect(fieldValue(page.text, "actions[1].text")).toBe("<b>kept</b>");
    expect(page.text).toContain("&lt;b&gt;kept&lt;/b&gt;</textarea>");
    expect((await call(ctx, "GET", "/api/v1/workflows", { key: me.key })).body.data).toHaveLength(0);

    // Fix the shapes: then the address check speaks, and after it the template references.
    page = await submitForm(ctx, b, page, NEW, { op: "save", set: { name: "W", "actions[0].timeout_ms": "5000" } });
    expect(page.status).toBe(422);
    expect(errorBeside(page.text, "f-actions-1-to")).toBe('"not an address" is not an email address');
    page = await submitForm(ctx, b, page, NEW, { op: "save", set: { "actions[1].to": "me@example.com" } });
    expect(page.status).toBe(422);
    expect(errorBeside(page.text, "f-actions-0-url")).toBe(
      '{{ steps.nope.id }}: there is no step with id "nope"; available: {{ trigger }}, {{ run.id }}, {{ run.workflow_id }}, {{ run.depth }}',
    );
    expect(page.text).toContain('<a href="#f-actions-0-url">actions[0].url</a>');
  });

  test("fields the form reads itself explain what is wrong: JSON bodies and header lines", async () => {
    const { ctx, b } = await setup();
    let page = await withActions(ctx, b, ["http_request"]);
    page = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: {
        name: "W",
        "actions[0].url": "https://x.example",
        "actions[0].body": "{text: 1}",
        "actions[0].headers": "just words",
      },
    });
    expect(page.status).toBe(422);
    expect(errorBeside(page.text, "f-actions-0-body")).toStartWith("is not valid JSON");
    expect(errorBeside(page.text, "f-actions-0-headers")).toContain("write each header as Name: value");
    expect(fieldValue(page.text, "actions[0].body")).toBe("{text: 1}");
    // The summary lists errors in the page's order, whichever check found them.
    page = await submitForm(ctx, b, page, NEW, { op: "save", set: { "actions[0].url": "" } });
    const summary = page.text.slice(page.text.indexOf("The workflow was not saved"));
    const order = ["#f-actions-0-url", "#f-actions-0-headers", "#f-actions-0-body"].map((a) =>
      summary.indexOf(`href="${a}"`),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    // The typed text survives a reorder too.
    page = await submitForm(ctx, b, page, NEW, { set: { "add_type:actions": "create_notebook" }, op: "add:actions" });
    page = await submitForm(ctx, b, page, NEW, { op: "up:actions[1]" });
    expect(fieldValue(page.text, "actions[1].body")).toBe("{text: 1}");
  });
});

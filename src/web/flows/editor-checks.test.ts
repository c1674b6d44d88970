// The editor catches mistakes when saving, without JavaScript: notebooks and workflows are chosen by name,
// a variable nothing provides is refused with the list of those that exist, a notebook name where an id
// belongs is refused; conditions show their rule; "Add action" can answer with the new card alone; and any
// action type's module is enough for the editor to render and read its form.
import { describe, expect, test } from "bun:test";
import { parseHTML } from "linkedom";
import { t } from "elysia";
import { call, createTestContext } from "../../../test/helpers.ts";
import { actionSchema } from "../../features/workflows/actions/base.ts";
import type { ActionModule } from "../../features/workflows/actions/types.ts";
import { signedInPerson, setup } from "../library/test-helpers.ts";
import { errorBeside, fieldValue, submitForm } from "./test-helpers.ts";

const NEW = "/workflows/new";

async function notebook(ctx: Parameters<typeof call>[0], key: string, name: string): Promise<string> {
  const r = await call(ctx, "POST", "/api/v1/notebooks", { key, body: { name } });
  expect(r.status).toBe(201);
  return r.body.id;
}

const optionsOf = (page: string, name: string) => {
  const { document } = parseHTML(page);
  const select = [...document.querySelectorAll("select")].find((s) => s.getAttribute("name") === name);
  return [...(select?.querySelectorAll("option") ?? [])].map((o) => [o.getAttribute("value"), o.textContent]);
};

describe("the editor catches mistakes when saving", () => {
  test("a notebook is chosen by name from a list sorted by name, and saved as its id", async () => {
    const { ctx, b, me } = await setup();
    const reading = await notebook(ctx, me.key, "Reading");
    const archive = await notebook(ctx, me.key, "archive");
    let page = await b.get(NEW);
    page = await submitForm(ctx, b, page, NEW, {
      set: { "add_type:actions": "create_source" },
      op: "add:actions",
    });
    page = await submitForm(ctx, b, page, NEW, {
      set: { "add_type:actions": "add_source_to_notebook" },
      op: "add:actions",
    });
    expect(optionsOf(page.text, "actions[1].notebook_id")).toEqual([
      ["", "Choose a notebook…"],
      [archive, "archive"],
      [reading, "Reading"],
    ]);
    // No box for a typed id: only the list, and a template box that says it is one.
    expect(page.text).toContain('<label for="f-actions-1-notebook_id-template">Or a template');
    expect(page.text).toContain(`name="actions[0].notebook_ids" value="${archive}"`);
    const saved = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: {
        name: "Reading list",
        "actions[0].url": "{{ url }}",
        "actions[0].notebook_ids": archive,
        "actions[1].source_id": "{{ steps.save.source.id }}",
        "actions[1].notebook_id": reading,
      },
    });
    expect(saved.status, saved.text.slice(0, 2000)).toBe(200);
    const wf = (await call(ctx, "GET", "/api/v1/workflows", { key: me.key })).body.data[0];
    expect(wf.actions).toEqual([
      { id: "save", type: "create_source", url: "{{ url }}", notebook_ids: [archive] },
      {
        id: "add_to_notebook",
        type: "add_source_to_notebook",
        source_id: "{{ steps.save.source.id }}",
        notebook_id: reading,
      },
    ]);
    // The workflow's page and its editor say which notebook, by name in the list.
    const edit = await b.get(`/workflows/${wf.id}/edit`);
    expect(fieldValue(edit.text, "actions[1].notebook_id")).toBe(reading);
  });

  test("a variable nothing provides is refused beside its field, listing the variables there are", async () => {
    const { ctx, b } = await setup();
    let page = await b.get(NEW);
    for (const type of ["create_notebook", "create_notebook"])
      page = await submitForm(ctx, b, page, NEW, { set: { "add_type:actions": type }, op: "add:actions" });
    page = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: {
        name: "Typos",
        "trigger.fields": "title, url",
        "actions[0].name": "{{ title }}",
        "actions[1].name": "{{ titel }} {{ steps.notebook.id }}",
      },
    });
    expect(page.status).toBe(422);
    const beside = errorBeside(page.text, "f-actions-1-name")!;
    expect(beside).toContain(
      '{{ titel }}: the webhook declares no body field "titel"; available: {{ title }}, {{ url }}, {{ trigger }}, {{ run.id }}',
    );
    expect(beside).toContain('{{ steps.notebook.id }}: step "notebook" (create_notebook) gives no "id"; it gives');
    expect(beside).toContain("{{ steps.notebook.notebook.id }}");
    expect(page.text).toContain('<a href="#f-actions-1-name">actions[1].name</a>');
    // The declared fields stay in the form, and the variables panel offers them.
    expect(fieldValue(page.text, "trigger.fields")).toBe("title, url");
    expect(page.text).toContain('<option value="{{ title }}"></option>');
    page = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: { "actions[1].name": "{{ title }} in {{ steps.notebook.notebook.name }}" },
    });
    expect(page.status).toBe(200);
  });

  test("a notebook name where an id belongs is refused when saving, in the form and the JSON view", async () => {
    const { ctx, b, me } = await setup();
    const reading = await notebook(ctx, me.key, "Reading");
    let page = await b.get(NEW);
    page = await submitForm(ctx, b, page, NEW, {
      set: { "add_type:actions": "add_source_to_notebook" },
      op: "add:actions",
    });
    page = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: { name: "W", "actions[0].source_id": "{{ id }}", "actions[0].notebook_id.template": "Reading" },
    });
    expect(page.status).toBe(422);
    expect(errorBeside(page.text, "f-actions-0-notebook_id")).toBe(
      `"Reading" is the name of a notebook, not its id: use ${reading}`,
    );
    // Both a notebook from the list and a template: the form asks for one.
    page = await submitForm(ctx, b, page, NEW, {
      op: "save",
      set: { "actions[0].notebook_id": reading, "actions[0].notebook_id.template": "{{ nb }}" },
    });
    expect(errorBeside(page.text, "f-actions-0-notebook_id-template")).toBe(
      "choose from the list or write a template, not both",
    );

    const json = JSON.stringify({
      name: "W",
      trigger: { type: "webhook" },
      actions: [{ id: "a", type: "add_source_to_notebook", source_id: "{{ id }}", notebook_id: "Reading" }],
    });
    const answer = await submitForm(ctx, b, await b.get(`${NEW}?view=json`), NEW, { op: "save", set: { json } });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain(
      `actions[0].notebook_id: &quot;Reading&quot; is the name of a notebook, not its id: use ${reading}`,
    );
    expect((await call(ctx, "GET", "/api/v1/workflows", { key: me.key })).body.data).toHaveLength(0);
  });

  test("a condition shows its rule in the editor and on the workflow's page", async () => {
    const { ctx, b, me } = await setup();
    const wf = await call(ctx, "POST", "/api/v1/workflows", {
      key: me.key,
      body: {
        name: "Ready ones",
        trigger: { type: "webhook", fields: ["status", "n"] },
        actions: [
          {
            id: "check",
            type: "condition",
            if: {
              all: [
                { left: "{{ status }}", op: "eq", right: "ready" },
                { left: "{{ n }}", op: "gt", right: 5 },
              ],
            },
            then: [{ id: "nb", type: "create_notebook", name: "{{ status }}" }],
          },
        ],
      },
    });
    expect(wf.status, wf.text).toBe(201);
    const rule = "If {{ status }} equals ready and {{ n }} is greater than 5";
    expect((await b.get(`/workflows/${wf.body.id}`)).text).toContain(`<span class="mono">${rule}</span>`);
    const edit = await b.get(`/workflows/${wf.body.id}/edit`);
    expect(edit.text).toContain(`<p class="action-summary">${rule}</p>`);
    expect(edit.text).toContain('<option value="eq" selected>equals (eq)</option>');
  });

  test("with script, Add action answers with the new action's card alone", async () => {
    const { ctx, b, me } = await setup();
    await notebook(ctx, me.key, "Reading");
    let page = await b.get(NEW);
    page = await submitForm(ctx, b, page, NEW, { set: { "add_type:actions": "create_source" }, op: "add:actions" });
    const card = await submitForm(ctx, b, page, NEW, {
      set: { "add_type:actions": "create_source", partial: "1" },
      op: "add:actions",
    });
    expect(card.status).toBe(200);
    expect(card.headers.get("x-editor-fragment")).toBe("action");
    expect(card.text).toStartWith('<li data-action="actions[1]">');
    expect(card.text).not.toContain("<html");
    expect(fieldValue(card.text, "actions[1].id")).toBe("save_2");
    expect(card.text).toContain("{{ steps.save.source.id }}");
    expect(card.text).toContain("> Reading</label>");
    const script = await b.get(page.text.match(/src="(\/assets\/workflow-editor\.js\?v=[0-9a-f]+)"/)![1]!);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
  });
});

describe("the editor renders any action type from its module", () => {
  test("every action type has field metadata and a form, with no web code of its own", async () => {
    const tagSource: ActionModule = {
      type: "tag_source",
      title: "Tag a source",
      idBase: "tag",
      fields: [
        { key: "source_id", label: "Source", kind: "text", required: true },
        { key: "tag", label: "Tag", kind: "select", options: ["later", "keep"], initial: "later" },
        { key: "notebook_id", label: "Also into notebook", kind: "notebook" },
        { key: "loud", label: "Announce it", kind: "bool" },
      ],
      outputs: ["tagged"],
      summary: (a) => `tag ${String(a.tag)}`,
      available: true,
      mode: "transaction",
      schema: actionSchema(
        "tag_source",
        {
          source_id: t.String({ minLength: 1 }),
          tag: t.String(),
          notebook_id: t.Optional(t.String()),
          loud: t.Optional(t.Boolean()),
        },
        "A test action",
      ),
      run: () => ({ output: { tagged: true } }),
    };
    const ctx = createTestContext({}, { actions: [tagSource] });
    const me = await signedInPerson(ctx);
    const nb = await notebook(ctx, me.key, "Reading");
    const catalog = ctx.services.workflows.service.catalog;
    expect(catalog.modules.map((m) => m.type)).toContain("tag_source");
    for (const mod of catalog.modules) {
      expect(mod.title.length, mod.type).toBeGreaterThan(0);
      expect(mod.idBase, mod.type).toMatch(/^[a-z_]+$/);
      expect(Array.isArray(mod.fields), mod.type).toBe(true);
      expect(mod.fields.length, mod.type).toBeGreaterThan(0);
      expect(mod.outputs.length, mod.type).toBeGreaterThan(0);
      // Every field the form shows is a property of the action's saved shape.
      for (const f of mod.fields) expect(Object.keys(mod.schema.properties), `${mod.type}.${f.key}`).toContain(f.key);
      let page = await me.b.get(NEW);
      page = await submitForm(ctx, me.b, page, NEW, { set: { "add_type:actions": mod.type }, op: "add:actions" });
      expect(fieldValue(page.text, "actions[0].type"), mod.type).toBe(mod.type);
      expect(fieldValue(page.text, "actions[0].id"), mod.type).toBe(mod.idBase);
      for (const f of mod.fields) {
        const name = f.kind === "condition" ? "actions[0].if.match" : `actions[0].${f.key}`;
        expect(page.text, `${mod.type}.${f.key}`).toContain(`name="${name}"`);
      }
    }
    // The test action saves through the form like any other.
    let page = await me.b.get(NEW);
    page = await submitForm(ctx, me.b, page, NEW, { set: { "add_type:actions": "tag_source" }, op: "add:actions" });
    expect(optionsOf(page.text, "actions[0].tag")).toEqual([
      ["later", "later"],
      ["keep", "keep"],
    ]);
    const saved = await submitForm(ctx, me.b, page, NEW, {
      op: "save",
      set: {
        name: "Tags",
        "actions[0].source_id": "{{ id }}",
        "actions[0].notebook_id": nb,
        "actions[0].loud": "true",
      },
    });
    expect(saved.status, saved.text.slice(0, 1500)).toBe(200);
    const wf = (await call(ctx, "GET", "/api/v1/workflows", { key: me.key })).body.data[0];
    expect(wf.actions).toEqual([
      { id: "tag", type: "tag_source", source_id: "{{ id }}", tag: "later", notebook_id: nb, loud: true },
    ]);
    expect((await me.b.get(`/workflows/${wf.id}`)).text).toContain('<span class="mono">tag later</span>');
  });
});

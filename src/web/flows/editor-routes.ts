// Web routes of the workflow editor: new and edit, in the form or the JSON view, with buttons that add,
// remove and reorder actions by posting the whole form (no JavaScript needed).
import { Elysia } from "elysia";
import { AppError, type FieldError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import type { WorkflowPublic } from "../../features/workflows/schema.ts";
import { formField, redirect } from "../http.ts";
import { here, lf, signInFirst } from "../library/common.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { walk } from "../../paging.ts";
import { definitionOf, draftOf, parseForm, type Draft } from "./draft.ts";
import { actionFragment, editorPage, type EditorInput } from "./editor-page.ts";
import { EDITOR_SCRIPT } from "./editor-script.ts";
import { formCannotShow, nameErrors, parseJsonDefinition, type JsonDefinition } from "./json-def.ts";
import { applyOp, parseOp } from "./ops.ts";
import { workflowPageResponse } from "./workflow-routes.ts";

const PICKER = 100;
/** Notebooks offered by name: all of them up to this many (the list gets a filter box past a dozen). */
const NOTEBOOKS_OFFERED = 2000;
const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.name.localeCompare(b.name);
const blank = (): Draft => ({ name: "", active: true, trigger: { type: "webhook" }, actions: [] });
const jsonText = (d: Draft) => JSON.stringify(definitionOf(d), null, 2);
const validationErrors = (e: unknown): FieldError[] | undefined =>
  e instanceof AppError && e.code === "validation_failed"
    ? (e.extra.errors ?? [{ path: "", message: e.detail ?? e.message }])
    : undefined;

export function editorWebRoutes(s: Pick<WebDeps, "notebooks" | "webhookTokens" | "workflows">, h: WebHelpers) {
  const wfs = s.workflows.service;
  const catalog = wfs.catalog;

  async function notebooksOf(me: SignedIn): Promise<{ id: string; name: string }[]> {
    const out: { id: string; name: string }[] = [];
    for await (const nb of walk((cursor) => s.notebooks.list(me.actor, { limit: 200, cursor }))) {
      out.push({ id: nb.id, name: nb.name });
      if (out.length >= NOTEBOOKS_OFFERED) break;
    }
    return out.sort(byName);
  }

  async function input(
    me: SignedIn,
    id: string | undefined,
    extra: Pick<EditorInput, "view" | "draft"> & Partial<EditorInput>,
  ): Promise<EditorInput> {
    const name = id ? (await wfs.get(me.actor, id)).name : "";
    return {
      user: h.layoutUser(me),
      action: id ? `/workflows/${id}/edit` : "/workflows/new",
      heading: id ? `Edit “${name}”` : "New workflow",
      cancel: id ? `/workflows/${id}` : "/workflows",
      catalog,
      tokens: (await s.webhookTokens.list(me.actor, { limit: PICKER })).data,
      notebooks: await notebooksOf(me),
      workflows: (await wfs.list(me.actor, { limit: 500 })).data
        .filter((w) => w.id !== id)
        .map((w) => ({ id: w.id, name: w.name }))
        .sort(byName),
      ...extra,
    };
  }

  const render = async (...args: Parameters<typeof input>) => editorPage(await input(...args));

  /** Creates or updates; a new webhook token's URL is shown on the workflow's page in this response only. */
  async function save(me: SignedIn, id: string | undefined, def: JsonDefinition | Draft): Promise<Response> {
    const input = { name: def.name, active: def.active, trigger: def.trigger, actions: def.actions };
    const wf: WorkflowPublic = id ? await wfs.update(me.actor, id, input) : await wfs.create(me.actor, input);
    if (wf.webhook_url)
      return workflowPageResponse(s, h, me, wf.id, {
        webhookUrl: wf.webhook_url,
        flash: { kind: "ok", text: id ? "Saved, with a new webhook token." : "Workflow created." },
      });
    return redirect(`/workflows/${wf.id}?notice=${id ? "saved" : "created"}`);
  }

  async function fromJson(me: SignedIn, id: string | undefined, body: unknown): Promise<Response> {
    const json = lf(formField(body, "json"));
    const op = parseOp(formField(body, "op"));
    const { def, errors } = parseJsonDefinition(json);
    const again = (errs: FieldError[]) =>
      render(me, id, { view: "json", draft: blank(), json, errors: errs, focus: "json", status: 422 });
    if (!def) return again(errors);
    if (op.verb === "view_form") {
      const lost = formCannotShow(def, catalog);
      return lost.length ? again(lost) : render(me, id, { view: "form", draft: draftOf(def) });
    }
    const named = nameErrors(def.name);
    if (named.length) return again(named);
    try {
      return await save(me, id, def);
    } catch (e) {
      const errs = validationErrors(e);
      if (!errs) throw e;
      return again(errs);
    }
  }

  async function fromForm(me: SignedIn, id: string | undefined, body: unknown): Promise<Response> {
    const { draft, errors: local } = parseForm(body as Record<string, unknown>, catalog);
    const op = parseOp(formField(body, "op"));
    if (op.verb === "view_json") {
      if (local.length) return render(me, id, { view: "form", draft, errors: local, status: 422 });
      return render(me, id, { view: "json", draft, json: jsonText(draft) });
    }
    if (op.verb !== "save") {
      const focus = applyOp(draft, op, { addType: (list) => formField(body, `add_type:${list}`) }, catalog);
      // With script, "Add action" asks for the new action's card alone and inserts it.
      if (op.verb === "add" && focus && formField(body, "partial") === "1")
        return actionFragment(await input(me, id, { view: "form", draft }), focus.replace(/\.id$/, ""));
      return render(me, id, { view: "form", draft, errors: local, focus });
    }
    const errors = [...nameErrors(draft.name), ...local];
    try {
      await wfs.check(me.actor, { trigger: draft.trigger, actions: draft.actions }, id);
    } catch (e) {
      const errs = validationErrors(e);
      if (!errs) throw e;
      errors.push(...errs);
    }
    if (errors.length) return render(me, id, { view: "form", draft, errors, status: 422 });
    try {
      return await save(me, id, draft);
    } catch (e) {
      const errs = validationErrors(e);
      if (!errs) throw e;
      return render(me, id, { view: "form", draft, errors: errs, status: 422 });
    }
  }

  async function post(me: SignedIn, id: string | undefined, body: unknown): Promise<Response> {
    if (id) await wfs.get(me.actor, id); // another user's workflow is 404 before anything is read
    return formField(body, "view") === "json" ? fromJson(me, id, body) : fromForm(me, id, body);
  }

  async function stored(me: SignedIn, id: string): Promise<Draft> {
    const wf = await wfs.get(me.actor, id);
    return draftOf({ name: wf.name, active: wf.active, trigger: wf.trigger, actions: wf.actions });
  }

  return (
    new Elysia()
      // GET /assets/workflow-editor.js — versioned by its path's ?v=, so it may be cached for good.
      .get(
        "/assets/workflow-editor.js",
        () =>
          new Response(EDITOR_SCRIPT, {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "public, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
            },
          }),
      )
      // GET /workflows/new
      .get(
        "/workflows/new",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const draft = blank();
          return query.view === "json"
            ? render(me, undefined, { view: "json", draft, json: jsonText(draft) })
            : render(me, undefined, { view: "form", draft });
        }),
      )
      // POST /workflows/new — every editor button (save, views, add/remove/move) posts here
      .post(
        "/workflows/new",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/workflows/new");
          return post(me, undefined, body);
        }),
      )
      // GET /workflows/:id/edit
      .get(
        "/workflows/:id/edit",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const id = params.id ?? "";
          const draft = await stored(me, id);
          return query.view === "json"
            ? render(me, id, { view: "json", draft, json: jsonText(draft) })
            : render(me, id, { view: "form", draft });
        }),
      )
      // POST /workflows/:id/edit
      .post(
        "/workflows/:id/edit",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(`/workflows/${id}/edit`);
          return post(me, id, body);
        }),
      )
  );
}

// Web routes for workflows: the list, one workflow with its runs, activate/deactivate and delete.
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import type { TokenPublic } from "../../features/webhooks/schema.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField, redirect } from "../http.ts";
import { cursorOf, flashOf, here, signInFirst } from "../library/common.ts";
import { nextKey } from "../../paging.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { confirmPage, workflowPage, workflowsListPage } from "./workflow-pages.ts";

const LIST_SIZE = 50;
const RUNS_SHOWN = 20;
export const WORKFLOW_ID = /^wf_[0-9A-Z]{26}$/;
const RUN_ID = /^run_[0-9A-Z]{26}$/;
const NOTICES: Record<string, Flash> = {
  created: { kind: "ok", text: "Workflow created." },
  saved: { kind: "ok", text: "Saved." },
  activated: { kind: "ok", text: "The workflow is active: its trigger starts runs again." },
  deactivated: { kind: "ok", text: "The workflow is inactive: nothing starts it until you activate it." },
  deleted: { kind: "ok", text: "The workflow and its run history were deleted." },
};

export async function tokenMap(s: Pick<WebDeps, "webhookTokens">, me: SignedIn): Promise<Map<string, TokenPublic>> {
  return new Map((await s.webhookTokens.list(me.actor, { limit: 500 })).data.map((t) => [t.id, t]));
}

/** One workflow's page; also the answer to a save that made a webhook token (its URL shown once). */
export async function workflowPageResponse(
  s: Pick<WebDeps, "notebooks" | "webhookTokens" | "workflows">,
  h: WebHelpers,
  me: SignedIn,
  id: string,
  extra: { before?: string; webhookUrl?: string; flash?: Flash } = {},
): Promise<Response> {
  const workflow = await s.workflows.service.get(me.actor, id);
  const runs = await s.workflows.runs.list(me.actor, id, { limit: RUNS_SHOWN, cursor: cursorOf(extra.before, RUN_ID) });
  return workflowPage({
    user: h.layoutUser(me),
    workflow,
    catalog: s.workflows.service.catalog,
    names: {
      notebooks: (await s.notebooks.list(me.actor, { limit: 200 })).data,
      workflows: (await s.workflows.service.list(me.actor, { limit: 200 })).data,
    },
    tokens: await tokenMap(s, me),
    runs: runs.data,
    next: nextKey(runs),
    webhookUrl: extra.webhookUrl,
    flash: extra.flash,
  });
}

export function workflowWebRoutes(s: Pick<WebDeps, "notebooks" | "webhookTokens" | "workflows">, h: WebHelpers) {
  const wfs = s.workflows.service;

  return (
    new Elysia()
      // GET /workflows
      .get(
        "/workflows",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const page = await wfs.list(me.actor, { limit: LIST_SIZE, cursor: cursorOf(query.before, WORKFLOW_ID) });
          const next = nextKey(page);
          const list = await Promise.all(
            page.data.map(async (workflow) => ({
              workflow,
              lastRun: (await s.workflows.runs.list(me.actor, workflow.id, { limit: 1 })).data[0],
            })),
          );
          return workflowsListPage({
            user: h.layoutUser(me),
            rows: list,
            tokens: await tokenMap(s, me),
            next,
            flash: flashOf(NOTICES, query.notice),
          });
        }),
      )
      // GET /workflows/:id
      .get(
        "/workflows/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return workflowPageResponse(s, h, me, params.id ?? "", {
            before: query.before,
            flash: flashOf(NOTICES, query.notice),
          });
        }),
      )
      // POST /workflows/:id/active — activate or deactivate
      .post(
        "/workflows/:id/active",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(`/workflows/${id}`);
          const active = formField(body, "active") === "true";
          await wfs.update(me.actor, id, { active });
          const back = formField(body, "back") === "/workflows" ? "/workflows" : `/workflows/${id}`;
          return redirect(`${back}?notice=${active ? "activated" : "deactivated"}`);
        }),
      )
      // GET /workflows/:id/delete — asks first
      .get(
        "/workflows/:id/delete",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const wf = await wfs.get(me.actor, params.id ?? "");
          return confirmPage({
            user: h.layoutUser(me),
            title: "Delete this workflow?",
            name: wf.name,
            button: "Delete",
            note: "Its run history and feed watches go with it. Its webhook token stays (see Webhook tokens).",
            action: `/workflows/${wf.id}/delete`,
            cancel: `/workflows/${wf.id}`,
          });
        }),
      )
      // POST /workflows/:id/delete
      .post(
        "/workflows/:id/delete",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(`/workflows/${id}`);
          await wfs.delete(me.actor, id);
          return redirect("/workflows?notice=deleted");
        }),
      )
  );
}

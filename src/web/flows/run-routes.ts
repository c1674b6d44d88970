// Web routes for runs: one run with its steps, and replay from the failed step or from the start.
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import type { WorkflowPublic } from "../../features/workflows/schema.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField, redirect } from "../http.ts";
import { here, signInFirst } from "../library/common.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { fragmentResponse, fragmentSignedOut } from "../live.ts";
import { runLive, runPage } from "./run-pages.ts";

const NOTICES: Record<string, Flash> = {
  replayed: { kind: "ok", text: "Replay started. This is the new run." },
};

export function runWebRoutes(s: Pick<WebDeps, "live" | "workflows">, h: WebHelpers) {
  const runs = s.workflows.runs;

  async function workflowOf(me: SignedIn, id: string): Promise<WorkflowPublic | null> {
    try {
      return await s.workflows.service.get(me.actor, id);
    } catch {
      return null;
    }
  }

  async function runResponse(
    me: SignedIn,
    id: string,
    extra: { flash?: Flash; status?: number } = {},
  ): Promise<Response> {
    const since = await s.live.events.latestSeq(); // before reading: a change after it reaches the page live
    const run = await runs.get(me.actor, id);
    return runPage({ user: h.layoutUser(me), run, workflow: await workflowOf(me, run.workflow_id), since, ...extra });
  }

  return (
    new Elysia()
      // GET /runs/:id
      .get(
        "/runs/:id",
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return runResponse(me, params.id ?? "", {
            flash: query.notice === "replayed" ? NOTICES.replayed : undefined,
          });
        }),
      )
      // GET /runs/:id/live — the part of the run's page that changes, for the live script
      .get(
        "/runs/:id/live",
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return fragmentSignedOut();
          const run = await runs.get(me.actor, params.id ?? "");
          return fragmentResponse(runLive(run, h.layoutUser(me).csrfToken));
        }),
      )
      // POST /runs/:id/replay — from=failed (default) or from=start
      .post(
        "/runs/:id/replay",
        h.page(async ({ request, body, params }) => {
          const id = params.id ?? "";
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(`/runs/${id}`);
          const from = formField(body, "from") === "start" ? "start" : "failed";
          try {
            const next = await runs.replay(me.actor, id, from);
            return redirect(`/runs/${next.id}?notice=replayed`);
          } catch (e) {
            // Not finished, nothing failed, the failed step was removed: say why on the run's own page.
            if (!(e instanceof AppError) || e.code !== "conflict") throw e;
            const text = (e.detail ?? e.message).replace("use ?from=start", "use “Replay from start”");
            return runResponse(me, id, { flash: { kind: "error", text }, status: 409 });
          }
        }),
      )
  );
}

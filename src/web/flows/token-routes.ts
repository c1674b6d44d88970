// Web routes for Settings → Webhook tokens: list, create (URL shown once), regenerate (asks first; the
// old URL stops at once) and delete (refused while a workflow uses the token).
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import type { WebDeps } from "../deps.ts";
import { newCsrfToken } from "../csrf.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField, redirect } from "../http.ts";
import { flashOf, here, signInFirst } from "../library/common.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import type { SignedIn } from "../service.ts";
import { tokensPage, type TokensPageInput } from "./token-pages.ts";
import { confirmPage } from "./workflow-pages.ts";

const SHOWN = 100;
const FORM_TTL_MS = 24 * 3600 * 1000;
const FORM_ID_RE = /^[A-Za-z0-9_-]{16,64}$/;
const PATH = "/settings/webhook-tokens";
const NOTICES: Record<string, Flash> = {
  deleted: { kind: "ok", text: "The token was deleted; its URL no longer works." },
};

export function tokenWebRoutes(
  s: Pick<WebDeps, "clock" | "tokenForms" | "webhookTokens" | "workflows">,
  h: WebHelpers,
) {
  const tokens = s.webhookTokens;
  // Create forms already answered: a resubmitted (reloaded) form must not make a second token.
  const usedForms = s.tokenForms;

  async function firstUse(userId: string, formId: string): Promise<boolean> {
    if (!FORM_ID_RE.test(formId)) return true;
    const now = s.clock.now();
    return usedForms.claim(userId, formId, now + FORM_TTL_MS, now);
  }

  async function names(me: SignedIn): Promise<Map<string, string>> {
    return new Map((await s.workflows.service.list(me.actor, { limit: 500 })).data.map((w) => [w.id, w.name]));
  }

  async function listResponse(me: SignedIn, extra: Partial<TokensPageInput> = {}): Promise<Response> {
    return tokensPage({
      user: h.layoutUser(me),
      tokens: (await tokens.list(me.actor, { limit: SHOWN })).data,
      names: await names(me),
      formId: newCsrfToken(),
      ...extra,
    });
  }

  return (
    new Elysia()
      // GET /settings/webhook-tokens
      .get(
        PATH,
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          return listResponse(me, { flash: flashOf(NOTICES, query.notice) });
        }),
      )
      // POST /settings/webhook-tokens — the URL is in this response only
      .post(
        PATH,
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          if (!(await firstUse(me.user.id, formField(body, "form_id")))) {
            const text =
              "This form was already sent, so no other token was made and its URL is not shown again. If you did not copy it, regenerate the token.";
            return listResponse(me, { flash: { kind: "error", text }, status: 409 });
          }
          const t = await tokens.create(me.actor);
          return listResponse(me, { created: { url: t.url, hint: t.hint, regenerated: false } });
        }),
      )
      // GET /settings/webhook-tokens/:id/regenerate — asks first
      .get(
        `${PATH}/:id/regenerate`,
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(here(request));
          const t = await tokens.get(me.actor, params.id ?? "");
          const n = t.workflow_ids.length;
          return confirmPage({
            user: h.layoutUser(me),
            title: "Regenerate this token?",
            name: t.hint,
            button: "Regenerate",
            note: `The current URL stops working at once${n ? ` for the ${n} workflow${n === 1 ? "" : "s"} using it` : ""}; the new one is shown once.`,
            action: `${PATH}/${t.id}/regenerate`,
            cancel: PATH,
          });
        }),
      )
      // POST /settings/webhook-tokens/:id/regenerate
      .post(
        `${PATH}/:id/regenerate`,
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          const t = await tokens.regenerate(me.actor, params.id ?? "");
          return listResponse(me, { created: { url: t.url, hint: t.hint, regenerated: true } });
        }),
      )
      // POST /settings/webhook-tokens/:id/delete
      .post(
        `${PATH}/:id/delete`,
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          const id = params.id ?? "";
          try {
            await tokens.delete(me.actor, id);
          } catch (e) {
            if (!(e instanceof AppError) || e.code !== "conflict") throw e;
            const t = await tokens.get(me.actor, id);
            const known = await names(me);
            const list = t.workflow_ids.map((w) => `“${known.get(w) ?? w}”`).join(", ");
            const text = `The token ${t.hint} is still used by ${list}. Choose another token in ${t.workflow_ids.length === 1 ? "that workflow" : "those workflows"} or delete ${t.workflow_ids.length === 1 ? "it" : "them"} first.`;
            return listResponse(me, { flash: { kind: "error", text }, status: 409 });
          }
          return redirect(`${PATH}?notice=deleted`);
        }),
      )
  );
}

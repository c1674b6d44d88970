// Web routes for Settings (the index) and Settings → Account: plan, credits and their spending,
// changing the password (which signs out the user's other sessions and apps), and signing out everywhere.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { WebDeps } from "./deps.ts";
import type { Actor } from "../actor.ts";
import { accountPage, settingsIndexPage, type SpendView } from "./account-pages.ts";
import { pageResponse, type Flash } from "../http/html/html.ts";
import { cookie, formField, redirect, SESSION_COOKIE, signInFirst } from "./http.ts";
import type { WebHelpers } from "./oauth-routes.ts";
import type { FieldErrors } from "./pages.ts";
import type { SignedIn, WebService } from "./service.ts";

const RECENT_SPENDS = 20;
const LABELS: Record<string, string> = { current_password: "Current password", new_password: "New password" };
const NOTICES: Record<string, Flash> = {
  password_changed: {
    kind: "ok",
    text: "Your password was changed. Every other browser and device signed in as you was signed out, and connected apps lost their access; this one stays signed in.",
  },
  password_changed_keys: {
    kind: "ok",
    text: "Your password was changed. Every other browser and device signed in as you was signed out, connected apps lost their access and your API keys were revoked; this one stays signed in.",
  },
};

/** Field messages as the service words them, led by the field's label where they start in lower case. */
function fieldErrors(e: AppError): FieldErrors {
  const out: FieldErrors = {};
  for (const { path, message } of e.extra.errors ?? [])
    out[path] ??= /^[a-z]/.test(message) ? `${LABELS[path] ?? path} ${message}.` : `${message}.`;
  return out;
}

/** The "Also revoke my API keys" box: a browser sends it only when ticked (it starts ticked). */
const revokeKeys = (body: unknown): boolean => formField(body, "revoke_keys") === "1";

export function accountWebRoutes(s: Pick<WebDeps, "config" | "credits" | "podcasts">, h: WebHelpers, web: WebService) {
  /** Spends in words: questions, and podcasts by their title while they exist. */
  async function spends(actor: Actor): Promise<SpendView[]> {
    return Promise.all(
      (await s.credits.recentSpends(actor.userId, RECENT_SPENDS)).map(async (x) => {
        if (x.reason === "ask") return { at: x.created_at, amount: x.amount, what: "Asked a question" };
        if (x.reason === "podcast" && x.ref) {
          try {
            const p = await s.podcasts.get(actor, x.ref);
            return { at: x.created_at, amount: x.amount, what: `Podcast “${p.title}”`, href: `/podcasts/${p.id}` };
          } catch {
            return { at: x.created_at, amount: x.amount, what: "A podcast since deleted" };
          }
        }
        return { at: x.created_at, amount: x.amount, what: x.reason };
      }),
    );
  }

  async function accountResponse(
    me: SignedIn,
    extra: {
      fieldErrors?: FieldErrors;
      revokeKeys?: boolean;
      flash?: Flash;
      status?: number;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Response> {
    const { plan, ...balance } = await s.credits.balance(me.user.id);
    const markup = accountPage({
      user: h.layoutUser(me),
      memberSince: me.user.createdAt,
      plan,
      balance,
      spends: await spends(me.actor),
      costs: { ask: s.config.credits.askCost, podcastPerMinute: s.config.credits.podcastPerMinute },
      fieldErrors: extra.fieldErrors,
      revokeKeys: extra.revokeKeys,
      flash: extra.flash,
    });
    return pageResponse(markup, { status: extra.status, headers: extra.headers });
  }

  return (
    new Elysia()
      // GET /settings
      .get(
        "/settings",
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst("/settings");
          return pageResponse(settingsIndexPage({ user: h.layoutUser(me) }));
        }),
      )
      // GET /account — the page lives under Settings.
      .get("/account", () => redirect("/settings/account"))
      // GET /settings/account
      .get(
        "/settings/account",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst("/settings/account");
          const flash = query.notice && Object.hasOwn(NOTICES, query.notice) ? NOTICES[query.notice] : undefined;
          return accountResponse(me, { flash });
        }),
      )
      // POST /settings/account/password
      .post(
        "/settings/account/password",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/settings/account");
          try {
            await web.changePassword(
              me,
              { current: formField(body, "current_password"), next: formField(body, "new_password") },
              { revokeKeys: revokeKeys(body) },
            );
          } catch (e) {
            if (!(e instanceof AppError)) throw e;
            if (e.code === "rate_limited")
              return accountResponse(me, {
                fieldErrors: { current_password: e.detail ?? e.message },
                revokeKeys: revokeKeys(body),
                status: 429,
                headers: e.extra.headers,
              });
            if (e.code !== "validation_failed") throw e;
            // Passwords are never written back into the page; the person types them again.
            // The box keeps the person's choice: an unticked box must not come back ticked.
            return accountResponse(me, { fieldErrors: fieldErrors(e), revokeKeys: revokeKeys(body), status: 422 });
          }
          return redirect(
            `/settings/account?notice=${revokeKeys(body) ? "password_changed_keys" : "password_changed"}`,
          );
        }),
      )
      // POST /settings/account/sign-out-everywhere
      .post(
        "/settings/account/sign-out-everywhere",
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/settings/account");
          await web.signOutEverywhere(me);
          return redirect("/signin?notice=signed_out_everywhere", [
            cookie(SESSION_COOKIE, "", { secure: s.config.secureCookies, maxAgeSeconds: 0 }),
          ]);
        }),
      )
  );
}

// Web routes for OAuth: the consent page (sign in first when needed) and Settings → Connected apps.
// They reuse the web app's session, CSRF and error-page helpers handed over by webRoutes.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { WebDeps } from "./deps.ts";
import { contentSecurityPolicy } from "../http/html/assets.ts";
import { pageResponse, type Flash, type LayoutUser } from "../http/html/html.ts";
import { formField, redirect, signInFirst } from "./http.ts";
import { connectedAppsPage, consentPage } from "./oauth-pages.ts";
import type { SignedIn } from "./service.ts";
import { safeClientText } from "../features/oauth/client-text.ts";

export interface WebPageCtx {
  request: Request;
  body: unknown;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  server: { requestIP(r: Request): { address: string } | null } | null;
}

export interface WebHelpers {
  signedIn(request: Request): Promise<SignedIn | undefined>;
  layoutUser(me: SignedIn): LayoutUser;
  checkSessionPost(request: Request, body: unknown): Promise<SignedIn | undefined>;
  page(fn: (ctx: WebPageCtx) => Response | Promise<Response>): (ctx: WebPageCtx) => Promise<Response>;
}

const NOTICES: Record<string, Flash> = {
  app_revoked: { kind: "ok", text: "The app was disconnected. Its tokens stopped working at once." },
};
const REQUEST_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** The Allow form redirects to the app: CSP form-action must admit that one origin, and only it. */
function consentCsp(redirectUri: string): string {
  return contentSecurityPolicy().replace("form-action 'self'", `form-action 'self' ${new URL(redirectUri).origin}`);
}

export function oauthWebRoutes(s: Pick<WebDeps, "oauth">, h: WebHelpers) {
  const { oauth } = s;
  return (
    new Elysia()
      // GET /oauth/consent?request=…
      .get(
        "/oauth/consent",
        h.page(async ({ request, query }) => {
          const id = REQUEST_RE.test(query.request ?? "") ? query.request! : "";
          const me = await h.signedIn(request);
          if (!me) return signInFirst(`/oauth/consent?request=${id}`);
          const p = await oauth.pendingAuthorization(id);
          if (!p)
            throw new AppError(
              "not_found",
              "This authorization request expired or was already answered. Go back to the app and connect again.",
            );
          const markup = consentPage({
            user: h.layoutUser(me),
            requestId: id,
            // Rows registered before control characters were refused are shown without them.
            clientName: safeClientText(p.client.name) || new URL(p.redirectUri).host,
            redirectHost: new URL(p.redirectUri).host,
          });
          return pageResponse(markup, { headers: { "content-security-policy": consentCsp(p.redirectUri) } });
        }),
      )
      // POST /oauth/consent — Allow or Deny; either way the browser goes back to the app.
      .post(
        "/oauth/consent",
        h.page(async ({ request, body }) => {
          const id = formField(body, "request");
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(`/oauth/consent?request=${REQUEST_RE.test(id) ? id : ""}`);
          const location = await oauth.decide(me.user.id, id, formField(body, "decision") === "allow");
          return redirect(location);
        }),
      )
      // GET /settings/apps
      .get(
        "/settings/apps",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst("/settings/apps");
          const flash = query.notice ? NOTICES[query.notice] : undefined;
          return pageResponse(
            connectedAppsPage({ user: h.layoutUser(me), apps: await oauth.connectedApps(me.actor), flash }),
          );
        }),
      )
      // POST /settings/apps/:id/revoke
      .post(
        "/settings/apps/:id/revoke",
        h.page(async ({ request, body, params }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst("/settings/apps");
          await oauth.disconnect(me.actor, params.id ?? "");
          return redirect("/settings/apps?notice=app_revoked");
        }),
      )
  );
}

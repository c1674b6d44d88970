// The server-rendered web app: sign up, sign in, sign out and the API keys page (Settings). Handlers are
// thin; logic lives in service.ts, markup in pages.ts, CSRF checks in csrf.ts.
import { Elysia } from "elysia";
import { AppError, ERROR_CODES, type ErrorCode } from "../errors.ts";
import { metaOf } from "../http/context.ts";
import type { WebDeps } from "./deps.ts";
import { nextKey } from "../paging.ts";
import { faviconRoutes } from "./favicon.ts";
import { checkOrigin, isCsrfToken, newCsrfToken, requireToken } from "./csrf.ts";
import { pageResponse, type Flash, type LayoutUser } from "../http/html/html.ts";
import { clientAddress } from "../http/client-address.ts";
import { cookie, CSRF_COOKIE, formField, readCookie, redirect, safeNext, SESSION_COOKIE, signInFirst } from "./http.ts";
import { errorPage } from "../http/html/error-page.ts";
import { keysPage, signInPage, signupClosedPage, signUpPage, type FieldErrors, type KeysPageInput } from "./pages.ts";
import type { SignedIn } from "./service.ts";
import { oauthWebRoutes } from "./oauth-routes.ts";
import { libraryWebRoutes } from "./library/routes.ts";
import { outboxWebRoutes } from "./outbox.ts";
import { importExportWebRoutes } from "./import-export.ts";
import { searchQualityWebRoutes } from "./search-quality.ts";
import { podcastWebRoutes } from "./podcasts/routes.ts";
import { flowsWebRoutes } from "./flows/routes.ts";
import { accountWebRoutes } from "./account.ts";
import { liveWebRoutes } from "./live.ts";
import { extensionWebRoutes } from "./extension.ts";
import { appShellRoutes } from "./capture/app-shell.ts";
import { captureWebRoutes } from "./capture/routes.ts";

interface WebCtx {
  request: Request;
  body: unknown;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  server: { requestIP(r: Request): { address: string } | null } | null;
}

const NOTICES: Record<string, Flash> = {
  signed_out: { kind: "ok", text: "You are signed out." },
  signed_out_everywhere: {
    kind: "ok",
    text: "You are signed out on every browser and device, and connected apps lost their access. API keys still work.",
  },
  revoked: { kind: "ok", text: "The key was revoked. Requests that use it now fail with 401." },
};
// Friendlier than the API's titles for the errors a person can meet in the browser.
const TITLES: Partial<Record<ErrorCode, string>> = {
  csrf_failed: "This form cannot be accepted",
  not_found: "Not found",
  rate_limited: "Too many attempts",
};
const LABELS: Record<string, string> = { email: "Email", password: "Password", name: "Name" };

function fieldErrors(e: AppError): FieldErrors {
  const out: FieldErrors = {};
  for (const { path, message } of e.extra.errors ?? []) {
    out[path] ??= /^[a-z]/.test(message) ? `${LABELS[path] ?? path} ${message}` : message;
  }
  return out;
}

const failed = (e: unknown, ...codes: string[]): e is AppError => e instanceof AppError && codes.includes(e.code);

export function webRoutes(s: WebDeps) {
  const { web } = s;
  const secure = s.config.secureCookies;
  const baseUrl = s.config.baseUrl;

  async function signedIn(request: Request): Promise<SignedIn | undefined> {
    const me = await web.current(readCookie(request, SESSION_COOKIE));
    if (!me) return undefined;
    metaOf(request).actor = me.actor;
    return { ...me, path: new URL(request.url).pathname };
  }
  const layoutUser = (me: SignedIn): LayoutUser => ({
    name: me.user.name,
    email: me.user.email,
    csrfToken: me.session.csrfToken,
    path: me.path,
  });
  const sessionCookie = (token: string, expiresAt: string) =>
    cookie(SESSION_COOKIE, token, { secure, maxAgeSeconds: (Date.parse(expiresAt) - s.clock.now()) / 1000 });
  const clearSession = cookie(SESSION_COOKIE, "", { secure, maxAgeSeconds: 0 });

  /** The double-submit token for forms shown before there is a session. */
  function preSessionToken(request: Request): { token: string; cookies: string[] } {
    const existing = readCookie(request, CSRF_COOKIE);
    if (isCsrfToken(existing)) return { token: existing, cookies: [] };
    const token = newCsrfToken();
    return { token, cookies: [cookie(CSRF_COOKIE, token, { secure })] };
  }
  function checkPreSessionPost(request: Request, body: unknown): string {
    checkOrigin(request, baseUrl);
    const token = readCookie(request, CSRF_COOKIE);
    requireToken(isCsrfToken(token) ? token : undefined, formField(body, "csrf"));
    return token!;
  }
  async function checkSessionPost(request: Request, body: unknown): Promise<SignedIn | undefined> {
    checkOrigin(request, baseUrl);
    const me = await signedIn(request);
    if (me) requireToken(me.session.csrfToken, formField(body, "csrf"));
    return me;
  }

  async function keysResponse(
    me: SignedIn,
    extra: Partial<KeysPageInput> & { before?: string },
    status = 200,
  ): Promise<Response> {
    const { before, ...rest } = extra;
    const page = await web.listKeys(me.actor, before);
    const next = nextKey(page);
    return pageResponse(keysPage({ user: layoutUser(me), keys: page.data, next, formId: newCsrfToken(), ...rest }), {
      status,
    });
  }

  /** Expected failures render as HTML pages with their status; anything else reaches the global error plugin. */
  const page =
    (fn: (ctx: WebCtx) => Response | Promise<Response>) =>
    async (ctx: WebCtx): Promise<Response> => {
      try {
        return await fn(ctx);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        const me = await signedIn(ctx.request);
        const title = TITLES[e.code] ?? ERROR_CODES[e.code][1];
        const markup = errorPage({
          status: e.status,
          title,
          detail: e.detail ?? title,
          user: me ? layoutUser(me) : null,
          requestId: metaOf(ctx.request).id,
        });
        return pageResponse(markup, { status: e.status, headers: e.extra.headers });
      }
    };

  return (
    new Elysia()
      // GET /
      .get(
        "/",
        page(async ({ request }) => redirect((await signedIn(request)) ? "/library" : "/signin")),
      )
      // GET /signin
      .get(
        "/signin",
        page(async ({ request, query }) => {
          if (await signedIn(request)) return redirect(safeNext(query.next));
          const { token, cookies } = preSessionToken(request);
          const next = query.next && safeNext(query.next) === query.next ? query.next : undefined;
          const flash = query.notice ? NOTICES[query.notice] : undefined;
          return pageResponse(signInPage({ csrf: token, next, signupOpen: await web.signupOpen(), flash }), {
            cookies,
          });
        }),
      )
      // POST /signin
      .post(
        "/signin",
        page(async ({ request, body, server }) => {
          const csrf = checkPreSessionPost(request, body);
          const email = formField(body, "email");
          const rawNext = formField(body, "next");
          try {
            const { token, session } = await web.signIn(
              { email, password: formField(body, "password") },
              clientAddress(request, server),
            );
            return redirect(safeNext(rawNext), [sessionCookie(token, session.expiresAt)]);
          } catch (e) {
            if (!failed(e, "validation_failed", "invalid_credentials", "rate_limited")) throw e;
            const error = e.code === "validation_failed" ? undefined : e.detail;
            const next = rawNext && safeNext(rawNext) === rawNext ? rawNext : undefined;
            const markup = signInPage({
              csrf,
              email,
              next,
              error,
              fieldErrors: fieldErrors(e),
              signupOpen: await web.signupOpen(),
            });
            return pageResponse(markup, { status: e.status, headers: e.extra.headers });
          }
        }),
      )
      // GET /signup
      .get(
        "/signup",
        page(async ({ request, query }) => {
          const next = query.next && safeNext(query.next) === query.next ? query.next : undefined;
          if (await signedIn(request)) return redirect(next ?? "/library");
          if (!(await web.signupOpen())) return pageResponse(signupClosedPage(), { status: 403 });
          const { token, cookies } = preSessionToken(request);
          return pageResponse(signUpPage({ csrf: token, next }), { cookies });
        }),
      )
      // POST /signup
      .post(
        "/signup",
        page(async ({ request, body, server }) => {
          const csrf = checkPreSessionPost(request, body);
          const input = {
            email: formField(body, "email"),
            password: formField(body, "password"),
            name: formField(body, "name"),
          };
          // An OAuth authorization (or any local page) that sent the person here continues after sign-up.
          const rawNext = formField(body, "next");
          const next = rawNext && safeNext(rawNext) === rawNext ? rawNext : undefined;
          try {
            const { token, session } = await web.signUp(input, clientAddress(request, server));
            return redirect(next ?? "/library", [sessionCookie(token, session.expiresAt)]);
          } catch (e) {
            if (failed(e, "signup_closed")) return pageResponse(signupClosedPage(), { status: 403 });
            if (failed(e, "rate_limited")) {
              const markup = signUpPage({ csrf, email: input.email, name: input.name, next, error: e.detail });
              return pageResponse(markup, { status: 429, headers: e.extra.headers });
            }
            if (!failed(e, "validation_failed", "conflict")) throw e;
            const errors = e.code === "conflict" ? { email: e.detail ?? e.message } : fieldErrors(e);
            return pageResponse(signUpPage({ csrf, email: input.email, name: input.name, next, fieldErrors: errors }), {
              status: e.status,
            });
          }
        }),
      )
      // POST /signout
      .post(
        "/signout",
        page(async ({ request, body }) => {
          const me = await checkSessionPost(request, body);
          if (me) await web.signOut(me.session.id);
          return redirect("/signin?notice=signed_out", [clearSession]);
        }),
      )
      // GET /settings/keys
      .get(
        "/settings/keys",
        page(async ({ request, query }) => {
          const me = await signedIn(request);
          if (!me) return signInFirst("/settings/keys");
          return keysResponse(me, { flash: query.notice ? NOTICES[query.notice] : undefined, before: query.before });
        }),
      )
      // POST /settings/keys — the new key is in this response only: never in a URL, never stored.
      .post(
        "/settings/keys",
        page(async ({ request, body }) => {
          const me = await checkSessionPost(request, body);
          if (!me) return signInFirst("/settings/keys");
          const name = formField(body, "name");
          try {
            const created = await web.createKey(me.actor, name, formField(body, "form_id"));
            if (created === "already_used") {
              const text =
                "This form was already submitted, so no new key was made and the key is not shown again. If you did not copy it, revoke it and create another.";
              return await keysResponse(me, { flash: { kind: "error", text } }, 409);
            }
            return await keysResponse(me, { newKey: { name: created.row.name, key: created.key } });
          } catch (e) {
            if (!failed(e, "validation_failed")) throw e;
            return keysResponse(me, { name, nameError: fieldErrors(e).name }, 422);
          }
        }),
      )
      // POST /settings/keys/:id/revoke
      .post(
        "/settings/keys/:id/revoke",
        page(async ({ request, body, params }) => {
          const me = await checkSessionPost(request, body);
          if (!me) return signInFirst("/settings/keys");
          await web.revokeKey(me.actor, params.id ?? "");
          return redirect("/settings/keys?notice=revoked");
        }),
      )
      .use(faviconRoutes())
      .use(appShellRoutes())
      .use(oauthWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(libraryWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(outboxWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(importExportWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(searchQualityWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(podcastWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(flowsWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(accountWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }, web))
      .use(liveWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(extensionWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
      .use(captureWebRoutes(s, { signedIn, layoutUser, checkSessionPost, page }))
  );
}

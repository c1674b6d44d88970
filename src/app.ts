// createApp: the table of contents of the HTTP surface. It never listens; main.ts does.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { createApiAuth } from "./http/auth.ts";
import { errorPlugin } from "./http/errors.ts";
import { idempotencyPlugin } from "./http/idempotency.ts";
import { createIdempotencyRepo } from "./http/idempotency-repo.ts";
import { routerPath } from "./http/path.ts";
import { withRequestHandling } from "./http/request.ts";
import { apiReferenceRoutes } from "./http/api-reference.ts";
import { API_DESCRIPTION, augmentSpec } from "./http/openapi-spec.ts";
import { strictBodies } from "./http/strict-body.ts";
import { createPageErrors } from "./web/errors.ts";
import { readCookie, SESSION_COOKIE } from "./web/http.ts";
import type { Services } from "./services.ts";

/** What the HTTP surface needs beyond the features' routes: shared plugins and the bearer check. */
export type AppDeps = Pick<
  Services,
  "features" | "config" | "db" | "clock" | "logger" | "keys" | "accounts" | "limiter"
>;

export function createApp(s: AppDeps) {
  let routes: () => { method: string; path: string; hooks?: { body?: unknown } }[] = () => [];

  const api = new Elysia({ prefix: "/api/v1" })
    .use(strictBodies(() => routes()))
    .use(idempotencyPlugin({ repo: createIdempotencyRepo(s.db), clock: s.clock }));
  for (const f of s.features) if (f.api) api.use(f.api);

  const pageErrors = createPageErrors(s);
  const app = new Elysia()
    .use(errorPlugin(s.logger, () => routes(), { page: pageErrors }))
    .use(
      openapi({
        // The reference UI is ours (apiReferenceRoutes): the plugin's page loads its script from a CDN.
        provider: null,
        specPath: "/api/openapi.json",
        documentation: {
          info: { title: "Commonplace API", version: "1.0.0", description: API_DESCRIPTION },
          components: {
            securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A personal API key: cpk_…" } },
          },
          security: [{ bearer: [] }],
        },
        // staticFile: false keeps API paths with a dot (highlights/export.csv) in the document.
        exclude: { paths: [/^\/(?!api\/v1|api\/webhooks)/], staticFile: false },
      }),
    )
    .use(apiReferenceRoutes({ title: "Commonplace API reference", baseUrl: s.config.baseUrl }));
  for (const f of s.features) if (f.routes) app.use(f.routes);
  app.use(api);
  routes = () => app.routes;
  const apiAuth = createApiAuth({ keys: s.keys, limiter: s.limiter });
  // The generated document, completed once with the shared error responses (see openapi-spec.ts).
  let spec: string | undefined;
  const withSpec = {
    async handle(request: Request): Promise<Response> {
      if (request.method !== "GET" || routerPath(request) !== "/api/openapi.json") return app.handle(request);
      spec ??= JSON.stringify(
        augmentSpec((await (await app.handle(request)).json()) as Record<string, unknown>, {
          baseUrl: s.config.baseUrl,
        }),
      );
      return new Response(spec, { headers: { "content-type": "application/json; charset=utf-8" } });
    },
  };
  const handle = withRequestHandling(withSpec, {
    logger: s.logger,
    limits: {
      ...s.config.http,
      maxUploadBytes: s.config.imports.maxBytes,
      maxCaptureHtmlBytes: s.config.capture.maxHtmlBytes,
    },
    apiAuth,
    hasSession: async (request) => Boolean(await s.accounts.sessionFromToken(readCookie(request, SESSION_COOKIE))),
    page: pageErrors,
  });
  return { handle, routes: () => app.routes, elysia: app };
}
export type App = ReturnType<typeof createApp>;

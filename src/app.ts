// createApp: the table of contents of the HTTP surface. It never listens; main.ts does.
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { createApiAuth } from "./http/auth.ts";
import { errorPlugin } from "./http/errors.ts";
import { idempotencyPlugin } from "./http/idempotency.ts";
import { createIdempotencyRepo } from "./http/idempotency-repo.ts";
import { createRateLimiter } from "./http/rate-limiter.ts";
import { withRequestHandling } from "./http/request.ts";
import { apiReferenceRoutes } from "./http/api-reference.ts";
import { API_DESCRIPTION, augmentSpec } from "./http/openapi-spec.ts";
import { strictBodies } from "./http/strict-body.ts";
import { accountRoutes } from "./features/accounts/routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { keyRoutes } from "./features/keys/routes.ts";
import { notebookRoutes } from "./features/notebooks/routes.ts";
import { noteRoutes } from "./features/notes/routes.ts";
import { sourceRoutes } from "./features/sources/routes.ts";
import { searchRoutes } from "./features/search/routes.ts";
import { podcastRoutes } from "./features/podcasts/routes.ts";
import { webRoutes } from "./features/web/routes.ts";
import { createPageErrors } from "./features/web/errors.ts";
import { feedRoutes } from "./features/feeds/routes.ts";
import { mcpRoutes } from "./features/mcp/routes.ts";
import { oauthRoutes } from "./features/oauth/routes.ts";
import { webhookIngressRoutes } from "./features/webhooks/incoming.ts";
import { workflowApiRoutes } from "./features/workflows/routes.ts";
import { eventRoutes } from "./features/events/routes.ts";
import { exportRoutes, importRoutes } from "./features/imports/routes.ts";
import type { Services } from "./services.ts";

export function createApp(s: Services) {
  const limiter = createRateLimiter({
    limit: s.config.rateLimit.perMinute,
    windowMs: 60_000,
    now: () => s.clock.now(),
  });
  let routes: () => { method: string; path: string; hooks?: { body?: unknown } }[] = () => [];

  const api = new Elysia({ prefix: "/api/v1" })
    .use(strictBodies(() => routes()))
    .use(idempotencyPlugin({ repo: createIdempotencyRepo(s.db), clock: s.clock }))
    .use(accountRoutes(s))
    .use(keyRoutes(s))
    .use(sourceRoutes(s))
    .use(notebookRoutes(s))
    .use(noteRoutes(s))
    .use(searchRoutes(s))
    .use(feedRoutes(s))
    .use(podcastRoutes(s))
    .use(workflowApiRoutes(s))
    .use(eventRoutes(s))
    .use(importRoutes(s))
    .use(exportRoutes(s));

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
        exclude: { paths: [/^\/(?!api\/v1|api\/webhooks)/] },
      }),
    )
    .use(apiReferenceRoutes({ title: "Commonplace API reference", baseUrl: s.config.baseUrl }))
    .use(healthRoutes(s))
    .use(webRoutes(s))
    .use(oauthRoutes(s))
    .use(mcpRoutes(s, { limiter }))
    .use(webhookIngressRoutes(s))
    .use(api);
  routes = () => app.routes;
  const apiAuth = createApiAuth({ keys: s.keys, limiter });
  // The generated document, completed once with the shared error responses (see openapi-spec.ts).
  let spec: string | undefined;
  const withSpec = {
    async handle(request: Request): Promise<Response> {
      if (request.method !== "GET" || !request.url.endsWith("/api/openapi.json")) return app.handle(request);
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
    limits: { ...s.config.http, maxUploadBytes: s.config.imports.maxBytes },
    apiAuth,
    page: pageErrors,
  });
  return { handle, routes: () => app.routes, elysia: app };
}
export type App = ReturnType<typeof createApp>;

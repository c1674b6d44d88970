// The web app's mount point: the server-rendered pages over the services listed in WebDeps. The web
// app is a client of the features, not one of them (it owns no data); it takes the Feature shape only
// so the root mounts its routes in order with the others. The database is seen only by the web service
// (a sign-up's transaction), never by a page group.
import type { Db } from "../db/port.ts";
import type { RateLimiters } from "../http/rate-limiter.ts";
import type { Feature } from "../features/feature.ts";
import type { WebDeps } from "./deps.ts";
import type { FormGuards } from "./form-guard.ts";
import { webRoutes } from "./routes.ts";
import { createWebService } from "./service.ts";

export function createWebFeature(
  d: Omit<WebDeps, "web" | "tokenForms"> & { db: Db; rateLimiters: RateLimiters; formGuards: FormGuards },
): Feature<null> {
  const { db, rateLimiters, formGuards, ...services } = d;
  const web = createWebService({
    accounts: d.accounts,
    keys: d.keys,
    oauth: d.oauth,
    config: d.config,
    clock: d.clock,
    db,
    rateLimiters,
    formGuards,
  });
  const tokenForms = formGuards("webhook-token");
  return { name: "web", service: null, routes: webRoutes({ ...services, web, tokenForms }) };
}

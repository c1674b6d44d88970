// The web feature: the server-rendered pages, built over the services listed in WebDeps.
import type { Feature } from "../feature.ts";
import type { WebDeps } from "./deps.ts";
import { webRoutes } from "./routes.ts";

export function createWebFeature(d: WebDeps): Feature<null> {
  return { name: "web", service: null, routes: webRoutes(d) };
}

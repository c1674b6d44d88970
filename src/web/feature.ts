// The web app's mount point: the server-rendered pages over the services listed in WebDeps. The web
// app is a client of the features, not one of them (it owns no service or data); it takes the
// Feature shape only so the root mounts its routes in order with the others.
import type { Feature } from "../features/feature.ts";
import type { WebDeps } from "./deps.ts";
import { webRoutes } from "./routes.ts";

export function createWebFeature(d: WebDeps): Feature<null> {
  return { name: "web", service: null, routes: webRoutes(d) };
}

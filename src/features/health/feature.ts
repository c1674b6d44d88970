// The health feature: /healthz, /readyz and the problem type pages; it has no service of its own.
import type { Feature } from "../feature.ts";
import type { HealthRepo } from "./repo.ts";
import { healthRoutes } from "./routes.ts";

export interface HealthFeatureDeps {
  repo: HealthRepo;
}

export function createHealthFeature(d: HealthFeatureDeps): Feature<HealthRepo> {
  return { name: "health", service: d.repo, routes: healthRoutes(d.repo) };
}

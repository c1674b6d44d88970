// The OAuth feature: the authorization server for MCP clients (metadata, registration, tokens).
import type { Feature } from "../feature.ts";
import { oauthRoutes } from "./routes.ts";
import { createOAuthService, type OAuthService, type OAuthServiceDeps } from "./service.ts";

/** The service's dependencies are the feature's: it adds only the routes. */
export type OAuthFeatureDeps = OAuthServiceDeps;

export function createOAuthFeature(d: OAuthFeatureDeps): Feature<OAuthService> {
  const service = createOAuthService(d);
  return { name: "oauth", service, routes: oauthRoutes({ oauth: service, config: d.config }) };
}

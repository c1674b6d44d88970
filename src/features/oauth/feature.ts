// The OAuth feature: the authorization server for MCP clients (metadata, registration, tokens).
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import type { Feature } from "../feature.ts";
import type { OAuthRepo } from "./repo.ts";
import { oauthRoutes } from "./routes.ts";
import { createOAuthService, type OAuthService } from "./service.ts";

export interface OAuthFeatureDeps {
  repo: OAuthRepo;
  db: Db;
  clock: Clock;
  config: Config;
}

export function createOAuthFeature(d: OAuthFeatureDeps): Feature<OAuthService> {
  const service = createOAuthService(d);
  return { name: "oauth", service, routes: oauthRoutes({ oauth: service, config: d.config }) };
}

// The OAuth feature: the authorization server for MCP clients (metadata, registration, tokens).
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import type { Feature } from "../feature.ts";
import type { OAuthRepo } from "./repo.ts";
import { oauthRoutes } from "./routes.ts";
import type { RateLimiters } from "../../http/rate-limiter.ts";
import type { PendingStore } from "./pending.ts";
import { createOAuthService, type OAuthService } from "./service.ts";

export interface OAuthFeatureDeps {
  repo: OAuthRepo;
  db: Db;
  clock: Clock;
  config: Config;
  /** Where parked authorisation requests live (memory with one process, a table on PostgreSQL). */
  pending: PendingStore;
  rateLimiters: RateLimiters;
}

export function createOAuthFeature(d: OAuthFeatureDeps): Feature<OAuthService> {
  const service = createOAuthService(d);
  return { name: "oauth", service, routes: oauthRoutes({ oauth: service, config: d.config }) };
}

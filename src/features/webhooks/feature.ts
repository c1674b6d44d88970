// The webhooks feature: token service, its /api/v1/webhook-tokens routes and incoming deliveries. A
// delivery is one workflow trigger, reached through the narrow WebhookTrigger port the composition
// root wires (no workflows internals).
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { RateLimiters } from "../../http/rate-limiter.ts";
import type { Clock } from "../../time.ts";
import type { FeatureWith } from "../feature.ts";
import { createDeliveries, type WebhookTrigger } from "./deliveries.ts";
import { incomingWebhookRoutes } from "./incoming.ts";
import type { WebhooksRepo } from "./repo.ts";
import { webhookTokenRoutes } from "./routes.ts";
import type { WebhookTokensService } from "./service.ts";

const DAY = 24 * 60 * 60 * 1000;
/** Deliveries are kept (and deduplicated) for a day of webhook-id / Idempotency-Key. */
export const DEDUPE_WINDOW_MS = DAY;

export interface WebhooksFeatureDeps {
  db: Db;
  repo: WebhooksRepo;
  clock: Clock;
  config: Config;
  tokens: WebhookTokensService;
  trigger: WebhookTrigger;
  rateLimiters: RateLimiters;
}

export function createWebhooksFeature(d: WebhooksFeatureDeps) {
  const deliveries = createDeliveries({
    db: d.db,
    repo: d.repo,
    clock: d.clock,
    dedupeWindowMs: DEDUPE_WINDOW_MS,
    ...d.trigger,
  });
  const routes = incomingWebhookRoutes({
    tokens: d.tokens,
    deliveries,
    clock: d.clock,
    limiter: d.rateLimiters({
      name: "webhook",
      limit: d.config.rateLimit.webhookPerMinute,
      windowMs: 60_000,
      now: () => d.clock.now(),
    }),
    maxBytes: d.config.workflows.webhookMaxBytes,
    maxDepth: d.config.http.maxJsonDepth,
  });
  return {
    name: "webhooks",
    service: d.tokens,
    api: webhookTokenRoutes(d.tokens),
    routes,
    deliveries,
  } satisfies FeatureWith<WebhookTokensService>;
}
export type WebhooksFeature = ReturnType<typeof createWebhooksFeature>;

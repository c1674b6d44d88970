// Wires incoming webhooks: deliveries start one run per active workflow of the token.
import type { Transactor } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import { DEDUPE_WINDOW_MS, type WorkflowsFeature } from "../workflows/feature.ts";
import { createDeliveries } from "./deliveries.ts";
import type { WebhooksRepo } from "./repo.ts";
import type { WebhookTokensService } from "./service.ts";

export function createWebhooksFeature(d: {
  db: Transactor;
  repo: WebhooksRepo;
  clock: Clock;
  tokens: WebhookTokensService;
  workflows: WorkflowsFeature;
}) {
  const deliveries = createDeliveries({
    db: d.db,
    repo: d.repo,
    clock: d.clock,
    dedupeWindowMs: DEDUPE_WINDOW_MS,
    workflowsFor: (tokenId) => d.workflows.repo.forToken(tokenId),
    startRun: (r, job) =>
      d.workflows.runs.start(
        {
          userId: r.userId,
          workflowId: r.workflowId,
          triggerType: "webhook",
          trigger: r.trigger,
          meta: { delivery_id: r.deliveryId },
          depth: 0,
          chain: [],
        },
        { job },
      ),
    startJob: (runIds) => d.workflows.runs.enqueueStart(runIds),
  });
  return { deliveries, tokens: d.tokens };
}
export type WebhooksFeature = ReturnType<typeof createWebhooksFeature>;

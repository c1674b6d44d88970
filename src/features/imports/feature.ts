// The imports feature: the import service and its job, /api/v1/imports and /api/v1/export, and the
// feed watcher that turns an OPML file's feeds into ordinary workflows.
import { Elysia } from "elysia";
import type { Actor } from "../../actor.ts";
import { handleJob } from "../../jobs/types.ts";
import { walk } from "../../paging.ts";
import type { AccountsService } from "../accounts/service.ts";
import type { Feature } from "../feature.ts";
import type { FeedsService } from "../feeds/service.ts";
import type { WorkflowsService } from "../workflows/service.ts";
import type { FeedWatcher } from "./apply.ts";
import type { ExportDeps } from "./export.ts";
import { exportRoutes, importRoutes } from "./routes.ts";
import { createImportsService, IMPORT_JOB, type ImportsDeps, type ImportsService } from "./service.ts";

/**
 * OPML feeds become watches owned by ordinary workflows ("Feeds from <file>", one watch_feed action per
 * feed, split at the action limit): the user sees, pauses and deletes them like any other.
 */
export function importFeedWatcher(feeds: FeedsService, workflows: WorkflowsService, maxActions: number): FeedWatcher {
  return {
    async watched(actor: Actor) {
      const out = new Set<string>();
      for await (const f of walk((cursor) => feeds.list(actor, { limit: 100, cursor }))) out.add(f.feed_url);
      return out;
    },
    async createWorkflows(actor, list, label) {
      const out: Record<string, string> = {};
      const parts = Math.ceil(list.length / maxActions);
      for (let p = 0; p < parts; p++) {
        const chunk = list.slice(p * maxActions, (p + 1) * maxActions);
        const wf = await workflows.create(actor, {
          name: `Feeds from ${label}${parts > 1 ? ` (${p + 1} of ${parts})` : ""}`.slice(0, 200),
          trigger: { type: "webhook" },
          actions: chunk.map((f, i) => ({ id: `feed_${i + 1}`, type: "watch_feed", feed_url: f.url })),
        });
        for (const f of chunk) out[f.url] = wf.id;
      }
      return out;
    },
    async ensure(actor, workflowId, feedUrl) {
      await feeds.ensure(actor, workflowId, { feed_url: feedUrl });
    },
  };
}

export type ImportsFeatureDeps = ImportsDeps & {
  exports: ExportDeps & { accounts: Pick<AccountsService, "userById"> };
};

export function createImportsFeature(d: ImportsFeatureDeps): Feature<ImportsService> {
  const service = createImportsService(d);
  return {
    name: "imports",
    service,
    api: new Elysia().use(importRoutes({ imports: service })).use(exportRoutes(d.exports)),
    jobs: [
      handleJob(IMPORT_JOB, {
        maxAttempts: 5,
        handle: (p, ctx) => service.run(p.import_id, ctx.signal),
      }),
    ],
  };
}

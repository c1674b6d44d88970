// The imports feature: the import service and its job, /api/v1/imports and /api/v1/export, and the
// feed watcher that turns an OPML file's feeds into subscriptions.
import { Elysia } from "elysia";
import type { Actor } from "../../actor.ts";
import { handleJob } from "../../jobs/types.ts";
import { walk } from "../../paging.ts";
import type { AccountsService } from "../accounts/service.ts";
import type { Feature } from "../feature.ts";
import type { FeedsService } from "../feeds/service.ts";
import type { FeedWatcher } from "./apply.ts";
import type { ExportDeps } from "./export.ts";
import { exportRoutes, importRoutes } from "./routes.ts";
import { createImportsService, IMPORT_JOB, type ImportsDeps, type ImportsService } from "./service.ts";

/**
 * OPML feeds become subscriptions (watches no workflow governs), listed on the Feeds page with the rest:
 * a feed the user already watches, however the watch was made, is reused, never doubled.
 */
export function importFeedWatcher(feeds: FeedsService): FeedWatcher {
  return {
    async watched(actor: Actor) {
      const out = new Set<string>();
      for await (const f of walk((cursor) => feeds.list(actor, { limit: 100, cursor }))) {
        out.add(f.feed_url);
        if (f.fetch_url) out.add(f.fetch_url);
      }
      return out;
    },
    subscribe: (actor, feedUrl, title) => feeds.ensureSubscription(actor, feedUrl, title),
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

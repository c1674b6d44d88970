// Test support: the real services over a real database (memory or file), with a feeds feature built for the test.
import { testConfig } from "../../config.ts";
import { openTestDatabase, type EngineDb } from "../../db/client.ts";
import { sqlRows } from "../../db/inspect.ts";
import { fakeClock, openSharedDatabase, type FakeClock } from "../../jobs/testing.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { systemActor } from "../../actor.ts";
import { createNotebooksRepo } from "../library/notebooks/repo.ts";
import { createSourcesRepo } from "../library/sources/repo.ts";
import { userWithKey } from "../../../test/helpers.ts";
import { createFeedsFeature } from "./feature.ts";
import { createFeedsRepo } from "./repo.ts";
import { insertWorkflow } from "./testing.ts";
import type { VideoSite } from "./video.ts";
import { createSharedState } from "../../stores.ts";

export interface FeedsTestOptions {
  /** A database several contexts share: a location from sharedTestDatabase (a file, or pg:<schema>). */
  dbPath?: string;
  clock?: FakeClock;
  videoSite?: VideoSite;
  env?: Record<string, string>;
}

export function feedsTestContext(opts: FeedsTestOptions = {}) {
  const clock = opts.clock ?? fakeClock();
  const config = testConfig({ FEED_HOST_SPACING_MS: "0", ...opts.env });
  const db: EngineDb = opts.dbPath ? openSharedDatabase(opts.dbPath) : openTestDatabase();
  const services = createServices({ config, db, logger: silentLogger, clock });
  const notebooksRepo = createNotebooksRepo(db);
  const feeds = createFeedsFeature({
    db,
    repo: createFeedsRepo(db),
    sources: services.sources,
    safeFetch: services.safeFetch,
    jobs: services.queue,
    scheduler: services.scheduler,
    clock,
    logger: silentLogger,
    hostSpacingMs: config.feeds.hostSpacingMs,
    coordination: createSharedState(db),
    existingNotebookIds: (u, ids) => notebooksRepo.existingIds(u, ids),
    sourcesByIds: (u, ids) => createSourcesRepo(db).byIds(u, ids),
    videoSite: opts.videoSite,
  });
  return { config, db, clock, services, feeds, queue: services.queue, runner: services.runner };
}
export type FeedsTestContext = ReturnType<typeof feedsTestContext>;

/** A user with a workflow to hang watches on; the actor is what a workflow run acts as. */
export async function ownerWithWorkflow(ctx: FeedsTestContext) {
  const user = await userWithKey(ctx as never);
  const workflowId = await insertWorkflow(ctx.db, user.userId);
  return { ...user, workflowId, actor: systemActor(user.userId, `workflow:${workflowId}`, 1) };
}

export function eventsOf(ctx: FeedsTestContext, type: string): Promise<{ data: string; depth: number }[]> {
  return sqlRows(ctx.db, "SELECT data, depth FROM events WHERE type = ? ORDER BY seq", type);
}

export function sourceRows(
  ctx: FeedsTestContext,
  userId: string,
): Promise<{ id: string; url: string; title: string | null }[]> {
  return sqlRows(ctx.db, "SELECT id, url, title FROM sources WHERE user_id = ? ORDER BY id", userId);
}

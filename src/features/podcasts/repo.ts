// SQL for podcasts and quick-podcast markers; every user-facing query is scoped by owner.
// Written once for both engines (src/db/shared.ts).
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { podcastQuickSources, podcasts, type PodcastRow, type PodcastStatus } from "../../db/schema/index.ts";

export type PodcastInsert = typeof podcasts.$inferInsert;

/** What podcasts need of the podcasts and podcast_quick_sources tables, in their own words. */
export interface PodcastsRepo {
  insert(row: PodcastInsert): Promise<void>;
  /** One episode of the user, or undefined when it is someone else's or does not exist. */
  byId(userId: string, id: string): Promise<PodcastRow | undefined>;
  /** For the generation job, which carries only the id. */
  byIdUnscoped(id: string): Promise<PodcastRow | undefined>;
  /** Newest first, `before` an id (exclusive), optionally of one status. */
  list(userId: string, f: { limit: number; before?: string; status?: PodcastStatus }): Promise<PodcastRow[]>;
  update(id: string, patch: Partial<PodcastInsert>): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
  /** Credits promised to episodes not finished yet: held back from the balance at creation. */
  creditsOnHold(userId: string): Promise<number>;
  /** Returns true the first time for a source; false when its quick podcast was already made. */
  markQuick(sourceId: string, podcastId: string, at: string): Promise<boolean>;
  /** Points a source's quick-podcast marker at another episode. */
  setQuickPodcast(sourceId: string, podcastId: string): Promise<void>;
}

export function createPodcastsRepo(db: Db): PodcastsRepo {
  const orm = db.shared;
  return {
    async insert(row) {
      await orm.insert(podcasts).values(row);
    },
    byId(userId, id) {
      return orm
        .select()
        .from(podcasts)
        .where(and(eq(podcasts.id, id), eq(podcasts.userId, userId)))
        .get();
    },
    byIdUnscoped(id) {
      return orm.select().from(podcasts).where(eq(podcasts.id, id)).get();
    },
    async list(userId, f) {
      const conds = [eq(podcasts.userId, userId)];
      if (f.before) conds.push(lt(podcasts.id, f.before));
      if (f.status) conds.push(eq(podcasts.status, f.status));
      return orm
        .select()
        .from(podcasts)
        .where(and(...conds))
        .orderBy(desc(podcasts.id))
        .limit(f.limit);
    },
    async update(id, patch) {
      await orm.update(podcasts).set(patch).where(eq(podcasts.id, id));
    },
    async delete(userId, id) {
      await orm.delete(podcasts).where(and(eq(podcasts.id, id), eq(podcasts.userId, userId)));
    },
    async creditsOnHold(userId) {
      // sum(integer) is a bigint on PostgreSQL (parsed as a number by the pool).
      const r = await orm
        .select({ n: sql<number>`coalesce(sum(${podcasts.creditsQuoted}), 0)` })
        .from(podcasts)
        .where(and(eq(podcasts.userId, userId), inArray(podcasts.status, ["queued", "generating"])))
        .get();
      return Number(r?.n ?? 0);
    },
    async markQuick(sourceId, podcastId, at) {
      const r = await orm
        .insert(podcastQuickSources)
        .values({ sourceId, podcastId, createdAt: at })
        .onConflictDoNothing()
        .returning({ s: podcastQuickSources.sourceId });
      return r.length > 0;
    },
    async setQuickPodcast(sourceId, podcastId) {
      await orm.update(podcastQuickSources).set({ podcastId }).where(eq(podcastQuickSources.sourceId, sourceId));
    },
  };
}

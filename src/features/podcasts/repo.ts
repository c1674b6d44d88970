// SQL for podcasts and quick-podcast markers; every user-facing query is scoped by owner.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { podcastQuickSources, podcasts, type PodcastRow, type PodcastStatus } from "../../db/schema/index.ts";
import { createPodcastsPgRepo } from "./pg-repo.ts";

export type PodcastInsert = typeof podcasts.$inferInsert;

export function createPodcastsRepo(db: Db): PodcastsRepo {
  return db.pg ? createPodcastsPgRepo(db.pg) : createPodcastsSqliteRepo(db);
}

function createPodcastsSqliteRepo(db: Db) {
  return {
    async insert(row: PodcastInsert): Promise<void> {
      await db.exec((c) => c.orm.insert(podcasts).values(row).run());
    },
    async byId(userId: string, id: string): Promise<PodcastRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(podcasts)
          .where(and(eq(podcasts.id, id), eq(podcasts.userId, userId)))
          .get(),
      );
    },
    /** For the generation job, which carries only the id. */
    async byIdUnscoped(id: string): Promise<PodcastRow | undefined> {
      return db.query((c) => c.orm.select().from(podcasts).where(eq(podcasts.id, id)).get());
    },
    async list(userId: string, f: { limit: number; before?: string; status?: PodcastStatus }): Promise<PodcastRow[]> {
      const conds = [eq(podcasts.userId, userId)];
      if (f.before) conds.push(lt(podcasts.id, f.before));
      if (f.status) conds.push(eq(podcasts.status, f.status));
      return db.query((c) =>
        c.orm
          .select()
          .from(podcasts)
          .where(and(...conds))
          .orderBy(desc(podcasts.id))
          .limit(f.limit)
          .all(),
      );
    },
    async update(id: string, patch: Partial<PodcastInsert>): Promise<void> {
      await db.exec((c) => c.orm.update(podcasts).set(patch).where(eq(podcasts.id, id)).run());
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(podcasts)
          .where(and(eq(podcasts.id, id), eq(podcasts.userId, userId)))
          .run(),
      );
    },
    /** Credits promised to episodes not finished yet: held back from the balance at creation. */
    async creditsOnHold(userId: string): Promise<number> {
      const r = await db.query((c) =>
        c.orm
          .select({ n: sql<number>`coalesce(sum(${podcasts.creditsQuoted}), 0)` })
          .from(podcasts)
          .where(and(eq(podcasts.userId, userId), inArray(podcasts.status, ["queued", "generating"])))
          .get(),
      );
      return r?.n ?? 0;
    },
    /** Returns true the first time for a source; false when its quick podcast was already made. */
    async markQuick(sourceId: string, podcastId: string, at: string): Promise<boolean> {
      const r = await db.exec((c) =>
        c.orm
          .insert(podcastQuickSources)
          .values({ sourceId, podcastId, createdAt: at })
          .onConflictDoNothing()
          .returning()
          .all(),
      );
      return r.length > 0;
    },
    async setQuickPodcast(sourceId: string, podcastId: string): Promise<void> {
      await db.exec((c) =>
        c.orm.update(podcastQuickSources).set({ podcastId }).where(eq(podcastQuickSources.sourceId, sourceId)).run(),
      );
    },
  };
}
export type PodcastsRepo = ReturnType<typeof createPodcastsSqliteRepo>;

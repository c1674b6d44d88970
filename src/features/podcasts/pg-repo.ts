// SQL for podcasts and quick-podcast markers on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { podcastQuickSources, podcasts } from "../../db/pg/schema/index.ts";
import type { PodcastsRepo } from "./repo.ts";

export function createPodcastsPgRepo(db: PgDb): PodcastsRepo {
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(podcasts).values(row));
    },
    async byId(userId, id) {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(podcasts)
          .where(and(eq(podcasts.id, id), eq(podcasts.userId, userId))),
      );
      return rows[0];
    },
    async byIdUnscoped(id) {
      return (await db.query((c) => c.orm.select().from(podcasts).where(eq(podcasts.id, id))))[0];
    },
    async list(userId, f) {
      const conds = [eq(podcasts.userId, userId)];
      if (f.before) conds.push(lt(podcasts.id, f.before));
      if (f.status) conds.push(eq(podcasts.status, f.status));
      return db.query((c) =>
        c.orm
          .select()
          .from(podcasts)
          .where(and(...conds))
          .orderBy(desc(podcasts.id))
          .limit(f.limit),
      );
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(podcasts).set(patch).where(eq(podcasts.id, id)));
    },
    async delete(userId, id) {
      await db.exec((c) => c.orm.delete(podcasts).where(and(eq(podcasts.id, id), eq(podcasts.userId, userId))));
    },
    async creditsOnHold(userId) {
      // sum(integer) is a bigint (parsed as a number by the pool); ::int8 keeps it one even when there are no rows.
      const rows = await db.query((c) =>
        c.orm
          .select({ n: sql<number>`coalesce(sum(${podcasts.creditsQuoted}), 0)::int8` })
          .from(podcasts)
          .where(and(eq(podcasts.userId, userId), inArray(podcasts.status, ["queued", "generating"]))),
      );
      return Number(rows[0]?.n ?? 0);
    },
    async markQuick(sourceId, podcastId, at) {
      const r = await db.exec((c) =>
        c.orm
          .insert(podcastQuickSources)
          .values({ sourceId, podcastId, createdAt: at })
          .onConflictDoNothing()
          .returning({ s: podcastQuickSources.sourceId }),
      );
      return r.length > 0;
    },
    async setQuickPodcast(sourceId, podcastId) {
      await db.exec((c) =>
        c.orm.update(podcastQuickSources).set({ podcastId }).where(eq(podcastQuickSources.sourceId, sourceId)),
      );
    },
  };
}

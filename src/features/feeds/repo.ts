// SQL for feed watches and the entry identities each has seen; the only module that touches their tables.
import { and, asc, count, desc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { Db, Orm } from "../../db/port.ts";
import { feedEntries, feedWatches, workflows, type FeedWatchRow } from "../../db/schema/index.ts";
import { createFeedsPgRepo } from "./pg-repo.ts";

export type WatchWithState = FeedWatchRow & { active: boolean };

// A watch is live while its workflow is active and still has a watch_feed action: removing the
// action from the workflow stops the watch as deactivating the workflow does.
const stillWatching =
  sql<boolean>`(${workflows.active} = 1 AND ${workflows.actionsJson} LIKE '%"type":"watch_feed"%')`.mapWith((v) =>
    Boolean(v),
  );
const withActive = { watch: feedWatches, active: stillWatching };

const joined = (orm: Orm) =>
  orm.select(withActive).from(feedWatches).innerJoin(workflows, eq(workflows.id, feedWatches.workflowId));
const flat = (r: { watch: FeedWatchRow; active: boolean }): WatchWithState => ({ ...r.watch, active: r.active });

/** The feeds repository of the engine behind db (the PostgreSQL twin is pg-repo.ts). */
export function createFeedsRepo(db: Db): FeedsRepo {
  return db.pg ? createFeedsPgRepo(db.pg) : createFeedsSqliteRepo(db);
}

function createFeedsSqliteRepo(db: Db) {
  return {
    async insert(row: typeof feedWatches.$inferInsert): Promise<void> {
      await db.exec((c) => c.orm.insert(feedWatches).values(row).run());
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(feedWatches)
          .where(and(eq(feedWatches.id, id), eq(feedWatches.userId, userId)))
          .run(),
      );
    },
    async update(id: string, patch: Partial<FeedWatchRow>): Promise<void> {
      await db.exec((c) => c.orm.update(feedWatches).set(patch).where(eq(feedWatches.id, id)).run());
    },
    async byId(userId: string, id: string): Promise<WatchWithState | undefined> {
      const r = await db.query((c) =>
        joined(c.orm)
          .where(and(eq(feedWatches.id, id), eq(feedWatches.userId, userId)))
          .get(),
      );
      return r && flat(r);
    },
    /** For the poll job, which runs without a caller; the row carries its owner. */
    async byIdUnscoped(id: string): Promise<WatchWithState | undefined> {
      const r = await db.query((c) => joined(c.orm).where(eq(feedWatches.id, id)).get());
      return r && flat(r);
    },
    async byWorkflowAndUrl(userId: string, workflowId: string, feedUrl: string): Promise<FeedWatchRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(feedWatches)
          .where(
            and(
              eq(feedWatches.userId, userId),
              eq(feedWatches.workflowId, workflowId),
              eq(feedWatches.feedUrl, feedUrl),
            ),
          )
          .get(),
      );
    },
    async list(
      userId: string,
      opts: { limit: number; before?: string; workflowId?: string },
    ): Promise<WatchWithState[]> {
      const conds = [eq(feedWatches.userId, userId)];
      if (opts.before) conds.push(lt(feedWatches.id, opts.before));
      if (opts.workflowId) conds.push(eq(feedWatches.workflowId, opts.workflowId));
      return (
        await db.query((c) =>
          joined(c.orm)
            .where(and(...conds))
            .orderBy(desc(feedWatches.id))
            .limit(opts.limit)
            .all(),
        )
      ).map(flat);
    },
    /** Watches of active workflows whose next poll is due, oldest due first. */
    async due(now: number, limit: number): Promise<FeedWatchRow[]> {
      return (
        await db.query((c) =>
          c.orm
            .select({ watch: feedWatches })
            .from(feedWatches)
            .innerJoin(workflows, eq(workflows.id, feedWatches.workflowId))
            .where(and(lte(feedWatches.nextPollAt, now), stillWatching))
            .orderBy(asc(feedWatches.nextPollAt))
            .limit(limit)
            .all(),
        )
      ).map((r) => r.watch);
    },
    /** Which of these identities the watch has already seen. */
    async knownKeys(watchId: string, keys: string[]): Promise<Set<string>> {
      const out = new Set<string>();
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < keys.length; i += 500) {
        const part = keys.slice(i, i + 500);
        const rows = await db.query((c) =>
          c.orm
            .select({ key: feedEntries.key })
            .from(feedEntries)
            .where(and(eq(feedEntries.watchId, watchId), inArray(feedEntries.key, part)))
            .all(),
        );
        for (const r of rows) out.add(r.key);
      }
      return out;
    },
    /** Records identities; returns how many were new (a concurrent poll may have recorded some first). */
    async remember(watchId: string, keys: string[], sourceId: string | null, at: string): Promise<number> {
      let added = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const rows = keys.slice(i, i + 500).map((key) => ({ watchId, key, sourceId, seenAt: at }));
        added += await db.exec(
          (c) =>
            c.orm.insert(feedEntries).values(rows).onConflictDoNothing().returning({ key: feedEntries.key }).all()
              .length,
        );
      }
      return added;
    },
    /** Sources each watch's latest poll created: its entries recorded at that poll's time that have a source. */
    async lastPollSources(userId: string, watchIds: string[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (watchIds.length === 0) return out;
      // An entry is remembered under several identities (guid, link), each row naming the same source.
      const rows = await db.query((c) =>
        c.orm
          .select({ id: feedWatches.id, n: sql<number>`count(DISTINCT ${feedEntries.sourceId})`.mapWith(Number) })
          .from(feedWatches)
          .innerJoin(
            feedEntries,
            and(eq(feedEntries.watchId, feedWatches.id), eq(feedEntries.seenAt, feedWatches.lastPolledAt)),
          )
          .where(
            and(
              eq(feedWatches.userId, userId),
              inArray(feedWatches.id, watchIds),
              sql`${feedEntries.sourceId} IS NOT NULL`,
            ),
          )
          .groupBy(feedWatches.id)
          .all(),
      );
      for (const r of rows) out.set(r.id, r.n);
      return out;
    },
    async entryCount(watchId: string): Promise<number> {
      return db.query(
        (c) => c.orm.select({ n: count() }).from(feedEntries).where(eq(feedEntries.watchId, watchId)).get()?.n ?? 0,
      );
    },
  };
}
export type FeedsRepo = ReturnType<typeof createFeedsSqliteRepo>;

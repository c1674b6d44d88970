// SQL for feed watches and their seen entries on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, asc, count, desc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgDb } from "../../db/pg/port.ts";
import { feedEntries, feedWatches, workflows } from "../../db/pg/schema/index.ts";
import type { FeedWatchRow } from "../../db/schema/index.ts";
import type { FeedsRepo, WatchWithState } from "./repo.ts";

// A watch is live while its workflow is active and still has a watch_feed action.
const stillWatching = sql<boolean>`(${workflows.active} AND ${workflows.actionsJson} LIKE '%"type":"watch_feed"%')`;
const withActive = { watch: feedWatches, active: stillWatching };

const joined = (orm: PostgresJsDatabase) =>
  orm.select(withActive).from(feedWatches).innerJoin(workflows, eq(workflows.id, feedWatches.workflowId));
const flat = (r: { watch: FeedWatchRow; active: boolean }): WatchWithState => ({ ...r.watch, active: r.active });

export function createFeedsPgRepo(db: PgDb): FeedsRepo {
  return {
    async insert(row) {
      await db.exec((c) => c.orm.insert(feedWatches).values(row));
    },
    async delete(userId, id) {
      await db.exec((c) =>
        c.orm.delete(feedWatches).where(and(eq(feedWatches.id, id), eq(feedWatches.userId, userId))),
      );
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(feedWatches).set(patch).where(eq(feedWatches.id, id)));
    },
    async byId(userId, id) {
      const [r] = await db.query((c) =>
        joined(c.orm)
          .where(and(eq(feedWatches.id, id), eq(feedWatches.userId, userId)))
          .limit(1),
      );
      return r && flat(r);
    },
    async byIdUnscoped(id) {
      const [r] = await db.query((c) => joined(c.orm).where(eq(feedWatches.id, id)).limit(1));
      return r && flat(r);
    },
    async byWorkflowAndUrl(userId, workflowId, feedUrl) {
      const [r] = await db.query((c) =>
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
          .limit(1),
      );
      return r;
    },
    async list(userId, opts) {
      const conds = [eq(feedWatches.userId, userId)];
      if (opts.before) conds.push(lt(feedWatches.id, opts.before));
      if (opts.workflowId) conds.push(eq(feedWatches.workflowId, opts.workflowId));
      const rows = await db.query((c) =>
        joined(c.orm)
          .where(and(...conds))
          .orderBy(desc(feedWatches.id))
          .limit(opts.limit),
      );
      return rows.map(flat);
    },
    async due(now, limit) {
      const rows = await db.query((c) =>
        c.orm
          .select({ watch: feedWatches })
          .from(feedWatches)
          .innerJoin(workflows, eq(workflows.id, feedWatches.workflowId))
          .where(and(lte(feedWatches.nextPollAt, now), stillWatching))
          .orderBy(asc(feedWatches.nextPollAt))
          .limit(limit),
      );
      return rows.map((r) => r.watch);
    },
    async knownKeys(watchId, keys) {
      const out = new Set<string>();
      for (let i = 0; i < keys.length; i += 500) {
        const part = keys.slice(i, i + 500);
        const rows = await db.query((c) =>
          c.orm
            .select({ key: feedEntries.key })
            .from(feedEntries)
            .where(and(eq(feedEntries.watchId, watchId), inArray(feedEntries.key, part))),
        );
        for (const r of rows) out.add(r.key);
      }
      return out;
    },
    async remember(watchId, keys, sourceId, at) {
      let added = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const rows = keys.slice(i, i + 500).map((key) => ({ watchId, key, sourceId, seenAt: at }));
        const got = await db.exec((c) =>
          c.orm.insert(feedEntries).values(rows).onConflictDoNothing().returning({ key: feedEntries.key }),
        );
        added += got.length;
      }
      return added;
    },
    async lastPollSources(userId, watchIds) {
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
          .groupBy(feedWatches.id),
      );
      for (const r of rows) out.set(r.id, r.n);
      return out;
    },
    async entryCount(watchId) {
      const [r] = await db.query((c) =>
        c.orm.select({ n: count() }).from(feedEntries).where(eq(feedEntries.watchId, watchId)),
      );
      return r?.n ?? 0;
    },
  };
}

// SQL for feed watches and the entry identities each has seen; the only module that touches their tables.
// Written once for both engines (src/db/shared.ts); the PostgreSQL poll leases and host gate stay in
// coordination-pg-repo.ts.
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import type { SharedOrm } from "../../db/shared.ts";
import { feedEntries, feedWatches, workflows, type FeedWatchRow } from "../../db/schema/index.ts";

export type WatchWithState = FeedWatchRow & { active: boolean };

/** What feeds need of their watches and seen entries, in their own words. */
export interface FeedsRepo {
  insert(row: typeof feedWatches.$inferInsert): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
  update(id: string, patch: Partial<FeedWatchRow>): Promise<void>;
  /** One watch of the user, with whether it is still live. */
  byId(userId: string, id: string): Promise<WatchWithState | undefined>;
  /** For the poll job, which runs without a caller; the row carries its owner. */
  byIdUnscoped(id: string): Promise<WatchWithState | undefined>;
  /** The user's one watch of this URL: the URL it was made with, else the URL it really polls. */
  byUrl(userId: string, url: string): Promise<FeedWatchRow | undefined>;
  /** Newest first, `before` an id (exclusive), optionally one workflow's. */
  list(userId: string, opts: { limit: number; before?: string; workflowId?: string }): Promise<WatchWithState[]>;
  /** Watches of active workflows whose next poll is due, oldest due first. */
  due(now: number, limit: number): Promise<FeedWatchRow[]>;
  /** Which of these identities the watch has already seen. */
  knownKeys(watchId: string, keys: string[]): Promise<Set<string>>;
  /** Records identities; returns how many were new (a concurrent poll may have recorded some first). */
  remember(watchId: string, keys: string[], sourceId: string | null, at: string): Promise<number>;
  /** Sources each watch's latest poll created: its entries recorded at that poll's time that have a source. */
  lastPollSources(userId: string, watchIds: string[]): Promise<Map<string, number>>;
  entryCount(watchId: string): Promise<number>;
  /** The sources a watch brought in, newest source first, `before` a source id (exclusive). */
  entries(watchId: string, opts: { limit: number; before?: string }): Promise<{ id: string; seenAt: string }[]>;
}

// A watch is live unless paused, and, when a workflow governs it, while that workflow is active and still
// has a watch_feed action: removing the action from the workflow stops the watch as deactivating the
// workflow does. A subscription of its own (no workflow) answers to its pause alone. Flags are compared
// with bound values (1/0, which PostgreSQL reads as booleans), and the result read back as a boolean
// from either engine's answer (0/1 or false/true).
const stillWatching = sql<boolean>`(${and(
  eq(feedWatches.paused, false),
  or(
    isNull(feedWatches.workflowId),
    and(eq(workflows.active, true), sql`${workflows.actionsJson} LIKE '%"type":"watch_feed"%'`),
  ),
)})`.mapWith((v) => Boolean(v));
const withActive = { watch: feedWatches, active: stillWatching };

const joined = (orm: SharedOrm) =>
  orm.select(withActive).from(feedWatches).leftJoin(workflows, eq(workflows.id, feedWatches.workflowId));
const flat = (r: { watch: FeedWatchRow; active: boolean }): WatchWithState => ({ ...r.watch, active: r.active });

export function createFeedsRepo(db: Db): FeedsRepo {
  const orm = db.shared;
  return {
    async insert(row) {
      await orm.insert(feedWatches).values(row);
    },
    async delete(userId, id) {
      await orm.delete(feedWatches).where(and(eq(feedWatches.id, id), eq(feedWatches.userId, userId)));
    },
    async update(id, patch) {
      await orm.update(feedWatches).set(patch).where(eq(feedWatches.id, id));
    },
    async byId(userId, id) {
      const r = await joined(orm)
        .where(and(eq(feedWatches.id, id), eq(feedWatches.userId, userId)))
        .get();
      return r && flat(r);
    },
    async byIdUnscoped(id) {
      const r = await joined(orm).where(eq(feedWatches.id, id)).get();
      return r && flat(r);
    },
    async byUrl(userId, url) {
      const rows = await orm
        .select()
        .from(feedWatches)
        .where(and(eq(feedWatches.userId, userId), or(eq(feedWatches.feedUrl, url), eq(feedWatches.fetchUrl, url))))
        .orderBy(asc(feedWatches.id))
        .limit(10);
      return rows.find((r) => r.feedUrl === url) ?? rows[0];
    },
    async list(userId, opts) {
      const conds = [eq(feedWatches.userId, userId)];
      if (opts.before) conds.push(lt(feedWatches.id, opts.before));
      if (opts.workflowId) conds.push(eq(feedWatches.workflowId, opts.workflowId));
      const rows = await joined(orm)
        .where(and(...conds))
        .orderBy(desc(feedWatches.id))
        .limit(opts.limit);
      return rows.map(flat);
    },
    async due(now, limit) {
      const rows = await orm
        .select({ watch: feedWatches })
        .from(feedWatches)
        .leftJoin(workflows, eq(workflows.id, feedWatches.workflowId))
        .where(and(lte(feedWatches.nextPollAt, now), stillWatching))
        .orderBy(asc(feedWatches.nextPollAt))
        .limit(limit);
      return rows.map((r) => r.watch);
    },
    async knownKeys(watchId, keys) {
      const out = new Set<string>();
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < keys.length; i += 500) {
        const part = keys.slice(i, i + 500);
        const rows = await orm
          .select({ key: feedEntries.key })
          .from(feedEntries)
          .where(and(eq(feedEntries.watchId, watchId), inArray(feedEntries.key, part)));
        for (const r of rows) out.add(r.key);
      }
      return out;
    },
    async remember(watchId, keys, sourceId, at) {
      let added = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const rows = keys.slice(i, i + 500).map((key) => ({ watchId, key, sourceId, seenAt: at }));
        const got = await orm
          .insert(feedEntries)
          .values(rows)
          .onConflictDoNothing()
          .returning({ key: feedEntries.key });
        added += got.length;
      }
      return added;
    },
    async lastPollSources(userId, watchIds) {
      const out = new Map<string, number>();
      if (watchIds.length === 0) return out;
      // An entry is remembered under several identities (guid, link), each row naming the same source.
      const rows = await orm
        .select({ id: feedWatches.id, n: sql<number>`count(DISTINCT ${feedEntries.sourceId})`.mapWith(Number) })
        .from(feedWatches)
        .innerJoin(
          feedEntries,
          and(eq(feedEntries.watchId, feedWatches.id), eq(feedEntries.seenAt, feedWatches.lastPolledAt)),
        )
        .where(and(eq(feedWatches.userId, userId), inArray(feedWatches.id, watchIds), isNotNull(feedEntries.sourceId)))
        .groupBy(feedWatches.id);
      for (const r of rows) out.set(r.id, r.n);
      return out;
    },
    async entries(watchId, opts) {
      // An entry is remembered under several identities (guid, link), each row naming the same source.
      const conds = [eq(feedEntries.watchId, watchId), isNotNull(feedEntries.sourceId)];
      if (opts.before) conds.push(lt(feedEntries.sourceId, opts.before));
      const rows = await orm
        .select({ id: feedEntries.sourceId, seenAt: sql<string>`min(${feedEntries.seenAt})` })
        .from(feedEntries)
        .where(and(...conds))
        .groupBy(feedEntries.sourceId)
        .orderBy(desc(feedEntries.sourceId))
        .limit(opts.limit);
      return rows.map((r) => ({ id: r.id!, seenAt: r.seenAt }));
    },
    async entryCount(watchId) {
      const r = await orm.select({ n: count() }).from(feedEntries).where(eq(feedEntries.watchId, watchId)).get();
      return r?.n ?? 0;
    },
  };
}

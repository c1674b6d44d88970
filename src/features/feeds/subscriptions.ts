// Subscriptions from the Feeds page, the API and OPML imports: find the feed behind an address, subscribe
// (reusing the user's one watch of that feed), pause and resume, change schedule and notebooks, and list
// the sources a watch brought in. A subscription is a watch no workflow governs (workflow_id null).
import type { Actor } from "../../actor.ts";
import type { Transactor } from "../../db/port.ts";
import type { SourceRow } from "../../db/schema/index.ts";
import { AppError, invalid } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import { iso, type Clock } from "../../time.ts";
import { parseHttpUrl } from "../library/sources/normalize.ts";
import { FEED_POLL_JOB } from "./dispatch.ts";
import { findFeeds, type FindFeedsDeps, type FoundFeeds } from "./find-feeds.ts";
import { toPublicFeed } from "./public.ts";
import type { FeedsRepo, WatchWithState } from "./repo.ts";
import type { FeedEntryPublic, FeedPublic, FeedSubscribeInput, FeedUpdateInput, FeedWatchInput } from "./schema.ts";
import { nextPollAt } from "./timing.ts";

export interface SubscriptionsDeps {
  db: Transactor;
  repo: FeedsRepo;
  jobs: JobEnqueuer;
  clock: Clock;
  finder: FindFeedsDeps;
  nextRun(expr: string, after: number): number | null;
  existingNotebookIds(userId: string, ids: string[]): Promise<Set<string>>;
  sourcesByIds(userId: string, ids: string[]): Promise<SourceRow[]>;
  /** The service's own: the caller's watch or 404, and the checks every watch's input passes. */
  get(actor: Actor, id: string): Promise<WatchWithState>;
  check(
    actor: Actor,
    input: FeedWatchInput,
  ): Promise<{ feedUrl: string; schedule: string; notebookIds: string[]; backfill: number }>;
}

export interface Discovery {
  url: string;
  feeds: { url: string; title: string | null; kind: FoundFeeds["feeds"][number]["kind"] }[];
  tried: FoundFeeds["tried"];
}

/** 422 on `url`, saying every address asked and what it answered. */
function nothingFound(found: FoundFeeds): AppError {
  const tried = found.tried.map((t) => `${t.url} (${t.outcome})`).join("; ");
  const message = `no feed found; tried ${tried || "nothing"}`;
  return new AppError("validation_failed", `url: ${message}`, {
    errors: [{ path: "url", message }, ...found.tried.map((t) => ({ path: "url", message: `${t.url}: ${t.outcome}` }))],
  });
}

export function createSubscriptions(deps: SubscriptionsDeps) {
  const { db, repo, clock } = deps;

  async function discover(_actor: Actor, url: string, signal?: AbortSignal): Promise<Discovery> {
    const parsed = parseHttpUrl(url);
    if (!parsed.ok) throw invalid("url", parsed.message);
    const found = await findFeeds(deps.finder, parsed.url.href, signal);
    return {
      url: parsed.url.href,
      feeds: found.feeds.map(({ url: u, title, kind }) => ({ url: u, title, kind })),
      tried: found.tried,
    };
  }

  /** A subscription takes over a watch the user already has: it is theirs now, unpaused, with these settings. */
  async function adopt(
    watch: WatchWithState,
    c: { schedule: string; notebookIds: string[] },
    given: FeedSubscribeInput,
  ): Promise<void> {
    const notebooks = [...new Set([...(JSON.parse(watch.notebookIds) as string[]), ...c.notebookIds])];
    await repo.update(watch.id, {
      workflowId: null,
      paused: false,
      schedule: given.schedule === undefined ? watch.schedule : c.schedule,
      notebookIds: JSON.stringify(notebooks),
      updatedAt: iso(clock.now()),
    });
  }

  type Subscribed = { kind: "subscribed"; feed: FeedPublic; created: boolean };
  type Choose = { kind: "choose"; discovery: Discovery };

  async function subscribeWith(
    actor: Actor,
    input: FeedSubscribeInput,
    signal: AbortSignal | undefined,
    ask: boolean,
  ): Promise<Subscribed | Choose> {
    const c = await deps.check(actor, {
      feed_url: input.url,
      schedule: input.schedule,
      notebook_ids: input.notebook_ids,
      backfill: input.backfill,
    });
    const known = await repo.byUrl(actor.userId, c.feedUrl);
    if (known) {
      await adopt(await deps.get(actor, known.id), c, input);
      return { kind: "subscribed", feed: toPublicFeed(await deps.get(actor, known.id)), created: false };
    }
    const found = await findFeeds(deps.finder, c.feedUrl, signal);
    const chosen = found.feeds[0];
    if (!chosen) throw nothingFound(found);
    if (ask && found.feeds.length > 1) {
      const feeds = found.feeds.map(({ url, title, kind }) => ({ url, title, kind }));
      return { kind: "choose", discovery: { url: c.feedUrl, feeds, tried: found.tried } };
    }
    const { id, created } = await db.tx(async () => {
      // The page's feed may be one the user already watches under its own address.
      const again = await repo.byUrl(actor.userId, chosen.url);
      if (again) {
        await adopt(await deps.get(actor, again.id), c, input);
        return { id: again.id, created: false };
      }
      const now = clock.now();
      const at = iso(now);
      const watchId = newId("feed");
      await repo.insert({
        id: watchId,
        userId: actor.userId,
        workflowId: null,
        feedUrl: chosen.url,
        title: chosen.title,
        schedule: c.schedule,
        notebookIds: JSON.stringify(c.notebookIds),
        backfill: c.backfill,
        depth: actor.depth ?? 0,
        nextPollAt: now,
        createdAt: at,
        updatedAt: at,
      });
      // The first poll runs in the job runner now rather than at the next minute's dispatch.
      await deps.jobs.enqueue(FEED_POLL_JOB, { watch_id: watchId, slot: now }, { idempotencyKey: `${watchId}:${now}` });
      return { id: watchId, created: true };
    });
    return { kind: "subscribed", feed: toPublicFeed(await deps.get(actor, id)), created };
  }

  return {
    discover,

    /**
     * Subscribes to the feed at `url` (or the one a page there advertises, Atom preferred): the user's one
     * watch of that feed, made now or taken over (`created: false`). The first poll is queued at once.
     */
    async subscribe(
      actor: Actor,
      input: FeedSubscribeInput,
      signal?: AbortSignal,
    ): Promise<{ feed: FeedPublic; created: boolean }> {
      const r = await subscribeWith(actor, input, signal, false);
      if (r.kind === "choose") throw new Error("unreachable: the first feed is taken");
      return r;
    },

    /** As subscribe, but a page advertising several feeds is answered with them, for the person to choose. */
    subscribeOrChoose: (actor: Actor, input: FeedSubscribeInput, signal?: AbortSignal) =>
      subscribeWith(actor, input, signal, true),

    /**
     * An OPML import's feed: the user's watch of this URL as it is, else a new subscription with the default
     * settings, first polled (a baseline) by the next minute's dispatch. Nothing is fetched here.
     */
    async ensureSubscription(actor: Actor, url: string, title?: string): Promise<string> {
      const c = await deps.check(actor, { feed_url: url });
      return db.tx(async () => {
        const known = await repo.byUrl(actor.userId, c.feedUrl);
        if (known) return known.id;
        const now = clock.now();
        const at = iso(now);
        const id = newId("feed");
        await repo.insert({
          id,
          userId: actor.userId,
          workflowId: null,
          feedUrl: c.feedUrl,
          title: title?.replace(/\s+/g, " ").trim().slice(0, 500) || null,
          schedule: c.schedule,
          notebookIds: "[]",
          backfill: 0,
          depth: actor.depth ?? 0,
          nextPollAt: now,
          createdAt: at,
          updatedAt: at,
        });
        return id;
      });
    },

    /** Pause or resume, change the schedule or the notebooks. */
    async update(actor: Actor, id: string, input: FeedUpdateInput): Promise<FeedPublic> {
      const watch = await deps.get(actor, id);
      const c = await deps.check(actor, {
        feed_url: watch.feedUrl,
        schedule: input.schedule ?? watch.schedule,
        notebook_ids: input.notebook_ids ?? (JSON.parse(watch.notebookIds) as string[]),
        backfill: watch.backfill,
      });
      const now = clock.now();
      const patch: Parameters<FeedsRepo["update"]>[1] = {};
      if (input.active !== undefined && input.active === watch.paused) patch.paused = !input.active;
      if (input.schedule !== undefined && c.schedule !== watch.schedule) {
        patch.schedule = c.schedule;
        // A watch not yet polled stays due now; others move to the new schedule's next slot.
        if (watch.lastPolledAt)
          patch.nextPollAt = nextPollAt({ now, schedule: c.schedule, nextRun: deps.nextRun, lowerBoundsMs: [] });
      }
      if (input.notebook_ids !== undefined) patch.notebookIds = JSON.stringify(c.notebookIds);
      if (Object.keys(patch).length > 0) await repo.update(id, { ...patch, updatedAt: iso(now) });
      return toPublicFeed(await deps.get(actor, id));
    },

    /** The sources a watch brought in, newest first. */
    async entries(actor: Actor, id: string, q: PageQuery): Promise<Page<FeedEntryPublic>> {
      await deps.get(actor, id);
      const page = await paginate(q.limit, q.cursor, (o) => repo.entries(id, o));
      return mapPage(page, async (rows) => {
        const sources = new Map(
          (
            await deps.sourcesByIds(
              actor.userId,
              rows.map((r) => r.id),
            )
          ).map((s) => [s.id, s]),
        );
        return rows.flatMap((r) => {
          const s = sources.get(r.id);
          return s ? [{ source_id: s.id, title: s.title, url: s.url, source_status: s.status, seen_at: r.seenAt }] : [];
        });
      });
    },
  };
}

// Feed watches for callers: ensure a watch for a workflow (watch_feed), list and read them, poll one now;
// subscriptions of one's own (subscribe, pause, entries) are in subscriptions.ts.
import type { Transactor } from "../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import { invalid, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { iso, type Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import { parseHttpUrl } from "../library/sources/normalize.ts";
import type { Poller, PollResult } from "./poller.ts";
import type { FeedsRepo, WatchWithState } from "./repo.ts";
import { toPublicFeed } from "./public.ts";
import type { FeedPublic, FeedWatchInput } from "./schema.ts";
import { createSubscriptions, type SubscriptionsDeps } from "./subscriptions.ts";
import { DEFAULT_SCHEDULE } from "./timing.ts";

export const MAX_BACKFILL = 1000;

/** A watch_feed poll whose document was refused (it declared XML entities): the step fails with this. */
export class FeedRefusedStep extends Error {
  override name = "FeedRefusedStep";
}

/** The API's view of a poll: the internal `refused` flag is said by `error` already. */
const publicPoll = ({ refused: _refused, ...poll }: PollResult): PollResult => poll;

export { toPublicFeed };

/** What a watch_feed step reports. */
export interface WatchOutput {
  feed_id: string;
  feed_url: string;
  title: string | null;
  new_entries: number;
  sources: string[];
  poll_status: PollResult["status"];
  error: string | null;
}

export interface FeedsServiceDeps extends Omit<SubscriptionsDeps, "get" | "check"> {
  db: Transactor;
  repo: FeedsRepo;
  poller: Poller;
  existingNotebookIds(userId: string, ids: string[]): Promise<Set<string>>;
  /** null when the cron expression is valid, else what is wrong with it. */
  validateSchedule(expr: string): string | null;
  clock: Clock;
}

export function createFeedsService(deps: FeedsServiceDeps) {
  const { db, repo, poller, clock } = deps;

  async function get(actor: Actor, id: string): Promise<WatchWithState> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Feed");
    return row;
  }

  /** Checks a watch's input the way a save would; throws 422 with the field's path. */
  async function check(actor: Actor, input: FeedWatchInput) {
    const parsed = parseHttpUrl(input.feed_url);
    if (!parsed.ok) throw invalid("feed_url", parsed.message);
    const schedule = (input.schedule ?? "").trim() || DEFAULT_SCHEDULE;
    const bad = deps.validateSchedule(schedule);
    if (bad) throw invalid("schedule", `is not a valid cron expression: ${bad}`);
    const notebookIds = input.notebook_ids ?? [];
    const found = await deps.existingNotebookIds(actor.userId, notebookIds);
    notebookIds.forEach((id, i) => {
      if (!found.has(id)) throw invalid(`notebook_ids[${i}]`, `notebook ${id} does not exist`);
    });
    const backfill = input.backfill ?? 0;
    if (!Number.isInteger(backfill) || backfill < 0 || backfill > MAX_BACKFILL)
      throw invalid("backfill", `must be a whole number from 0 to ${MAX_BACKFILL}`);
    return { feedUrl: parsed.url.href, schedule, notebookIds, backfill };
  }

  /**
   * The user's one watch of this URL, for a workflow's watch_feed: made (and governed) by the workflow
   * when there is none, brought up to date when the workflow governs it, else reused as it is (a
   * subscription, or another workflow's watch, keeps its own settings). Returns its id.
   */
  async function ensure(actor: Actor, workflowId: string, input: FeedWatchInput): Promise<string> {
    const c = await check(actor, input);
    return db.tx(async () => {
      const at = iso(clock.now());
      const settings = {
        schedule: c.schedule,
        notebookIds: JSON.stringify(c.notebookIds),
        backfill: c.backfill,
        depth: actor.depth ?? 0,
      };
      const existing = await repo.byUrl(actor.userId, c.feedUrl);
      if (!existing) {
        const id = newId("feed");
        await repo.insert({
          id,
          userId: actor.userId,
          workflowId,
          feedUrl: c.feedUrl,
          ...settings,
          nextPollAt: clock.now(),
          createdAt: at,
          updatedAt: at,
        });
        return id;
      }
      if (existing.workflowId !== workflowId) return existing.id;
      const changed = (Object.keys(settings) as (keyof typeof settings)[]).some((k) => existing[k] !== settings[k]);
      if (changed) await repo.update(existing.id, { ...settings, updatedAt: at });
      return existing.id;
    });
  }

  async function pollOwned(
    actor: Actor,
    id: string,
    signal?: AbortSignal,
  ): Promise<{ feed: FeedPublic; poll: PollResult }> {
    await get(actor, id);
    const poll = await poller.poll(id, signal);
    // The watch was deleted with its workflow while the poll ran.
    if (!poll) throw notFound("Feed");
    return { feed: toPublicFeed(await get(actor, id)), poll: publicPoll(poll) };
  }

  return {
    check,
    ensure,
    ...createSubscriptions({ ...deps, get, check }),

    /** watch_feed: ensure the watch, poll it now, report what the poll brought. */
    async watch(actor: Actor, workflowId: string, input: FeedWatchInput, signal?: AbortSignal): Promise<WatchOutput> {
      const id = await ensure(actor, workflowId, input);
      await get(actor, id);
      const poll = await poller.poll(id, signal);
      if (!poll) throw notFound("Feed");
      // Unlike a site that is down, a hostile document is not something to wait out: the step says so.
      if (poll.refused) throw new FeedRefusedStep(`feed ${input.feed_url} ${poll.error ?? "was refused"}`);
      const feed = toPublicFeed(await get(actor, id));
      return {
        feed_id: feed.id,
        feed_url: feed.feed_url,
        title: feed.title,
        new_entries: poll.new_entries,
        sources: poll.sources,
        poll_status: poll.status,
        error: poll.error,
      };
    },

    async list(actor: Actor, q: PageQuery & { workflowId?: string }): Promise<Page<FeedPublic>> {
      const { limit, cursor, ...filters } = q;
      const page = await paginate(limit, cursor, (o) => repo.list(actor.userId, { ...filters, ...o }));
      return mapPage(page, (rows) => rows.map(toPublicFeed));
    },

    get: async (actor: Actor, id: string): Promise<FeedPublic> => toPublicFeed(await get(actor, id)),

    /** How many sources each listed watch's latest poll created (the web app's feeds page). */
    async lastPollSources(actor: Actor, ids: string[]): Promise<Map<string, number>> {
      return repo.lastPollSources(actor.userId, ids);
    },

    pollNow: pollOwned,

    /** Stops a watch (and forgets its entries); running the workflow's watch_feed again recreates it. */
    async remove(actor: Actor, id: string): Promise<FeedPublic> {
      const feed = toPublicFeed(await get(actor, id));
      await repo.delete(actor.userId, id);
      return feed;
    },
  };
}
export type FeedsService = ReturnType<typeof createFeedsService>;

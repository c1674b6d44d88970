// Polls one watch: fetch, parse, dedupe against what it has seen, turn new entries into sources, record state.
import type { Transactor } from "../../db/port.ts";
import type { FeedWatchRow } from "../../db/schema/index.ts";
import { AppError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { iso, type Clock } from "../../time.ts";
import { systemActor } from "../../actor.ts";
import type { SourcesService } from "../library/sources/service.ts";
import { fetchFeed, PollFailure, type FeedFetchDeps, type Fetched } from "./fetch.ts";
import {
  contentHash,
  FeedFormatError,
  FeedRefusedError,
  newestFirst,
  parseFeedText,
  type FeedEntry,
  type ParsedFeed,
} from "./parse.ts";
import type { FeedsRepo } from "./repo.ts";
import { failureBackoffMs, maxAgeMs, nextPollAt, retryAfterMs } from "./timing.ts";

export interface PollResult {
  status: "updated" | "not_modified" | "failed";
  http_status: number | null;
  new_entries: number;
  sources: string[];
  error: string | null;
  /** The document declared XML entities: refused, so a watch_feed step fails instead of reporting. */
  refused?: true;
}

/** Across processes (PostgreSQL): at most one poll of a watch at a time. Absent on SQLite (one process). */
export interface PollLeases {
  /** True when `owner` now holds the watch's lease (it was free, or its holder's ran out). */
  take(watchId: string, owner: string): Promise<boolean>;
  release(watchId: string, owner: string): Promise<void>;
}

// A poll asked for by a caller waits this long for another process's poll of the watch, then goes ahead
// (entries are still recorded once: each import re-checks the seen keys in its transaction).
const LEASE_WAIT_MS = 30_000;
const LEASE_RETRY_MS = 100;

export interface PollerDeps extends FeedFetchDeps {
  leases?: PollLeases;
  db: Transactor;
  repo: FeedsRepo;
  sources: Pick<SourcesService, "create">;
  existingNotebookIds(userId: string, ids: string[]): Promise<Set<string>>;
  nextRun(expr: string, after: number): number | null;
  clock: Clock;
  logger: Logger;
}

export function createPoller(deps: PollerDeps) {
  const { db, repo, clock, logger } = deps;
  const inFlight = new Map<string, Promise<PollResult | null>>();

  function next(watch: FeedWatchRow, now: number, bounds: (number | null)[]): number {
    return nextPollAt({ now, schedule: watch.schedule, nextRun: deps.nextRun, lowerBoundsMs: bounds });
  }

  async function recordFailure(watch: FeedWatchRow, err: unknown): Promise<PollResult> {
    const now = clock.now();
    const failures = watch.consecutiveFailures + 1;
    const f = err instanceof PollFailure ? err : null;
    const refused = err instanceof FeedRefusedError;
    const message =
      f?.message ??
      (refused
        ? err.message
        : err instanceof FeedFormatError
          ? `malformed feed: ${err.message}`
          : "internal error while polling");
    if (!f && !(err instanceof FeedFormatError))
      logger.error("feed poll failed", { feed_id: watch.id, error: String(err) });
    const patch: Partial<FeedWatchRow> = {
      lastPolledAt: iso(now),
      lastStatus: f?.status ?? (err instanceof FeedFormatError ? 200 : null),
      lastError: message,
      consecutiveFailures: failures,
      nextPollAt: next(watch, now, [failureBackoffMs(failures), retryAfterMs(f?.retryAfter ?? null, now)]),
    };
    if (f?.gone) Object.assign(patch, { fetchUrl: null, etag: null, lastModified: null, bodyHash: null });
    await repo.update(watch.id, patch);
    const result: PollResult = {
      status: "failed",
      http_status: patch.lastStatus ?? null,
      new_entries: 0,
      sources: [],
      error: message,
    };
    if (refused) result.refused = true;
    return result;
  }

  /** Creates the source of one new entry and remembers its identities, atomically: its source id, null when it
   * has no savable link, undefined when a concurrent poll recorded it first. */
  async function importEntry(
    watch: FeedWatchRow,
    entry: FeedEntry,
    notebookIds: string[],
    at: string,
  ): Promise<string | null | undefined> {
    return db.tx(async () => {
      if ((await repo.knownKeys(watch.id, entry.keys)).size > 0) return undefined;
      let sourceId: string | null = null;
      if (entry.url) {
        const actor = systemActor(watch.userId, `feed:${watch.id}`, watch.depth);
        const input = { url: entry.url, notebook_ids: notebookIds, ...(entry.title ? { title: entry.title } : {}) };
        try {
          sourceId = (await deps.sources.create(actor, input)).source.id;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          logger.warn("feed entry not saved", { feed_id: watch.id, url: entry.url, error: err.detail ?? err.message });
        }
      }
      await repo.remember(watch.id, entry.keys, sourceId, at);
      return sourceId;
    });
  }

  async function importEntries(
    watch: FeedWatchRow,
    feed: ParsedFeed,
    at: string,
  ): Promise<{ recorded: number; imported: number; sources: string[] }> {
    const known = await repo.knownKeys(
      watch.id,
      feed.entries.flatMap((e) => e.keys),
    );
    const seenNow = new Set<string>();
    const fresh = feed.entries.filter((e) => {
      const isNew = !e.keys.some((k) => known.has(k) || seenNow.has(k));
      e.keys.forEach((k) => seenNow.add(k));
      return isNew;
    });
    const ordered = newestFirst(fresh);
    // The first poll only records what is there, except the `backfill` newest entries.
    const toImport = (watch.baselineAt ? ordered : ordered.slice(0, watch.backfill)).reverse();
    const importing = new Set(toImport);
    const baseline = fresh.filter((e) => !importing.has(e));
    if (baseline.length > 0)
      await repo.remember(
        watch.id,
        baseline.flatMap((e) => e.keys),
        null,
        at,
      );
    const notebookIds = toImport.length
      ? [...(await deps.existingNotebookIds(watch.userId, JSON.parse(watch.notebookIds) as string[]))]
      : [];
    const sources: string[] = [];
    let imported = 0;
    for (const entry of toImport) {
      const id = await importEntry(watch, entry, notebookIds, at);
      if (id === undefined) continue;
      imported++;
      if (id) sources.push(id);
    }
    return { recorded: baseline.length + imported, imported, sources };
  }

  async function recordSuccess(
    watch: FeedWatchRow,
    got: Fetched,
    feed: ParsedFeed | null,
    bodyHash: string | null,
  ): Promise<PollResult> {
    const now = clock.now();
    const at = iso(now);
    const { recorded, imported, sources } = feed
      ? await importEntries(watch, feed, at)
      : { recorded: 0, imported: 0, sources: [] };
    const headers = got.res.headers;
    const patch: Partial<FeedWatchRow> = {
      fetchUrl: got.url,
      etag: headers.get("etag") ?? (got.kind === "not_modified" ? watch.etag : null),
      lastModified: headers.get("last-modified") ?? (got.kind === "not_modified" ? watch.lastModified : null),
      lastPolledAt: at,
      lastSuccessAt: at,
      lastStatus: got.res.status,
      lastError: null,
      consecutiveFailures: 0,
      nextPollAt: next(watch, now, [
        feed?.ttlMs ?? null,
        maxAgeMs(headers.get("cache-control")),
        retryAfterMs(headers.get("retry-after"), now),
      ]),
    };
    if (bodyHash) patch.bodyHash = bodyHash;
    if (feed) {
      patch.title = feed.title ?? watch.title;
      patch.baselineAt = watch.baselineAt ?? at;
      patch.entriesSeen = watch.entriesSeen + recorded;
      patch.sourcesCreated = watch.sourcesCreated + sources.length;
    }
    await repo.update(watch.id, patch);
    return {
      status: feed ? "updated" : "not_modified",
      http_status: got.res.status,
      new_entries: imported,
      sources,
      error: null,
    };
  }

  async function run(watch: FeedWatchRow, signal?: AbortSignal): Promise<PollResult> {
    try {
      const got = await fetchFeed(deps, watch, signal);
      if (got.kind === "not_modified") return await recordSuccess(watch, got, null, null);
      const hash = contentHash(got.text);
      // A server that sends no validators but the same bytes: nothing to parse.
      if (hash === watch.bodyHash && got.url === watch.fetchUrl && watch.baselineAt)
        return await recordSuccess(watch, got, null, hash);
      return await recordSuccess(watch, got, parseFeedText(got.text, got.res.url, deps.videoSite), hash);
    } catch (err) {
      if (signal?.aborted) throw err;
      return recordFailure((await repo.byIdUnscoped(watch.id)) ?? watch, err);
    }
  }

  /**
   * With leases (several processes): holds the watch's lease around the poll. A slot poll skips a watch
   * another process is polling, or has polled past the slot meanwhile; a caller's poll waits its turn.
   */
  async function leased(watchId: string, slot: number | undefined, signal?: AbortSignal): Promise<PollResult | null> {
    const leases = deps.leases!;
    const owner = crypto.randomUUID();
    const giveUp = performance.now() + LEASE_WAIT_MS;
    let held = await leases.take(watchId, owner);
    while (!held && slot === undefined && performance.now() < giveUp && !signal?.aborted) {
      await Bun.sleep(LEASE_RETRY_MS);
      held = await leases.take(watchId, owner);
    }
    if (!held && slot !== undefined) return null;
    try {
      const watch = await repo.byIdUnscoped(watchId);
      if (!watch || (slot !== undefined && watch.nextPollAt > slot)) return null;
      return await run(watch, signal);
    } finally {
      if (held) await leases.release(watchId, owner).catch(() => {});
    }
  }

  /** Polls now; a poll of the same watch already under way is joined, not doubled. Never throws for feed errors. */
  async function poll(watchId: string, signal?: AbortSignal, slot?: number): Promise<PollResult | null> {
    const running = inFlight.get(watchId);
    if (running) return running;
    // Registered before the first await: a second poll arriving while the row is read joins this one.
    const p = (async () => {
      if (deps.leases) return leased(watchId, slot, signal);
      const watch = await repo.byIdUnscoped(watchId);
      return watch ? run(watch, signal) : null;
    })().finally(() => inFlight.delete(watchId));
    inFlight.set(watchId, p);
    return p;
  }

  return {
    poll: (watchId: string, signal?: AbortSignal) => poll(watchId, signal),

    /** The scheduled poll of one slot: skipped if the watch was polled since or its workflow is inactive. */
    async pollSlot(watchId: string, slot: number | undefined, signal?: AbortSignal): Promise<PollResult | null> {
      const w = await repo.byIdUnscoped(watchId);
      if (!w || (slot !== undefined && w.nextPollAt > slot)) return null;
      if (!w.active) {
        // Frees this slot's job key: once reactivated, the watch is due at once under a new key.
        await repo.update(w.id, { nextPollAt: Math.max(clock.now(), (slot ?? w.nextPollAt) + 1) });
        return null;
      }
      return poll(w.id, signal, slot ?? w.nextPollAt);
    },
  };
}
export type Poller = ReturnType<typeof createPoller>;

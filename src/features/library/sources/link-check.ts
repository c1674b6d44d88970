// The periodic link check: each ready source's original address is asked, politely, whether it is still
// there. HEAD first (GET when HEAD is refused), conditional on what the last check saw, one request per
// host every LINK_CHECK_HOST_SPACING_MS across processes, through the SSRF guard. The verdict is
// recorded on the source (ok, gone, moved); nothing is ever deleted, and a transient failure (network,
// 5xx, 429) changes nothing but the time of the check. Reading never needs the original: the archived
// copy is the saved Markdown and its kept images.
import { Type } from "@sinclair/typebox";
import type { Transactor } from "../../../db/port.ts";
import type { SourceRow } from "../../../db/schema/index.ts";
import type { JobEnqueuer } from "../../../jobs/port.ts";
import { SlotPayload, type Scheduler } from "../../../jobs/scheduler.ts";
import { defineJob, handleJob, type JobRegistration } from "../../../jobs/types.ts";
import type { Logger } from "../../../log.ts";
import type { SafeFetch } from "../../../net/safe-fetch.ts";
import type { SafeResponse } from "../../../net/response.ts";
import { iso, type Clock } from "../../../time.ts";
import { systemActor } from "../../../actor.ts";
import type { EventsService } from "../../events/service.ts";
import type { LinkCheckRepo } from "./link-check-repo.ts";
import { normalizeUrl } from "./normalize.ts";
import type { SourcesRepo } from "./repo.ts";
import { toPublicSource } from "./public.ts";

export const LINK_CHECK_JOB = defineJob("source.link_check", Type.Object({ source_id: Type.String() }));
/** One hourly slot of the schedule, enqueued by the scheduler in every process (once per slot). */
export const LINK_CHECK_DISPATCH_JOB = defineJob("source.link_check_dispatch", SlotPayload);

const SCHEDULE_NAME = "sources.link-check";
const HOURLY = "41 * * * *";
/** Checks enqueued per hourly slot at most; the rest wait for the next slot. */
const BATCH = 1000;
const MAX_HOPS = 5;
/** Answers to HEAD that mean "not for HEAD" rather than anything about the page. */
const HEAD_REFUSED = new Set([400, 403, 405, 501]);
const PERMANENT = new Set([301, 308]);

/** Spacing of requests to one host (the feeds' gate: in memory, or shared tables on PostgreSQL). */
export interface HostGate {
  wait(host: string, signal?: AbortSignal): Promise<void>;
}

export interface LinkCheckDeps {
  db: Transactor;
  repo: SourcesRepo;
  checks: LinkCheckRepo;
  events: EventsService;
  jobs: JobEnqueuer;
  scheduler: Scheduler;
  safeFetch: SafeFetch;
  gate: HostGate;
  clock: Clock;
  logger: Logger;
  /** LINK_CHECK_INTERVAL_HOURS; 0 turns the check off. */
  intervalHours: number;
  hostSpacingMs: number;
}

export type Verdict = { status: "ok" | "gone" | "moved"; movedTo?: string } | { status: null; why: string };

/** The address without its scheme and trailing slash: http→https of the same page is not a move. */
function sameAddress(a: string, b: string): boolean {
  const key = (u: string) => {
    try {
      return normalizeUrl(u)
        .replace(/^https?:\/\//, "")
        .replace(/\/$/, "");
    } catch {
      return u;
    }
  };
  return key(a) === key(b);
}

export function createLinkChecker(deps: LinkCheckDeps) {
  const { db, repo, events, clock, logger } = deps;

  async function ask(url: string, method: "HEAD" | "GET", validators: Record<string, string>, signal?: AbortSignal) {
    await deps.gate.wait(new URL(url).host, signal);
    return deps.safeFetch(url, {
      method,
      followRedirects: false,
      // A GET is asked for its first byte only: the check needs the status, not the page.
      headers: method === "GET" ? { ...validators, range: "bytes=0-0" } : validators,
      maxBytes: 64 * 1024,
      signal,
    });
  }

  /** What the original address answers now, following redirects by hand to see whether they are permanent. */
  async function verdictOf(row: SourceRow, signal?: AbortSignal): Promise<{ verdict: Verdict; last?: SafeResponse }> {
    const validators: Record<string, string> = {};
    if (row.originalEtag) validators["if-none-match"] = row.originalEtag;
    if (row.originalLastModified) validators["if-modified-since"] = row.originalLastModified;
    let url = row.url;
    let method: "HEAD" | "GET" = "HEAD";
    let movedFirst = false;
    for (let hop = 0; ; hop++) {
      let res: SafeResponse;
      try {
        res = await ask(url, method, validators, signal);
        if (method === "HEAD" && HEAD_REFUSED.has(res.status)) {
          method = "GET";
          res = await ask(url, method, validators, signal);
        }
      } catch (err) {
        return { verdict: { status: null, why: err instanceof Error ? err.message : String(err) } };
      }
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
        if (hop >= MAX_HOPS) return { verdict: { status: null, why: "too many redirects" } };
        if (hop === 0) movedFirst = PERMANENT.has(res.status);
        try {
          url = new URL(location, url).href;
        } catch {
          return { verdict: { status: null, why: "a redirect to an invalid address" } };
        }
        continue;
      }
      if (res.status === 404 || res.status === 410) return { verdict: { status: "gone" }, last: res };
      if ((res.status >= 200 && res.status < 300) || res.status === 304) {
        const moved = movedFirst && !sameAddress(url, row.url) && !(row.finalUrl && sameAddress(url, row.finalUrl));
        return { verdict: moved ? { status: "moved", movedTo: url } : { status: "ok" }, last: res };
      }
      return { verdict: { status: null, why: `the server answered ${res.status}` } };
    }
  }

  /** Checks one source now; returns the verdict (status null: nothing learned, nothing changed but the time). */
  async function check(sourceId: string, signal?: AbortSignal): Promise<Verdict | undefined> {
    const row = await repo.byIdUnscoped(sourceId);
    if (row?.status !== "ready") return undefined;
    const { verdict, last } = await verdictOf(row, signal);
    const at = iso(clock.now());
    await db.tx(async () => {
      const current = await repo.byIdUnscoped(sourceId);
      if (!current) return;
      const patch: Partial<SourceRow> = { originalCheckedAt: at };
      if (verdict.status !== null) {
        patch.originalStatus = verdict.status;
        patch.originalMovedTo = verdict.status === "moved" ? verdict.movedTo! : null;
      }
      // Validators from a full answer; a 304 keeps the ones that earned it.
      if (last && last.status >= 200 && last.status < 300) {
        patch.originalEtag = last.headers.get("etag");
        patch.originalLastModified = last.headers.get("last-modified");
      }
      const changed = verdict.status !== null && verdict.status !== current.originalStatus;
      if (!changed) return repo.update(sourceId, patch);
      const links = (await repo.notebookIds([sourceId])).get(sourceId) ?? [];
      const before = toPublicSource(current, links);
      await repo.update(sourceId, { ...patch, updatedAt: at });
      const after = toPublicSource((await repo.byIdUnscoped(sourceId))!, links);
      await events.record(systemActor(current.userId, "link-check"), "source.updated", after, before);
    });
    if (verdict.status === null) logger.debug("link check learned nothing", { source_id: sourceId, why: verdict.why });
    return verdict;
  }

  /** Enqueues a check of every source due (idempotent per source and last check), hosts spread out. */
  async function dispatchDue(): Promise<number> {
    if (deps.intervalHours <= 0) return 0;
    const now = clock.now();
    const due = await deps.checks.due(iso(now - deps.intervalHours * 3_600_000), BATCH);
    const perHost = new Map<string, number>();
    let added = 0;
    for (const s of due) {
      let host: string;
      try {
        host = new URL(s.url).host;
      } catch {
        host = s.url;
      }
      const k = perHost.get(host) ?? 0;
      perHost.set(host, k + 1);
      const res = await deps.jobs.enqueue(
        LINK_CHECK_JOB,
        { source_id: s.id },
        { idempotencyKey: `${s.id}:link-check:${s.since}`, runAt: now + k * deps.hostSpacingMs },
      );
      if (res.created) added++;
    }
    if (added > 0) logger.debug("link checks enqueued", { count: added });
    return added;
  }

  return {
    check,
    dispatchDue,
    /** Schedules the hourly dispatch (none when LINK_CHECK_INTERVAL_HOURS is 0). */
    start(): void {
      if (deps.intervalHours > 0) deps.scheduler.scheduleJob(SCHEDULE_NAME, HOURLY, LINK_CHECK_DISPATCH_JOB);
    },
    stop(): void {
      deps.scheduler.unschedule(SCHEDULE_NAME);
    },
  };
}
export type LinkChecker = ReturnType<typeof createLinkChecker>;

export function linkCheckJobs(checker: LinkChecker): JobRegistration[] {
  return [
    // The next hour's slot dispatches again: a failed dispatch is not worth retrying.
    handleJob(LINK_CHECK_DISPATCH_JOB, {
      maxAttempts: 1,
      handle: async () => {
        await checker.dispatchDue();
      },
    }),
    // A check records its own failures (as "nothing learned"); only a crash retries.
    handleJob(LINK_CHECK_JOB, {
      maxAttempts: 2,
      handle: async (p, ctx) => {
        await checker.check(p.source_id, ctx.signal);
      },
    }),
  ];
}

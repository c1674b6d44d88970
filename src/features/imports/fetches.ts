// The fetches of an import's new sources are queued only once all its records exist: record creation
// (time-sliced) and interactive saves then do not share the thread with the import's fetch lane.
import type { Transactor } from "../../db/port.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import type { LibraryReader } from "../library/reader.ts";
import { INGEST_IMPORT_JOB } from "../library/sources/service.ts";
import type { ImportFormat } from "./formats/index.ts";

/** Work between two turns of the event loop, in milliseconds (a request waits at most about this). */
export const SLICE_MS = 3;
const PAGE = 200;

/** A macrotask: pending I/O (requests, fetch replies, worker messages) runs before the next slice. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Which formats carry the page itself (used instead of fetching it). */
const CARRIED: Partial<Record<ImportFormat, "html" | "markdown">> = { omnivore: "html", commonplace: "markdown" };

export interface FetchDeps {
  db: Transactor;
  library: Pick<LibraryReader, "pendingSourcesOfImport">;
  jobs: JobEnqueuer;
  hostSpacingMs: number;
  /** See ImportsDeps.interactiveQuiet. */
  interactiveQuiet?: () => Promise<void>;
}

/**
 * Queues a fetch for each still-pending source the import created. Safe to run again after a crash:
 * the idempotency key (`<source id>:0`) is the one every first fetch of a source uses.
 */
export async function queueImportFetches(
  deps: FetchDeps,
  imp: { id: string; format: ImportFormat; depth: number },
  now: () => number,
  signal?: AbortSignal,
): Promise<void> {
  const provided = CARRIED[imp.format];
  // Fetches of one host are spread out; the lane's concurrency cap bounds the rest.
  const hostNext = new Map<string, number>();
  const runAtFor = (url: string): number => {
    const host = URL.parse(url)?.hostname ?? "";
    const t = now();
    const at = Math.max(t, hostNext.get(host) ?? t);
    hostNext.set(host, at + deps.hostSpacingMs);
    return at;
  };
  let after = "";
  for (;;) {
    if (signal?.aborted) throw new Error("the import was interrupted while queueing its fetches; it resumes there");
    await deps.interactiveQuiet?.();
    const page = await deps.library.pendingSourcesOfImport(imp.id, after, PAGE);
    if (page.length === 0) return;
    const started = performance.now();
    let i = 0;
    await deps.db.tx(async () => {
      for (; i < page.length && (i === 0 || performance.now() - started < SLICE_MS); i++) {
        const s = page[i]!;
        const carried = provided && s.hasContent;
        await deps.jobs.enqueue(
          INGEST_IMPORT_JOB,
          { source_id: s.id, depth: imp.depth, ...(carried ? { provided } : {}) },
          { idempotencyKey: `${s.id}:0`, runAt: carried ? now() : runAtFor(s.url) },
        );
      }
    });
    after = page[i - 1]!.id;
    await yieldToEventLoop();
  }
}

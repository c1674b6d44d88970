// Imports: accept a file (checked and parsed at once, so a wrong or broken file is a 4xx), then apply
// its entries in a durable job, batch by batch, recording where it got to so a restart resumes there.
import type { Transactor } from "../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { Type } from "@sinclair/typebox";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { defineJob } from "../../jobs/types.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import { systemActor, type Actor } from "../../actor.ts";
import { queueImportFetches, SLICE_MS, yieldToEventLoop } from "./fetches.ts";
import { createApplier, type ApplyDeps, type Outcome, type Problem } from "./apply.ts";
import {
  detectFormat,
  ImportFormatError,
  type ImportFormat,
  type ImportItem,
  type ParseLimits,
  DEFAULT_PARSE_LIMITS,
} from "./formats/index.ts";
import type { ImportParser, Parsed } from "./formats/parser.ts";
import type { ImportsRepo, ImportView } from "./repo.ts";
import { checkImportUrl } from "./url-check.ts";
import type { ImportPublic } from "./schema.ts";

export const IMPORT_JOB = defineJob("import.run", Type.Object({ import_id: Type.String() }));
// Entries are applied in time slices: one transaction takes entries until SLICE_MS have passed (or
// BATCH entries), commits, and yields to the event loop, so a request or a job step that arrives
// mid-import waits for at most one slice (a few ms), not for a batch of 100 (~45 ms) as before.
const BATCH = 100;
const MAX_PROBLEMS = 1000;

export interface ImportsDeps extends ApplyDeps {
  db: Transactor;
  repo: ImportsRepo;
  jobs: JobEnqueuer;
  /** Fetches of one host are this far apart. */
  hostSpacingMs: number;
  clock: Clock;
  logger: Logger;
  limits: { maxBytes: number; maxItems: number };
  /** Reads files in a thread of its own, within time and memory bounds. */
  parser: ImportParser;
  /**
   * Awaited before each slice of work: resolves when no interactive job (a link saved by hand) is
   * running, or after a bounded wait, so an import never delays a save by more than a slice.
   */
  interactiveQuiet?: () => Promise<void>;
}

export function toPublicImport(r: ImportView, fetched: Record<string, number> = {}): ImportPublic {
  return {
    id: r.id,
    format: r.format as ImportFormat,
    filename: r.filename,
    status: r.status,
    counts: {
      total: r.total,
      processed: r.created + r.alreadySaved + r.invalid + r.failed,
      created: r.created,
      already_saved: r.alreadySaved,
      invalid: r.invalid,
      failed: r.failed,
      notebooks_created: r.notebooksCreated,
      feeds_watched: r.feedsWatched,
    },
    fetching: { pending: fetched["pending"] ?? 0, ready: fetched["ready"] ?? 0, failed: fetched["failed"] ?? 0 },
    problems: JSON.parse(r.problems) as Problem[],
    problems_total: r.problemsTotal,
    error: r.error,
    created_at: r.createdAt,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
  };
}

const countable = (i: ImportItem) => i.kind !== "notebook";

export function createImportsService(deps: ImportsDeps) {
  const { db, repo, clock, logger } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();
  const publicOf = async (r: ImportView) => toPublicImport(r, await deps.library.sourceStatusCountsOfImport(r.id));
  // The entries parsed at upload, handed to the job when it runs in this process: parsing 10,000
  // bookmarks again holds the thread ~100 ms, which a save made just after the upload would wait for.
  // A resume (or another process) parses the stored file. A few at most, in case jobs run elsewhere.
  const justParsed = new Map<string, ImportItem[]>();
  const keepParsed = (id: string, items: ImportItem[]) => {
    justParsed.set(id, items);
    if (justParsed.size > 4) justParsed.delete(justParsed.keys().next().value!);
  };

  const parseLimits: ParseLimits = {
    ...DEFAULT_PARSE_LIMITS,
    maxItems: deps.limits.maxItems,
    maxFolders: deps.limits.maxItems,
    maxUnpackedBytes: deps.limits.maxBytes,
  };

  async function parse(format: ImportFormat, bytes: Uint8Array): Promise<Parsed> {
    try {
      return await deps.parser.parse(format, bytes, parseLimits);
    } catch (e) {
      if (e instanceof ImportFormatError)
        throw new AppError("validation_failed", `file: ${e.message}`, {
          errors: [{ path: "file", message: e.message }],
        });
      throw e;
    }
  }

  return {
    async create(
      actor: Actor,
      input: { bytes: Uint8Array; filename: string | null; format: ImportFormat | "auto" },
    ): Promise<ImportPublic> {
      if (input.bytes.byteLength > deps.limits.maxBytes) {
        throw new AppError("payload_too_large", `The file is larger than ${deps.limits.maxBytes} bytes`);
      }
      if (input.bytes.byteLength === 0)
        throw new AppError("validation_failed", "file: the file is empty", {
          errors: [{ path: "file", message: "the file is empty" }],
        });
      const format = input.format === "auto" ? detectFormat(input.bytes) : input.format;
      if (!format) {
        const message = "the format could not be recognised from the content; name it in `format`";
        throw new AppError("validation_failed", `file: ${message}`, { errors: [{ path: "format", message }] });
      }
      // The bytes go to the parsing thread, which hashes and compresses them: this thread neither copies,
      // hashes nor writes out 20 MB.
      const { items, stored, sha256: sha } = await parse(format, input.bytes);
      const total = items.filter(countable).length;
      if (total > deps.limits.maxItems) {
        const message = `the file has ${total} entries; one import takes at most ${deps.limits.maxItems}`;
        throw new AppError("validation_failed", `file: ${message}`, { errors: [{ path: "file", message }] });
      }
      const created = await db.tx(async () => {
        const at = nowIso();
        const id = newId("import");
        // Feeds not yet watched become subscriptions now, with the import, so a resumed run finds them.
        // (feed_workflows maps each to its watch; rows from before subscriptions hold workflow ids.)
        const watched = items.some((i) => i.kind === "feed") ? await deps.feeds.watched(actor) : new Set<string>();
        const feedWorkflows: Record<string, string> = {};
        for (const it of items) {
          if (it.kind !== "feed") continue;
          const c = checkImportUrl(it.url, deps.fetchPolicy);
          if (c.ok && !watched.has(c.url.href) && !feedWorkflows[c.url.href])
            feedWorkflows[c.url.href] = await deps.feeds.subscribe(actor, c.url.href, it.title);
        }
        await repo.insert({
          id,
          userId: actor.userId,
          format,
          filename: input.filename?.slice(0, 255) || null,
          fileSha256: sha,
          file: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength),
          status: "queued",
          total,
          feedWorkflows: JSON.stringify(feedWorkflows),
          createdAt: at,
          updatedAt: at,
        });
        await deps.jobs.enqueue(IMPORT_JOB, { import_id: id }, { idempotencyKey: id });
        return publicOf((await repo.byId(actor.userId, id))!);
      });
      keepParsed(created.id, items);
      return created;
    },

    async get(actor: Actor, id: string): Promise<ImportPublic> {
      const r = await repo.byId(actor.userId, id);
      if (!r) throw notFound("Import");
      return publicOf(r);
    },

    async list(actor: Actor, q: PageQuery): Promise<Page<ImportPublic>> {
      const page = await paginate(q.limit, q.cursor, (o) => repo.list(actor.userId, o));
      return mapPage(page, (rows) => Promise.all(rows.map(publicOf)));
    },

    /** The job: applies the entries from `position` on, one transaction per time slice, then queues the fetches. */
    async run(importId: string, signal?: AbortSignal): Promise<void> {
      const row = await repo.withFile(importId);
      if (!row || row.status === "succeeded" || row.status === "failed" || !row.file) return;
      const actor = systemActor(row.userId, "import");
      /** Tells the owner's open pages where the import is (live only, never stored). */
      const progress = async () => {
        const now = await repo.byId(row.userId, row.id);
        if (now) {
          const p = toPublicImport(now);
          deps.events.publish(row.userId, "import.progress", { id: p.id, status: p.status, counts: p.counts });
        }
      };
      if (row.status === "queued") {
        await repo.update(row.id, { status: "running", startedAt: nowIso(), updatedAt: nowIso() });
        await progress();
      }
      let items: ImportItem[];
      try {
        items = justParsed.get(row.id) ?? (await parse(row.format as ImportFormat, new Uint8Array(row.file))).items;
        justParsed.delete(row.id);
      } catch (e) {
        await repo.update(row.id, {
          status: "failed",
          error: e instanceof Error ? e.message : String(e),
          file: null,
          finishedAt: nowIso(),
          updatedAt: nowIso(),
        });
        await progress();
        return;
      }
      const apply = createApplier(
        deps,
        actor,
        () => clock.now(),
        row.id,
        JSON.parse(row.feedWorkflows) as Record<string, string>,
      );
      // Entries count from 1 in the file's order; notebooks (folders) are not entries.
      const entryNo: number[] = [];
      let n = 0;
      for (const it of items) entryNo.push(countable(it) ? ++n : n);
      let position = row.position;
      while (position < items.length) {
        if (signal?.aborted) throw new Error(`the import was interrupted; it resumes from entry ${position}`);
        await deps.interactiveQuiet?.();
        const from = position;
        const started = performance.now();
        position = await db.tx(async () => {
          const cur = (await repo.progressOf(row.id))!;
          const problems: Problem[] = [];
          const c = { created: 0, already_saved: 0, invalid: 0, failed: 0, notebook_created: 0, feed: 0 } as Record<
            Outcome,
            number
          >;
          let i = from;
          // At least one entry per slice, so a slow entry cannot stall the import.
          for (; i < items.length && i - from < BATCH && (i === from || performance.now() - started < SLICE_MS); i++) {
            let outcome: Outcome;
            try {
              outcome = await db.tx(() => apply(items[i]!, entryNo[i]!, problems));
            } catch (e) {
              // One entry the library refuses (too long a name, …) is reported; the rest go on.
              problems.push({
                entry: entryNo[i]!,
                line: items[i]!.line ?? null,
                url: "url" in items[i]! ? ((items[i] as { url?: string }).url ?? null) : null,
                reason: e instanceof AppError ? e.message : "could not be saved",
              });
              if (!(e instanceof AppError))
                logger.warn("an import entry failed", { import_id: row.id, error: String(e) });
              outcome = "failed";
            }
            c[outcome] = (c[outcome] ?? 0) + 1;
          }
          await repo.update(row.id, {
            position: i,
            created: cur.created + (c.created ?? 0) + (c.feed ?? 0),
            feedsWatched: cur.feedsWatched + (c.feed ?? 0),
            alreadySaved: cur.alreadySaved + (c.already_saved ?? 0),
            invalid: cur.invalid + (c.invalid ?? 0),
            failed: cur.failed + (c.failed ?? 0),
            notebooksCreated: cur.notebooksCreated + (c.notebook_created ?? 0),
            // The kept problems are rewritten only when this slice added some.
            ...(problems.length > 0
              ? {
                  problems: JSON.stringify(
                    [...(JSON.parse(cur.problems) as Problem[]), ...problems].slice(0, MAX_PROBLEMS),
                  ),
                  problemsTotal: cur.problemsTotal + problems.length,
                }
              : {}),
            updatedAt: nowIso(),
          });
          return i;
        });
        await progress();
        await yieldToEventLoop();
      }
      // Only now do the import's fetches start (interactive saves are claimed before them all the same).
      await queueImportFetches(
        deps,
        { id: row.id, format: row.format as ImportFormat, depth: actor.depth ?? 0 },
        () => clock.now(),
        signal,
      );
      await repo.update(row.id, { status: "succeeded", file: null, finishedAt: nowIso(), updatedAt: nowIso() });
      await progress();
    },
  };
}
export type ImportsService = ReturnType<typeof createImportsService>;

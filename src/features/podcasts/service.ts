// Podcasts: create an episode from sources or a notebook (credits held, generation queued in the
// same transaction), read, list and delete it, find its audio file, and make quick podcasts.
import type { BlobBody, BlobStore } from "../../blobs/port.ts";
import type { Config } from "../../config.ts";
import type { Transactor } from "../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import type { PodcastRow, PodcastStatus, SourceRow } from "../../db/schema/index.ts";
import { AppError, invalid, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { Type } from "@sinclair/typebox";
import type { Queue } from "../../jobs/queue.ts";
import { defineJob } from "../../jobs/types.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { CreditsService } from "../credits/service.ts";
import type { EventsService } from "../events/service.ts";
import type { LibraryReader } from "../library/reader.ts";
import {
  creditsFor,
  DEFAULT_PODCAST_FORMAT,
  FORMATS,
  minutesFor,
  PODCAST_FORMATS,
  targetWordsFor,
  type FormatSpec,
  type PodcastFormat,
} from "./formats.ts";
import type { ScriptWriter } from "./script/port.ts";
import type { PodcastsRepo } from "./repo.ts";
import { MAX_SOURCES, type PodcastCreate, type PodcastPublic } from "./schema.ts";
import { audioPathOf, toPublicPodcast } from "./public.ts";

export const GENERATE_JOB = defineJob("podcast.generate", Type.Object({ podcast_id: Type.String() }));
/** More is hours of audio; a self-hoster who wants it can split the source. */
export const MAX_UNABRIDGED_WORDS = 50_000;
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export interface PodcastsDeps {
  db: Transactor;
  repo: PodcastsRepo;
  library: Pick<LibraryReader, "notebookById" | "readySourceIdsInNotebook" | "sourcesByIds">;
  events: EventsService;
  queue: Pick<Queue, "enqueue" | "get">;
  credits: CreditsService;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Where finished episodes live (key `audioPathOf(id)`). */
  blobs: BlobStore;
  /** The script writer generation uses: the estimate asks it how long the script will be, when it can tell. */
  writer?: Pick<ScriptWriter, "plannedWords">;
}

/** What each format would cost before creating: minutes and credits per format, and the credits free now. */
export interface PodcastQuote {
  /** Words in the chosen sources; null when nothing was chosen (only `unabridged` depends on it). */
  words: number | null;
  perMinute: number;
  /** Credits left this period minus those held by episodes still generating. */
  available: number;
  periodEnd: string;
  formats: Record<PodcastFormat, { minutes: number; credits: number } | null>;
}

interface Chosen {
  rows: SourceRow[];
  notebookId: string | null;
  title: string;
}

const wordsOf = (rows: SourceRow[]) => rows.reduce((n, r) => n + (r.wordCount ?? 0), 0);

export function createPodcastsService(deps: PodcastsDeps) {
  const { db, repo, events, queue, credits, clock, config } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();
  const pub = (row: PodcastRow) => toPublicPodcast(row, config.baseUrl);

  async function chooseSources(actor: Actor, input: PodcastCreate): Promise<Chosen> {
    if (input.source_ids && input.notebook_id) throw invalid("notebook_id", "give source_ids or notebook_id, not both");
    if (input.notebook_id) {
      const nb = await deps.library.notebookById(actor.userId, input.notebook_id);
      if (!nb) throw invalid("notebook_id", `notebook ${input.notebook_id} does not exist`);
      const ids = await deps.library.readySourceIdsInNotebook(actor.userId, nb.id);
      if (ids.length === 0) throw invalid("notebook_id", "the notebook has no ready sources");
      const rows = (await deps.library.sourcesByIds(actor.userId, ids.slice(0, MAX_SOURCES))).sort((a, b) =>
        a.id.localeCompare(b.id),
      );
      return { rows, notebookId: nb.id, title: nb.name };
    }
    if (!input.source_ids) throw invalid("source_ids", "give source_ids or notebook_id");
    const found = new Map((await deps.library.sourcesByIds(actor.userId, input.source_ids)).map((r) => [r.id, r]));
    const rows = input.source_ids.map((id, i) => {
      const row = found.get(id);
      if (!row) throw invalid(`source_ids[${i}]`, `source ${id} does not exist`);
      if (row.status !== "ready")
        throw invalid(`source_ids[${i}]`, `source ${id} is not ready yet (status ${row.status})`);
      return row;
    });
    const first = rows[0]!.title ?? rows[0]!.url;
    return { rows, notebookId: null, title: rows.length > 1 ? `${first} and ${rows.length - 1} more` : first };
  }

  /**
   * Minutes and credits of a format for these sources: the length of the script the writer will
   * write when it can tell (the builtin writer), else the format's target; the same words a minute
   * turn words into minutes here and a format's minutes into its target words.
   */
  async function plan(
    spec: FormatSpec,
    chosen: Pick<Chosen, "rows" | "title">,
    language: string,
  ): Promise<{ minutes: number; credits: number }> {
    const documents = chosen.rows
      .filter((r) => r.content?.trim())
      .map((r) => ({ id: r.id, title: r.title ?? r.url, markdown: r.content! }));
    const planned =
      documents.length && deps.writer?.plannedWords
        ? await deps.writer.plannedWords({ spec, title: chosen.title, language, documents })
        : null;
    const minutes = minutesFor(planned ?? targetWordsFor(spec, wordsOf(chosen.rows)));
    return { minutes, credits: creditsFor(minutes, config.credits.podcastPerMinute) };
  }

  /** 402 unless the balance covers this cost on top of what unfinished episodes already hold. */
  async function holdCredit(userId: string, cost: number): Promise<void> {
    const b = await credits.balance(userId);
    const held = await repo.creditsOnHold(userId);
    if (b.remaining - held < cost) {
      const pending = held > 0 ? ` (${held} held for episodes still generating)` : "";
      throw new AppError(
        "insufficient_credit",
        `This episode needs ${cost} credits and ${Math.max(0, b.remaining - held)} are free${pending} until ${b.period_end}`,
      );
    }
  }

  /** Inserts the episode and, when queued, its generation job; call inside a transaction. */
  async function insert(
    actor: Actor,
    fields: {
      format: PodcastFormat;
      title: string;
      language: string;
      chosen: Chosen;
      origin: PodcastRow["origin"];
      cost: number;
      failed?: AppError;
    },
  ): Promise<PodcastRow> {
    const at = nowIso();
    const id = newId("podcast");
    const failed = fields.failed;
    await repo.insert({
      id,
      userId: actor.userId,
      title: fields.title.slice(0, 500),
      format: fields.format,
      language: fields.language,
      status: failed ? "failed" : "queued",
      error: failed ? failed.code : null,
      errorDetail: failed ? (failed.detail ?? null) : null,
      sourceIds: fields.chosen.rows.map((r) => r.id),
      notebookId: fields.chosen.notebookId,
      origin: fields.origin,
      creditsQuoted: fields.cost,
      createdAt: at,
      updatedAt: at,
      finishedAt: failed ? at : null,
    });
    if (!failed)
      await repo.update(id, {
        jobId: (await queue.enqueue(GENERATE_JOB, { podcast_id: id }, { idempotencyKey: id })).id,
      });
    const row = (await repo.byIdUnscoped(id))!;
    await events.record(actor, "podcast.created", pub(row));
    return row;
  }

  function languageFor(input: string | undefined, rows: SourceRow[]): string {
    if (input) return input;
    const fromSource = rows.map((r) => r.language?.trim()).find((l) => l && LANGUAGE.test(l));
    return fromSource ?? "en";
  }

  /** An episode whose job the queue gave up on (crashes past every retry) is reported failed, never left "generating". */
  async function truthful(row: PodcastRow): Promise<PodcastRow> {
    if (row.status !== "queued" && row.status !== "generating") return row;
    const job = row.jobId ? await queue.get(row.jobId) : null;
    if (job && (job.status === "queued" || job.status === "running")) return row;
    return db.tx(async () => {
      const current = await repo.byIdUnscoped(row.id);
      if (!current || (current.status !== "queued" && current.status !== "generating")) return current ?? row;
      const at = nowIso();
      await repo.update(row.id, {
        status: "failed",
        error: "generation_stopped",
        errorDetail: "Generation stopped before it finished and will not be retried",
        updatedAt: at,
        finishedAt: at,
      });
      const after = (await repo.byIdUnscoped(row.id))!;
      await events.record(
        { userId: row.userId, auth: { type: "system", reason: "podcast" } },
        "podcast.updated",
        pub(after),
        pub(current),
      );
      return after;
    });
  }

  async function getRow(actor: Actor, id: string): Promise<PodcastRow> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Podcast");
    return truthful(row);
  }

  return {
    getRow,
    get: async (actor: Actor, id: string): Promise<PodcastPublic> => pub(await getRow(actor, id)),

    /** The cost of each format for these sources or notebook (validated as create would), or for none yet. */
    async quote(actor: Actor, input: Pick<PodcastCreate, "source_ids" | "notebook_id"> | null): Promise<PodcastQuote> {
      const chosen = input ? await chooseSources(actor, input) : null;
      const words = chosen ? wordsOf(chosen.rows) : null;
      const perMinute = config.credits.podcastPerMinute;
      const formats = {} as PodcastQuote["formats"];
      for (const f of PODCAST_FORMATS) {
        const spec = FORMATS[f];
        if (chosen) formats[f] = await plan(spec, chosen, languageFor(undefined, chosen.rows));
        else if (spec.targetWords === null) formats[f] = null;
        else {
          // Nothing chosen yet: the format's target, which a short source may not reach.
          const minutes = minutesFor(spec.targetWords);
          formats[f] = { minutes, credits: creditsFor(minutes, perMinute) };
        }
      }
      const b = await credits.balance(actor.userId);
      return {
        words,
        perMinute,
        available: Math.max(0, b.remaining - (await repo.creditsOnHold(actor.userId))),
        periodEnd: b.period_end,
        formats,
      };
    },

    async create(actor: Actor, input: PodcastCreate, origin: PodcastRow["origin"] = "api"): Promise<PodcastPublic> {
      const format = input.format ?? DEFAULT_PODCAST_FORMAT;
      const spec = FORMATS[format];
      const chosen = await chooseSources(actor, input);
      const words = wordsOf(chosen.rows);
      if (words === 0) throw invalid(input.notebook_id ? "notebook_id" : "source_ids", "the sources have no text");
      if (format === "unabridged" && words > MAX_UNABRIDGED_WORDS) {
        throw invalid(
          input.notebook_id ? "notebook_id" : "source_ids",
          `an unabridged episode reads at most ${MAX_UNABRIDGED_WORDS} words; these sources have ${words}`,
        );
      }
      const { credits: cost } = await plan(spec, chosen, languageFor(input.language, chosen.rows));
      return db.tx(async () => {
        await holdCredit(actor.userId, cost);
        const title = input.title?.trim() || chosen.title;
        return pub(
          await insert(actor, {
            format,
            title,
            language: languageFor(input.language, chosen.rows),
            chosen,
            origin,
            cost,
          }),
        );
      });
    },

    /** The ready-hook: runs inside the ingest transaction; at most one quick episode per source, ever. */
    async onSourceReady(actor: Actor, source: SourceRow): Promise<void> {
      if (!source.generateQuickPodcast) return;
      try {
        await db.tx(async () => {
          if (!(await repo.markQuick(source.id, "pending", nowIso()))) return;
          const format = (PODCAST_FORMATS as readonly string[]).includes(source.podcastFormat ?? "")
            ? (source.podcastFormat as PodcastFormat)
            : DEFAULT_PODCAST_FORMAT;
          const chosen: Chosen = { rows: [source], notebookId: null, title: source.title ?? source.url };
          const { credits: cost } = await plan(FORMATS[format], chosen, languageFor(undefined, [source]));
          let failed: AppError | undefined;
          try {
            await holdCredit(actor.userId, cost);
          } catch (e) {
            if (!(e instanceof AppError)) throw e;
            failed = e;
          }
          const row = await insert(actor, {
            format,
            title: chosen.title,
            language: languageFor(undefined, [source]),
            chosen,
            origin: "quick",
            cost,
            failed,
          });
          await repo.setQuickPodcast(source.id, row.id);
        });
      } catch (err) {
        // A quick podcast must never keep its source from becoming ready.
        deps.logger.error("quick podcast could not be created", {
          source_id: source.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },

    async list(actor: Actor, q: PageQuery & { status?: PodcastStatus }): Promise<Page<PodcastPublic>> {
      const { limit, cursor, ...filters } = q;
      const page = await paginate(limit, cursor, (o) => repo.list(actor.userId, { ...filters, ...o }));
      // One at a time: truthful may open a transaction, and savepoints must not interleave.
      return mapPage(page, async (rows) => {
        const out: PodcastPublic[] = [];
        for (const r of rows) out.push(pub(await truthful(r)));
        return out;
      });
    },

    async delete(actor: Actor, id: string): Promise<PodcastPublic> {
      const before = await db.tx(async () => {
        const row = await getRow(actor, id);
        await repo.delete(actor.userId, id);
        const shown = pub(row);
        await events.record(actor, "podcast.deleted", shown);
        return shown;
      });
      await deps.blobs.delete(audioPathOf(id));
      return before;
    },

    /** The ready episode's audio blob: 409 while it is not ready; `open` reads it whole or one range. */
    async audioFile(
      actor: Actor,
      id: string,
    ): Promise<{
      size: number;
      etag: string;
      lastModified: Date;
      filename: string;
      open: (range?: { start: number; end: number }) => Promise<BlobBody>;
    }> {
      const row = await getRow(actor, id);
      if (row.status !== "ready" || !row.audioPath)
        throw new AppError("conflict", `The episode has no audio yet (status ${row.status})`);
      const key = row.audioPath;
      const stat = await deps.blobs.stat(key);
      if (!stat) throw notFound("Audio file of this episode");
      const size = stat.size;
      const filename = `${
        row.title
          .replace(/[^\p{L}\p{N} ._-]+/gu, "")
          .trim()
          .slice(0, 80) || row.id
      }.mp3`;
      const open = async (range?: { start: number; end: number }) => {
        const body = await deps.blobs.get(key, range);
        // Deleted between stat and read: the same answer as deleted before.
        if (!body) throw notFound("Audio file of this episode");
        return body;
      };
      return {
        open,
        size,
        etag: `"${row.id}-${size}"`,
        lastModified: new Date(row.finishedAt ?? row.updatedAt),
        filename,
      };
    },
  };
}
export type PodcastsService = ReturnType<typeof createPodcastsService>;

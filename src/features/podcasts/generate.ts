// One generation run of an episode: script (kept once written), speech, MP3 rendered to a local part
// file and put in the blob store, then "ready" and the charge in one transaction. Failures are
// classified: the queue retries transient ones; the last attempt or a permanent failure marks it failed.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { AIError, aiErrorToAppError } from "../../ai/openai-client.ts";
import type { SpeechEngine } from "../../ai/speech/port.ts";
import type { BlobStore } from "../../blobs/port.ts";
import type { Config } from "../../config.ts";
import type { Transactor } from "../../db/port.ts";
import type { PodcastRow } from "../../db/schema/index.ts";
import { AppError } from "../../errors.ts";
import { ulid } from "../../ids.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import { systemActor, type Actor } from "../../actor.ts";
import type { CreditsService } from "../credits/service.ts";
import type { EventsService } from "../events/service.ts";
import type { LibraryReader } from "../library/reader.ts";
import type { AudioEncoder } from "./audio/encoder.ts";
import type { Id3Fields } from "./audio/id3.ts";
import { FORMATS, type PodcastFormat } from "./formats.ts";
import { createProgressReporter } from "./progress.ts";
import { RenderCancelled, renderEpisode } from "./render.ts";
import type { PodcastsRepo } from "./repo.ts";
import { ScriptError, type ScriptWriter, type Turn } from "./script/port.ts";
import { audioPathOf, toPublicPodcast } from "./public.ts";

/** Real attempts; the job allows one more so a run that crashed on the last one can still record the failure. */
export const GENERATION_ATTEMPTS = 3;

export interface GeneratorDeps {
  db: Transactor;
  repo: PodcastsRepo;
  library: Pick<LibraryReader, "sourcesByIds">;
  events: EventsService;
  credits: CreditsService;
  writer: ScriptWriter;
  speech: SpeechEngine;
  encoder: AudioEncoder;
  /** The finished MP3 goes here; part files stay on local disk while rendering. */
  blobs: BlobStore;
  config: Config;
  clock: Clock;
  logger: Logger;
}

export interface RunContext {
  attempt: number;
  signal?: AbortSignal;
}

interface Failure {
  code: string;
  detail: string;
  permanent: boolean;
}

/** What players show for an episode: its title, by "Commonplace", in the "Commonplace podcasts" album. */
export function episodeTag(row: Pick<PodcastRow, "title" | "format">, now: number): Id3Fields {
  const format = FORMATS[row.format as PodcastFormat]?.label ?? row.format;
  return {
    title: row.title,
    artist: "Commonplace",
    album: "Commonplace podcasts",
    year: String(new Date(now).getUTCFullYear()),
    comment: `${format} episode made by Commonplace`,
  };
}

/** What the user sees: stable codes and details without upstream bodies (they can echo keys). */
export function classify(err: unknown): Failure {
  if (err instanceof ScriptError) return { code: err.code, detail: err.message, permanent: true };
  if (err instanceof AIError) {
    const permanent =
      err.code === "ai_http_error" &&
      err.status !== undefined &&
      err.status < 500 &&
      err.status !== 408 &&
      err.status !== 429;
    return { code: "script_failed", detail: aiErrorToAppError(err).detail ?? "The chat model failed", permanent };
  }
  if (err instanceof AppError) {
    if (err.code === "insufficient_credit")
      return { code: err.code, detail: err.detail ?? err.message, permanent: true };
    const transient = err.code === "upstream_error" || err.code === "service_unavailable";
    const detail = (err.detail ?? err.message).split(":")[0]!;
    return { code: "speech_failed", detail: `Speech synthesis failed: ${detail}`, permanent: !transient };
  }
  if ((err as { code?: unknown })?.code === "ENOSPC")
    return { code: "storage_failed", detail: "The data directory is full", permanent: false };
  return { code: "internal_error", detail: "Generation failed unexpectedly", permanent: false };
}

export function createPodcastGenerator(deps: GeneratorDeps) {
  const { db, repo, events, clock, config, logger } = deps;
  const dir = join(config.dataDir, "podcasts");
  const nowIso = () => new Date(clock.now()).toISOString();
  const pub = (row: PodcastRow) => toPublicPodcast(row, config.baseUrl);

  /** Applies a change with its podcast.updated event; false when the episode is gone. */
  async function change(
    actor: Actor,
    id: string,
    patch: Partial<PodcastRow>,
    extra?: (row: PodcastRow) => void | Promise<void>,
  ): Promise<boolean> {
    return db.tx(async () => {
      const before = await repo.byIdUnscoped(id);
      if (!before) return false;
      await extra?.(before);
      await repo.update(id, { ...patch, updatedAt: nowIso() });
      await events.record(actor, "podcast.updated", pub((await repo.byIdUnscoped(id))!), pub(before));
      return true;
    });
  }

  const fail = (actor: Actor, id: string, f: { code: string; detail: string }) =>
    change(actor, id, { status: "failed", error: f.code, errorDetail: f.detail, finishedAt: nowIso() });

  /** Progress of one attempt, published to the owner's open event streams only. */
  const progressOf = (row: PodcastRow) =>
    createProgressReporter(
      (p) => events.publish(row.userId, "podcast.progress", { id: row.id, status: "generating", ...p }),
      () => clock.now(),
    );

  async function script(
    row: PodcastRow,
    progress: ReturnType<typeof progressOf>,
    signal?: AbortSignal,
  ): Promise<Turn[]> {
    if (row.transcript) return row.transcript;
    progress.script();
    const found = new Map((await deps.library.sourcesByIds(row.userId, row.sourceIds)).map((s) => [s.id, s]));
    const documents = row.sourceIds
      .map((id) => found.get(id))
      .filter((s): s is NonNullable<typeof s> => Boolean(s?.content?.trim()))
      .map((s) => ({ id: s.id, title: s.title ?? s.url, markdown: s.content! }));
    if (documents.length === 0) throw new ScriptError("no_content", "The sources were deleted or have no text");
    const spec = FORMATS[row.format as PodcastFormat];
    const turns = await deps.writer.write({ spec, title: row.title, language: row.language, documents, signal });
    if (turns.length === 0) throw new ScriptError("no_content", "The script came out empty");
    // Kept so a retry after a crash speaks the same script instead of asking the model again.
    await repo.update(row.id, { transcript: turns, scriptEngine: deps.writer.id });
    return turns;
  }

  /** Old temporary files of this episode (a crashed attempt's) go before a new one starts. */
  function clearParts(id: string): void {
    for (const name of readdirSync(dir))
      if (name.startsWith(`${id}.`) && name.endsWith(".part")) rmSync(join(dir, name), { force: true });
  }

  /** Ready and charged in one transaction: the charge is made once, and only for an episode that exists. */
  async function complete(
    actor: Actor,
    row: PodcastRow,
    result: { durationSeconds: number; bytes: number },
  ): Promise<boolean> {
    const minutes = Math.max(1, Math.ceil(result.durationSeconds / 60));
    const charge = Math.min(row.creditsQuoted, Math.ceil(config.credits.podcastPerMinute * minutes));
    const at = nowIso();
    return change(
      actor,
      row.id,
      {
        status: "ready",
        error: null,
        errorDetail: null,
        durationSeconds: result.durationSeconds,
        audioPath: audioPathOf(row.id),
        audioBytes: result.bytes,
        creditsUsed: charge,
        speechEngine: deps.speech.id,
        finishedAt: at,
      },
      async () => void (await deps.credits.spend(row.userId, charge, "podcast", row.id)),
    );
  }

  async function generate(id: string, ctx: RunContext): Promise<void> {
    const row = await repo.byIdUnscoped(id);
    if (!row || row.status === "ready" || row.status === "failed") return;
    const actor = systemActor(row.userId, "podcast");
    if (ctx.attempt > GENERATION_ATTEMPTS) {
      await fail(actor, id, {
        code: "generation_stopped",
        detail: "Generation stopped before it finished on every attempt",
      });
      return;
    }
    if (
      row.status !== "generating" &&
      !(await change(actor, id, { status: "generating", error: null, errorDetail: null }))
    )
      return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const part = join(dir, `${id}.${ulid()}.part`);
    const key = audioPathOf(id);
    try {
      clearParts(id);
      const progress = progressOf(row);
      const turns = await script(row, progress, ctx.signal);
      const voices = new Map(FORMATS[row.format as PodcastFormat].speakers.map((s) => [s.name, s.voice as string]));
      const result = await renderEpisode(turns, part, {
        speech: deps.speech,
        encoder: deps.encoder,
        voices,
        language: row.language,
        signal: ctx.signal,
        cancelled: async () => !(await repo.byIdUnscoped(id)),
        tag: episodeTag(row, clock.now()),
        onProgress: (p) => (p.phase === "speech" ? progress.speech(p.done, p.total) : progress.encoding()),
      });
      await deps.blobs.moveIn(key, part);
      if (!(await complete(actor, row, result))) await deps.blobs.delete(key);
    } catch (err) {
      rmSync(part, { force: true });
      if (ctx.signal?.aborted) throw err; // shutdown or a lost lease: the queue hands the job on
      if (err instanceof RenderCancelled) return;
      if (err instanceof AppError && err.code === "insufficient_credit") await deps.blobs.delete(key);
      const f = classify(err);
      logger.warn("podcast generation failed", {
        podcast_id: id,
        attempt: ctx.attempt,
        code: f.code,
        error: err instanceof Error ? err.message : String(err),
      });
      if (f.permanent || ctx.attempt >= GENERATION_ATTEMPTS) {
        await fail(actor, id, f);
        return;
      }
      // Waiting for the next attempt: "queued" again, which is what it is.
      await change(actor, id, { status: "queued" });
      throw err;
    }
  }

  return { generate };
}
export type PodcastGenerator = ReturnType<typeof createPodcastGenerator>;

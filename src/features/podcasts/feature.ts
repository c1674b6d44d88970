// The podcasts feature: service, script writer (model or builtin), audio encoder, the generation job,
// the source-ready listener (episodes waiting for a source) and /api/v1/podcasts.
import type { AI } from "../../ai/select.ts";
import type { BlobStore } from "../../blobs/port.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { Queue } from "../../jobs/queue.ts";
import { handleJob } from "../../jobs/types.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { CreditsService } from "../credits/service.ts";
import type { EventsService } from "../events/service.ts";
import type { FeatureWith } from "../feature.ts";
import type { LibraryReader } from "../library/reader.ts";
import { createAudioEncoder } from "./audio/encoder.ts";
import { createPodcastGenerator, GENERATION_ATTEMPTS } from "./generate.ts";
import type { PodcastsRepo } from "./repo.ts";
import { podcastRoutes } from "./routes.ts";
import { createBuiltinScriptWriter } from "./script/builtin.ts";
import { createOpenAIScriptWriter } from "./script/openai.ts";
import { createPodcastsService, GENERATE_JOB } from "./service.ts";

export interface PodcastsFeatureDeps {
  config: Config;
  db: Db;
  repo: PodcastsRepo;
  clock: Clock;
  logger: Logger;
  events: EventsService;
  credits: CreditsService;
  queue: Pick<Queue, "enqueue" | "get">;
  ai: AI;
  /** The sources an episode is made of, and the notebooks it may be made from. */
  library: Pick<LibraryReader, "notebookById" | "readySourceIdsInNotebook" | "sourcesByIds">;
  blobs: BlobStore;
}

export function createPodcastsFeature(d: PodcastsFeatureDeps) {
  const { repo } = d;
  const writer = d.ai.chat.complete ? createOpenAIScriptWriter({ chat: d.ai.chat }) : createBuiltinScriptWriter();
  const base = createPodcastsService({ ...d, repo, writer });
  // Worker threads start on first use, so building this costs nothing until an episode is made.
  const encoder = createAudioEncoder();
  const generator = createPodcastGenerator({ ...d, repo, writer, speech: d.ai.speech, encoder });
  const service = {
    ...base,
    generator,
    writer,
    encoder,
    /** Stops the audio worker threads (they restart if used again). */
    async close(): Promise<void> {
      await Promise.all([encoder.close(), d.ai.speech.close?.()]);
    },
  };
  return {
    name: "podcasts",
    service,
    api: podcastRoutes({ podcasts: base }),
    jobs: [
      handleJob(GENERATE_JOB, {
        // One spare attempt: after a crash on the last real one, the handler still marks the episode failed.
        maxAttempts: GENERATION_ATTEMPTS + 1,
        backoff: (attempt) => Math.min(120_000, 5_000 * 2 ** (attempt - 1)),
        handle: (p, ctx) => generator.generate(p.podcast_id, { attempt: ctx.attempt, signal: ctx.signal }),
      }),
    ],
    listeners: { sourceReady: (actor, row) => base.onSourceReady(actor, row) },
  } satisfies FeatureWith<typeof service>;
}
export type PodcastsFeature = ReturnType<typeof createPodcastsFeature>;
export type Podcasts = PodcastsFeature["service"];

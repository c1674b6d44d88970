// Wires the podcasts feature: service, script writer (model or builtin), audio encoder, job and ready-hook.
import type { AI } from "../../ai/select.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { Queue } from "../../jobs/queue.ts";
import type { Runner } from "../../jobs/runner.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { CreditsService } from "../credits/service.ts";
import type { EventsService } from "../events/service.ts";
import type { NotebooksRepo } from "../notebooks/repo.ts";
import type { ReadyHook } from "../sources/ingest.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import { createAudioEncoder } from "./audio/encoder.ts";
import { createPodcastGenerator } from "./generate.ts";
import { registerPodcastJobs } from "./jobs.ts";
import { createPodcastsRepo } from "./repo.ts";
import { createBuiltinScriptWriter } from "./script/builtin.ts";
import { createOpenAIScriptWriter } from "./script/openai.ts";
import { createPodcastsService } from "./service.ts";

export interface PodcastsSetupDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  events: EventsService;
  credits: CreditsService;
  queue: Queue;
  runner: Runner;
  ai: AI;
  sources: SourcesRepo;
  notebooks: NotebooksRepo;
  onSourceReady: ReadyHook[];
}

export function setupPodcasts(d: PodcastsSetupDeps) {
  const repo = createPodcastsRepo(d.db);
  const service = createPodcastsService({ ...d, repo });
  // Worker threads start on first use, so building this costs nothing until an episode is made.
  const encoder = createAudioEncoder();
  const writer = d.ai.chat.complete ? createOpenAIScriptWriter({ chat: d.ai.chat }) : createBuiltinScriptWriter();
  const generator = createPodcastGenerator({ ...d, repo, writer, speech: d.ai.speech, encoder });
  registerPodcastJobs(d.runner, generator);
  d.onSourceReady.push((actor, row) => service.onSourceReady(actor, row));
  return {
    ...service,
    generator,
    writer,
    encoder,
    /** Stops the audio worker threads (they restart if used again). */
    async close(): Promise<void> {
      await Promise.all([encoder.close(), d.ai.speech.close?.()]);
    },
  };
}
export type Podcasts = ReturnType<typeof setupPodcasts>;

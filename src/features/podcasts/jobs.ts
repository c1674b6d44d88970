// Registers episode generation with the job runner: the queue owns retries and crash recovery.
import { t } from "elysia";
import type { Runner } from "../../jobs/runner.ts";
import { defineJob } from "../../jobs/types.ts";
import { GENERATION_ATTEMPTS, type PodcastGenerator } from "./generate.ts";
import { GENERATE_JOB } from "./service.ts";

export function registerPodcastJobs(runner: Runner, generator: PodcastGenerator): void {
  runner.register(
    GENERATE_JOB,
    defineJob({
      payload: t.Object({ podcast_id: t.String() }),
      // One spare attempt: after a crash on the last real one, the handler still marks the episode failed.
      maxAttempts: GENERATION_ATTEMPTS + 1,
      backoff: (attempt) => Math.min(120_000, 5_000 * 2 ** (attempt - 1)),
      handle: (p, ctx) => generator.generate(p.podcast_id, { attempt: ctx.attempt, signal: ctx.signal }),
    }),
  );
}

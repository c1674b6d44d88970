// Registers the ingestion job with the runner: retries transient failures, then records the error.
import { t } from "elysia";
import type { Runner } from "../../jobs/runner.ts";
import { defineJob } from "../../jobs/types.ts";
import type { Ingester } from "./ingest.ts";
import { INGEST_JOB } from "./service.ts";

const MAX_ATTEMPTS = 3;

export function registerIngestJob(runner: Runner, ingest: Ingester): void {
  runner.register(
    INGEST_JOB,
    defineJob({
      payload: t.Object({ source_id: t.String(), depth: t.Integer({ minimum: 0 }) }),
      maxAttempts: MAX_ATTEMPTS,
      backoff: (attempt) => Math.min(60_000, 2_000 * 2 ** (attempt - 1)),
      handle: (p, ctx) => ingest(p.source_id, { depth: p.depth, lastAttempt: ctx.attempt >= ctx.maxAttempts }),
    }),
  );
}

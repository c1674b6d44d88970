// Registers the ingestion job with the runner: retries transient failures, then records the error.
import { t } from "elysia";
import type { Runner } from "../../jobs/runner.ts";
import { defineJob } from "../../jobs/types.ts";
import type { Ingester } from "./ingest.ts";
import { INGEST_IMPORT_JOB, INGEST_JOB } from "./service.ts";

const MAX_ATTEMPTS = 3;

export function registerIngestJob(
  runner: Runner,
  ingest: Ingester,
  opts: { importConcurrency: number; interactiveQuiet?: () => Promise<void> },
): void {
  // Imported links: the same work in a background lane, so interactive saves are claimed first.
  runner.register(
    INGEST_IMPORT_JOB,
    defineJob({
      payload: t.Object({
        source_id: t.String(),
        depth: t.Integer({ minimum: 0 }),
        provided: t.Optional(t.Union([t.Literal("html"), t.Literal("markdown")])),
      }),
      maxAttempts: MAX_ATTEMPTS,
      maxConcurrent: opts.importConcurrency,
      backoff: (attempt) => Math.min(60_000, 2_000 * 2 ** (attempt - 1)),
      handle: async (p, ctx) => {
        // An imported page starts only once the links saved by hand are done (or after a bounded wait).
        await opts.interactiveQuiet?.();
        await ingest(p.source_id, {
          depth: p.depth,
          lastAttempt: ctx.attempt >= ctx.maxAttempts,
          provided: p.provided,
          background: true,
        });
      },
    }),
  );
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

// The narrow view of the job queue that features need: enqueue a typed job inside the caller's transaction.
import type { Static, TSchema } from "@sinclair/typebox";
import type { EnqueueOptions, JobDef } from "./types.ts";

export type { EnqueueOptions, JobDef };

export interface JobEnqueuer {
  enqueue<S extends TSchema>(
    job: JobDef<S>,
    payload: Static<S>,
    opts?: EnqueueOptions,
  ): Promise<{ id: string; created: boolean }>;
}

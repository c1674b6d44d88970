// The narrow view of the job queue that features need: enqueue inside the caller's transaction.
import type { EnqueueOptions } from "./types.ts";

export type { EnqueueOptions };

export interface JobEnqueuer {
  enqueue(type: string, payload: unknown, opts?: EnqueueOptions): Promise<{ id: string; created: boolean }>;
}

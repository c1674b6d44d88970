// The narrow view of the job queue that features need: enqueue inside the caller's transaction.
export interface EnqueueOptions {
  delayMs?: number;
  runAt?: number;
  idempotencyKey?: string;
  maxAttempts?: number;
}

export interface JobEnqueuer {
  enqueue(type: string, payload: unknown, opts?: EnqueueOptions): { id: string; created: boolean };
}

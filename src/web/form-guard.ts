// Replay guards for forms that create something (an API key, a webhook token): a form id is claimed once,
// so a resubmitted (reloaded, double-clicked) form does not create a second one. In memory on SQLite (one
// process); in the database on PostgreSQL, where the resubmission may reach another process.

export interface FormGuard {
  /** Claims the user's form id until `expiresAt`; false when it is already claimed (and not expired). */
  claim(userId: string, formId: string, expiresAt: number, now: number): Promise<boolean>;
  /** Frees a claim whose action failed, so the form may be sent again. */
  release(userId: string, formId: string): Promise<void>;
}

export function createMemoryFormGuard(): FormGuard {
  const used = new Map<string, number>();
  return {
    // Synchronous up to its return: a second submission in flight sees the first one's claim.
    async claim(userId, formId, expiresAt, now) {
      for (const [k, expires] of used) if (expires <= now) used.delete(k);
      const key = `${userId}:${formId}`;
      if (used.has(key)) return false;
      used.set(key, expiresAt);
      return true;
    },
    async release(userId, formId) {
      used.delete(`${userId}:${formId}`);
    },
  };
}

/** Builds the guard of one kind of form (`kind` keeps claims of different forms apart). */
export type FormGuards = (kind: string) => FormGuard;

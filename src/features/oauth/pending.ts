// Authorisation requests parked while the user signs in and consents. In memory on SQLite (one process:
// a restart only means "start again"); in the database on PostgreSQL, where the consent may reach
// another process than the one that parked the request.
import type { OAuthClientRow } from "../../db/schema/index.ts";

export interface PendingAuthorization {
  id: string;
  client: OAuthClientRow;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string;
  state: string | undefined;
  expiresAt: number;
}

export interface PendingStore {
  put(p: PendingAuthorization, now: number): Promise<void>;
  /** The live request, or undefined when unknown or expired. */
  get(id: string, now: number): Promise<PendingAuthorization | undefined>;
  /** Removes and returns the live request: of two answers to one request, only one gets it. */
  take(id: string, now: number): Promise<PendingAuthorization | undefined>;
}

/** Parked requests kept at most (the oldest go first when someone floods the endpoint). */
export const MAX_PENDING = 10_000;

export function createMemoryPending(): PendingStore {
  const pending = new Map<string, PendingAuthorization>();
  const live = (id: string, now: number): PendingAuthorization | undefined => {
    const p = pending.get(id);
    if (p && p.expiresAt <= now) pending.delete(id);
    return p && p.expiresAt > now ? p : undefined;
  };
  return {
    async put(p, now) {
      for (const [id, q] of pending) if (q.expiresAt <= now) pending.delete(id);
      // Map order is insertion order: drop the oldest when someone floods the endpoint.
      while (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
      pending.set(p.id, p);
    },
    async get(id, now) {
      return live(id, now);
    },
    async take(id, now) {
      const p = live(id, now);
      pending.delete(id);
      return p;
    },
  };
}

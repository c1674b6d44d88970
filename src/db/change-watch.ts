// Tells in-memory caches when another connection (the admin CLI, a second process) committed:
// SQLite's PRAGMA data_version changes exactly then, and never for this connection's own writes.
// On PostgreSQL the same interface is backed by NOTIFY (see pg/change-watch.ts).
import type { Database } from "bun:sqlite";

/** What a cache entry is keyed by when a writer announces a change: an API key id, a user id, a webhook token id. */
export type CacheTopic = "key" | "user" | "webhook_token";

/** A change announced by a writer (topic and id), or null: anything may have changed, flush everything. */
export type CacheChange = { topic: CacheTopic; id: string } | null;

export interface ChangeWatch {
  /** A number that moves whenever another connection has committed (seen within `windowMs`). */
  generation(): number;
  /**
   * Calls fn for each change another process (or this one) announced, and with null when announcements
   * may have been missed (a reconnect): the cache must then be flushed. Never called on SQLite, where
   * generation() already sees every other connection's commit.
   */
  onChange(fn: (change: CacheChange) => void): void;
  /**
   * Announces a change to every process's caches. Call it inside the transaction that makes the change:
   * on PostgreSQL the NOTIFY is delivered at COMMIT and only if it commits. Nothing to do on SQLite.
   */
  announce(topic: CacheTopic, id: string): Promise<void>;
  /** Resolves once other processes' announcements are being received (at once on SQLite). */
  readonly listening: Promise<void>;
}

/**
 * On a WAL file every read opens a read transaction (a few lock syscalls), which would dominate a
 * cached request, so the pragma is read at most once per `windowMs` (default 1 ms). A commit by
 * another process is therefore seen by every request that starts 1 ms or more after it, far less
 * than it takes a CLI to exit and a client to send its next request.
 */
export function createChangeWatch(sqlite: Database, opts: { windowMs?: number; now?: () => number } = {}): ChangeWatch {
  const windowMs = opts.windowMs ?? 1;
  const now = opts.now ?? (() => performance.now());
  const stmt = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  let seen = stmt.get()?.data_version ?? 0;
  let generation = 0;
  let checkedAt = now();
  return {
    generation() {
      const t = now();
      if (t - checkedAt < windowMs) return generation;
      checkedAt = t;
      const v = stmt.get()?.data_version ?? 0;
      if (v !== seen) {
        seen = v;
        generation++;
      }
      return generation;
    },
    onChange() {},
    announce: () => Promise.resolve(),
    listening: Promise.resolve(),
  };
}

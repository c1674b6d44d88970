// Tells in-memory caches when another connection (the admin CLI, a second process) committed:
// SQLite's PRAGMA data_version changes exactly then, and never for this connection's own writes.
import type { Database } from "bun:sqlite";

export interface ChangeWatch {
  /** A number that moves whenever another connection has committed (seen within `windowMs`). */
  generation(): number;
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
  };
}

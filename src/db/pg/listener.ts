// One LISTEN connection per server per process, shared by every pool opened on it: a process that opens
// many pools (a test run opens one per test) must not hold a dedicated connection for each.
import postgres from "postgres";

interface Shared {
  sql: postgres.Sql;
  users: number;
}

const shared = new Map<string, Shared>();

export interface Listener {
  /** As postgres.js's listen: fn per notification, onListen when (re)subscribed. Silent once released. */
  listen(channel: string, fn: (payload: string) => void, onListen?: () => void): Promise<void>;
  /** Stops this user's subscriptions; the connection closes with its last user. */
  release(): Promise<void>;
}

export function acquireListener(url: string): Listener {
  let entry = shared.get(url);
  if (!entry) {
    // Only sql.listen is used: postgres.js opens one dedicated connection for it (no idle timeout) and
    // re-subscribes every channel, calling each onListen again, when that connection drops.
    // Named with the process id so an operator (or a test) can tell whose listener a backend is.
    const connection = { application_name: `commonplace-listen-${process.pid}` };
    entry = { sql: postgres(url, { max: 1, onnotice: () => {}, fetch_types: false, connection }), users: 0 };
    shared.set(url, entry);
  }
  const mine = entry;
  mine.users++;
  let released = false;
  const unlistens: (() => Promise<unknown>)[] = [];
  return {
    async listen(channel, fn, onListen) {
      if (released) throw new Error("listen after the database was closed");
      const sub = await mine.sql.listen(
        channel,
        (payload) => {
          if (!released) fn(payload);
        },
        () => {
          if (!released) onListen?.();
        },
      );
      unlistens.push(sub.unlisten);
    },
    async release() {
      if (released) return;
      released = true;
      if (--mine.users === 0) {
        if (shared.get(url) === mine) shared.delete(url);
        await mine.sql.end({ timeout: 5 });
        return;
      }
      await Promise.all(unlistens.map((u) => u().catch(() => {})));
    },
  };
}

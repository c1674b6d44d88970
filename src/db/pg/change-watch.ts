// In-process caches kept honest across processes on PostgreSQL: writers NOTIFY the id they changed (at
// COMMIT), every process evicts it; a (re)connected LISTEN flushes everything; a TTL bounds the rest.
import type { CacheChange, CacheTopic, ChangeWatch } from "../change-watch.ts";
import type { PgDb } from "./port.ts";

/** The longest a cache entry outlives a change whose announcement never arrived (a bug, a lost connection's race). */
export const CACHE_TTL_MS = 60_000;

const TOPICS: ReadonlySet<string> = new Set<CacheTopic>(["key", "user", "webhook_token"]);

/**
 * NOTIFY channels are per database, not per schema: the schema is in the name so deployments (and test
 * schemas) sharing a server do not evict each other's caches. Channel names are identifiers (≤ 63 bytes).
 */
export function cacheChannel(schema: string): string {
  const name = `cache_${schema}`;
  if (name.length <= 63) return name;
  return `cache_${new Bun.CryptoHasher("sha256").update(schema).digest("hex").slice(0, 40)}`;
}

/**
 * Sent on the same channel when an event is recorded: it evicts nothing but moves the generation, which
 * live hubs poll, so streams open on one process see events another process committed.
 */
export const EVENT_RECORDED = "event:";

/** Parses "topic:id"; anything else is ignored (a newer version's topic, a hand-sent NOTIFY). */
function parse(payload: string): CacheChange | undefined {
  const i = payload.indexOf(":");
  const topic = payload.slice(0, i);
  if (i <= 0 || !TOPICS.has(topic)) return undefined;
  return { topic: topic as CacheTopic, id: payload.slice(i + 1) };
}

export function createPgChangeWatch(
  pg: PgDb,
  opts: { ttlMs?: number; now?: () => number; onError?: (err: unknown) => void } = {},
): ChangeWatch {
  const ttlMs = opts.ttlMs ?? CACHE_TTL_MS;
  const now = opts.now ?? Date.now;
  const channel = cacheChannel(pg.schema);
  const listeners: ((c: CacheChange) => void)[] = [];
  let generation = 0;
  let slot = Math.floor(now() / ttlMs);

  const emit = (c: CacheChange) => {
    for (const fn of listeners) fn(c);
  };
  // The first subscription also counts: anything cached before it went live may have missed a NOTIFY.
  const onListen = () => {
    generation++;
    emit(null);
  };
  const listening = pg.listen(
    channel,
    (payload) => {
      if (payload === EVENT_RECORDED) {
        generation++;
        return;
      }
      const c = parse(payload);
      if (c) emit(c);
    },
    onListen,
  );
  // Until LISTEN works, the TTL is the only bound: say so, but do not take the process down.
  listening.catch(opts.onError ?? ((err: unknown) => console.error("cache invalidation: LISTEN failed", err)));

  return {
    generation() {
      const s = Math.floor(now() / ttlMs);
      if (s !== slot) {
        slot = s;
        generation++;
      }
      return generation;
    },
    onChange(fn) {
      listeners.push(fn);
    },
    announce: (topic, id) => pg.notify(channel, `${topic}:${id}`),
    listening,
  };
}

// The live hub: one in-process fan-out of events to open streams. It is woken after commit by the
// events service, as its first recorded listener (one read of the outbox for all streams, never a query
// per connection), and, while streams are open, by a slow check for commits made by other processes on the same file.
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { AppEvent, EventsService, PublishedEvent } from "./service.ts";

export type LiveEvent = { stored: AppEvent } | { published: PublishedEvent };

export interface LiveSink {
  deliver(e: LiveEvent): void;
  /** The server is stopping: end the stream (the client resumes elsewhere or later). */
  end(): void;
}

const BATCH = 500;
/** A progress snapshot older than this is forgotten (its job died without a final event). */
const SNAPSHOT_TTL_MS = 15 * 60 * 1000;

export interface LiveHubDeps {
  events: EventsService;
  /** Sees commits by other connections (the admin CLI, a second process); optional in tests. */
  changes?: ChangeWatch;
  /** How often open streams check for other processes' commits. */
  backstopMs?: number;
  maxPerUser: number;
  now?: () => number;
}

export function createLiveHub(deps: LiveHubDeps) {
  const { events } = deps;
  const now = deps.now ?? Date.now;
  const byUser = new Map<string, Set<LiveSink>>();
  let open = 0;
  /** The last outbox row fanned out; only meaningful while streams are open. */
  let cursor = 0;
  let generation = deps.changes?.generation() ?? 0;
  let backstop: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  /** The latest progress of each object still in progress (by object id), for streams opened mid-way. */
  const snapshots = new Map<string, { event: PublishedEvent; at: number }>();

  /** The outbox is read while streams are open or progress is held (its end must be seen). */
  const active = () => open > 0 || snapshots.size > 0;
  /** The cursor's read when the hub last woke from idle; every outbox read waits for it. */
  let cursorReady: Promise<void> = Promise.resolve();
  /** Waking from idle: nothing was fanned out meanwhile, so fan-out starts from the outbox's end. */
  function activate(): Promise<void> {
    if (!active()) {
      cursorReady = events.latestSeq().then(
        (seq) => void (cursor = seq),
        (err: unknown) => console.error("live hub: reading the outbox's end failed", err),
      );
    }
    return cursorReady;
  }

  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  /**
   * Reads the outbox past the cursor and fans it out. One read at a time: two overlapping reads would
   * start from the same cursor and deliver the same events twice, so a wake-up during a read asks for
   * one more pass instead. Never rejects (a failed read waits for the next wake-up or backstop).
   */
  function pump(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        do {
          pumpAgain = false;
          await pumpOnce();
        } while (pumpAgain);
      } catch (err) {
        console.error("live hub: reading the events outbox failed", err);
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  }

  async function pumpOnce(): Promise<void> {
    await cursorReady;
    if (!active()) return;
    for (;;) {
      const batch = await events.after(cursor, BATCH);
      for (const e of batch) {
        cursor = e.seq;
        forgetProgress(e);
        const sinks = byUser.get(e.user_id);
        if (sinks) for (const sink of sinks) sink.deliver({ stored: e });
      }
      if (batch.length < BATCH) return;
    }
  }

  /** A stored change of an object ends its progress (ready, failed, queued again, deleted). */
  function forgetProgress(e: AppEvent): void {
    const id = (e.data as { id?: unknown } | null)?.id;
    if (typeof id === "string" && snapshots.has(id)) snapshots.delete(id);
  }

  // Synchronous, so a progress snapshot is held the moment it is published.
  function onPublished(e: PublishedEvent): void {
    void activate();
    snapshots.set(e.data.id, { event: e, at: now() });
    const sinks = byUser.get(e.user_id);
    if (sinks) for (const sink of sinks) sink.deliver({ published: e });
  }

  const stopPublished = events.onPublished(onPublished);

  function startBackstop(): void {
    if (!deps.changes || backstop) return;
    backstop = setInterval(() => {
      const g = deps.changes!.generation();
      if (g === generation) return;
      generation = g;
      void pump();
    }, deps.backstopMs ?? 1000);
    backstop.unref?.();
  }

  return {
    /**
     * Adds a stream of `userId`; null when the user already has the most streams allowed. The hub
     * delivers events committed after this call; what came before is the stream's to read.
     */
    async subscribe(userId: string, sink: LiveSink): Promise<(() => void) | null> {
      if (closed) return null;
      let sinks = byUser.get(userId);
      if (sinks && sinks.size >= deps.maxPerUser) return null;
      if (open === 0) {
        await activate();
        generation = deps.changes?.generation() ?? 0;
        startBackstop();
      }
      if (!sinks) byUser.set(userId, (sinks = new Set()));
      sinks.add(sink);
      open++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        sinks.delete(sink);
        if (sinks.size === 0) byUser.delete(userId);
        if (--open === 0 && backstop) {
          clearInterval(backstop);
          backstop = undefined;
        }
      };
    },

    /** Progress still running for this user's objects, newest state each. */
    progressOf(userId: string): PublishedEvent[] {
      const out: PublishedEvent[] = [];
      const t = now();
      for (const [id, s] of snapshots) {
        if (t - s.at > SNAPSHOT_TTL_MS) snapshots.delete(id);
        else if (s.event.user_id === userId) out.push(s.event);
      }
      return out;
    },

    /** The latest progress of one object, if it is in progress (pages render it server-side). */
    progress(objectId: string): PublishedEvent | undefined {
      const s = snapshots.get(objectId);
      return s && now() - s.at <= SNAPSHOT_TTL_MS ? s.event : undefined;
    },

    /** Events committed (the events service's recorded listener): fan them out. No-op once closed. */
    recorded(): void {
      if (!closed) void pump(); // pump reports its own failures
    },

    /** Open streams, in all or for one user (tests and metrics). */
    connections(userId?: string): number {
      return userId === undefined ? open : (byUser.get(userId)?.size ?? 0);
    },

    /** True once the hub was closed: no new streams. */
    isClosed: () => closed,

    /** Ends every open stream and takes no new ones; a server stopping gracefully waits for its streams otherwise. */
    close(): void {
      closed = true;
      for (const sinks of [...byUser.values()]) for (const sink of [...sinks]) sink.end();
      stopPublished();
      if (backstop) clearInterval(backstop);
      backstop = undefined;
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;

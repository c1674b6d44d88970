// Internal events: every change to a source, notebook, note, highlight, podcast or workflow run is recorded in
// the outbox inside the caller's transaction, so an event exists exactly when its change committed.
// Progress notes (podcast.progress, import.progress, search_quality.progress) are published to live listeners only and never stored.
import type { Transactor } from "../../db/port.ts";
import type { EventRow } from "../../db/schema/index.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { EventsRepo } from "./repo.ts";

export const EVENT_TYPES = [
  "source.created",
  "source.updated",
  "source.deleted",
  "notebook.created",
  "notebook.updated",
  "notebook.deleted",
  "note.created",
  "note.updated",
  "note.deleted",
  "podcast.created",
  "podcast.updated",
  "podcast.deleted",
  "highlight.created",
  "highlight.updated",
  "highlight.deleted",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Workflow run events: stored for the live stream's resume, never workflow triggers. */
export const RUN_EVENT_TYPES = ["run.started", "run.step_finished", "run.succeeded", "run.failed"] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];
export type StoredEventType = EventType | RunEventType;

/** Live-only events: published to open streams, not stored, not replayed. */
export const PROGRESS_EVENT_TYPES = ["podcast.progress", "import.progress", "search_quality.progress"] as const;
export type ProgressEventType = (typeof PROGRESS_EVENT_TYPES)[number];

/** A live-only event as it reaches listeners. */
export interface PublishedEvent {
  user_id: string;
  type: ProgressEventType;
  occurred_at: string;
  data: { id: string } & Record<string, unknown>;
}

/** True for event types a workflow may be triggered by. */
export const isTriggerType = (type: string): type is EventType => (EVENT_TYPES as readonly string[]).includes(type);

export interface AppEvent {
  seq: number;
  id: string;
  user_id: string;
  type: StoredEventType;
  occurred_at: string;
  data: unknown;
  previous: unknown;
  depth: number;
}

/** A stored row as consumers see it (the dispatcher reads claimed rows through this too). */
export function toAppEvent(r: EventRow): AppEvent {
  return {
    seq: r.seq,
    id: r.id,
    user_id: r.userId,
    type: r.type as StoredEventType,
    occurred_at: r.occurredAt,
    data: JSON.parse(r.data),
    previous: r.previous === null ? null : JSON.parse(r.previous),
    depth: r.depth,
  };
}

/**
 * Told after a commit that recorded events, once per tick, with the types committed. Work it starts
 * and does not finish at once is returned as a promise, which `settled()` waits for.
 */
export type RecordedListener = (types: ReadonlySet<string>) => void | Promise<void>;

export interface EventsServiceDeps {
  repo: EventsRepo;
  db: Transactor;
  clock: Clock;
  /**
   * Who is told after events commit, in order. Given at construction like every other listener; a
   * function because the features that listen (workflows) are built after this one: it is first
   * called after a commit, when the feature list is complete, and its answer is kept.
   */
  onRecorded?: () => readonly RecordedListener[];
}

export function createEventsService(deps: EventsServiceDeps) {
  const { repo, db, clock } = deps;
  let listeners: readonly RecordedListener[] | undefined;
  const recordedListeners = () => (listeners ??= deps.onRecorded?.() ?? []);
  const published = new Set<(e: PublishedEvent) => void>();
  // Types committed since listeners were last told, so a listener can skip what it never handles.
  let pendingTypes = new Set<string>();
  // Listener work still running (a dispatch being queued): settled() waits for it.
  const inFlight = new Set<Promise<void>>();

  /** After a commit: tell listeners once for everything committed in this tick. */
  function committed(type: string): void {
    if (pendingTypes.size === 0) {
      queueMicrotask(() => {
        const types = pendingTypes;
        pendingTypes = new Set();
        for (const l of recordedListeners()) {
          const work = l(types);
          if (!work) continue;
          const tracked = work.then(
            () => void inFlight.delete(tracked),
            () => void inFlight.delete(tracked),
          );
          inFlight.add(tracked);
        }
      });
    }
    pendingTypes.add(type);
  }

  return {
    /**
     * Resolves once listeners have been told of every commit so far and their work has ended: the
     * job runner's drain() waits for it, so a job a listener queues after a commit is not missed.
     */
    async settled(): Promise<void> {
      for (;;) {
        // A commit in this tick has its listeners told in a microtask; let it run first.
        await Promise.resolve();
        if (inFlight.size === 0 && pendingTypes.size === 0) return;
        await Promise.all(inFlight);
      }
    },
    /** Call inside the transaction of the change; listeners are told after the current tick. */
    async record(actor: Actor, type: StoredEventType, data: unknown, previous?: unknown): Promise<string> {
      const id = newId("event");
      const now = clock.now();
      await repo.insert({
        id,
        userId: actor.userId,
        type,
        occurredAt: new Date(now).toISOString(),
        data: JSON.stringify(data),
        previous: previous === undefined ? null : JSON.stringify(previous),
        depth: actor.depth ?? 0,
        // Run events can never trigger a workflow: written already dispatched, the dispatcher never claims them.
        dispatchedAt: isTriggerType(type) ? null : now,
      });
      // Told only once the change and its event have committed (never when they roll back).
      if (deps.onRecorded) db.afterCommit(() => committed(type));
      return id;
    },
    /** A live-only event (progress): listeners get it now; nothing is stored. */
    publish(userId: string, type: ProgressEventType, data: PublishedEvent["data"]): void {
      if (published.size === 0) return;
      const e: PublishedEvent = { user_id: userId, type, occurred_at: new Date(clock.now()).toISOString(), data };
      for (const l of published) l(e);
    },
    onPublished(listener: (e: PublishedEvent) => void): () => void {
      published.add(listener);
      return () => published.delete(listener);
    },
    async after(seq: number, limit = 100): Promise<AppEvent[]> {
      return (await repo.after(seq, limit)).map(toAppEvent);
    },
    /** One user's events after `seq`, oldest first: what a resumed stream missed. */
    async afterForUser(userId: string, seq: number, limit: number): Promise<AppEvent[]> {
      return (await repo.afterForUser(userId, seq, limit)).map(toAppEvent);
    },
    async latestSeq(): Promise<number> {
      return repo.latestSeq();
    },
    async forUser(userId: string, opts: { limit: number; beforeSeq?: number; type?: string }): Promise<AppEvent[]> {
      return (await repo.forUser(userId, opts)).map(toAppEvent);
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;

// Internal events: every change to a source, notebook, note or podcast is recorded in the outbox
// inside the caller's transaction, so an event exists exactly when its change committed.
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../accounts/actor.ts";
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
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface AppEvent {
  seq: number;
  id: string;
  user_id: string;
  type: EventType;
  occurred_at: string;
  data: unknown;
  previous: unknown;
  depth: number;
}

export function createEventsService(deps: { repo: EventsRepo; clock: Clock }) {
  const { repo, clock } = deps;
  const listeners = new Set<() => void>();
  let notifyScheduled = false;

  const toEvent = (r: ReturnType<EventsRepo["after"]>[number]): AppEvent => ({
    seq: r.seq,
    id: r.id,
    user_id: r.userId,
    type: r.type as EventType,
    occurred_at: r.occurredAt,
    data: JSON.parse(r.data),
    previous: r.previous === null ? null : JSON.parse(r.previous),
    depth: r.depth,
  });

  return {
    /** Call inside the transaction of the change; listeners are told after the current tick. */
    record(actor: Actor, type: EventType, data: unknown, previous?: unknown): string {
      const id = newId("event");
      repo.insert({
        id,
        userId: actor.userId,
        type,
        occurredAt: new Date(clock.now()).toISOString(),
        data: JSON.stringify(data),
        previous: previous === undefined ? null : JSON.stringify(previous),
        depth: actor.depth ?? 0,
      });
      if (!notifyScheduled && listeners.size > 0) {
        notifyScheduled = true;
        queueMicrotask(() => {
          notifyScheduled = false;
          for (const l of listeners) l();
        });
      }
      return id;
    },
    after(seq: number, limit = 100): AppEvent[] {
      return repo.after(seq, limit).map(toEvent);
    },
    forUser(userId: string, opts: { limit: number; beforeSeq?: number; type?: string }): AppEvent[] {
      return repo.forUser(userId, opts).map(toEvent);
    },
    /** Wakes a consumer (the workflow dispatcher) when events may be waiting. */
    onRecorded(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;

// The feature contract: every feature folder builds one of these, and the composition root is a list of them.
import type { AnyElysia } from "elysia";
import type { Actor } from "../actor.ts";
import type { NoteRow, SourceRow } from "../db/schema/index.ts";
import type { JobRegistration } from "../jobs/types.ts";

/** Job handlers, each tied to its job handle (`handleJob`); the root registers every feature's in one loop. */
export type Jobs = readonly JobRegistration[];

/**
 * What a feature does when something happens in another feature. The root hands each producer the
 * listeners of the features built before it, at construction: nothing is pushed onto a hook later.
 */
export interface Listeners {
  /** A source finished extraction (first time or after a refetch). */
  sourceReady?: (actor: Actor, row: SourceRow) => void | Promise<void>;
  /** A source's text or tags changed by an edit (not by extraction). */
  sourceChanged?: (row: SourceRow) => void | Promise<void>;
  /** A note was created, or its title or text changed. */
  noteSaved?: (row: NoteRow) => void | Promise<void>;
}

export interface Feature<S = unknown> {
  name: string;
  service: S;
  /** Mounted under /api/v1, behind strict bodies and idempotency, in the order of the feature list. */
  api?: AnyElysia;
  /** Mounted at the top level (pages, OAuth, MCP, webhook intake, health), in list order. */
  routes?: AnyElysia;
  jobs?: Jobs;
  listeners?: Listeners;
}

/** A feature that also exposes internals other features, the root or tests reach (its runs, its indexer…). */
export type FeatureWith<S> = Feature<S> & Record<string, unknown>;

/** Every listener of one kind among the given features, in list order. */
export function listenersOf<K extends keyof Listeners>(
  features: readonly Pick<Feature, "listeners">[],
  kind: K,
): NonNullable<Listeners[K]>[] {
  return features.flatMap((f) => (f.listeners?.[kind] ? [f.listeners[kind]] : []));
}

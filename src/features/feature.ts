// The feature contract: every feature folder builds one of these, and the composition root is a list of them.
import type { AnyElysia } from "elysia";
import type { Actor } from "../actor.ts";
import type { HighlightRow, NoteRow, SourceRow } from "../db/schema/index.ts";
import type { JobRegistration } from "../jobs/types.ts";

/** Job handlers, each tied to its job handle (`handleJob`); the root registers every feature's in one loop. */
export type Jobs = readonly JobRegistration[];

/**
 * What a feature does when something happens in another feature: the one way features subscribe.
 * The root hands each producer the listeners at construction (those of the features built before it;
 * for the events service, a function answering the listeners of the complete feature list): nothing
 * is pushed onto a hook later and there is no subscribe call. Each kind says when it is called.
 */
export interface Listeners {
  /** A source finished extraction (first time or after a refetch). */
  sourceReady?: (actor: Actor, row: SourceRow) => void | Promise<void>;
  /** A source's text or tags changed by an edit (not by extraction). */
  sourceChanged?: (row: SourceRow) => void | Promise<void>;
  /** A note was created, or its title or text changed. */
  noteSaved?: (row: NoteRow) => void | Promise<void>;
  /** A highlight was created, or its note changed (its deletion leaves the index by trigger). */
  highlightSaved?: (row: HighlightRow) => void | Promise<void>;
  /**
   * Stored events committed: called after the commit (never on rollback), once per tick with the set
   * of types committed in it, in feature list order, and not awaited; a promise it returns is what
   * the job runner's drain() waits for. The four above run inside the producer's transaction,
   * awaited in list order.
   */
  eventsRecorded?: (types: ReadonlySet<string>) => void | Promise<void>;
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

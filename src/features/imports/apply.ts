// Turns import items into library objects, one time slice per transaction: sources (deduplicated on the
// normalised URL, so importing twice creates nothing), notebooks by name, notes, and their problems.
import { newId } from "../../ids.ts";
import type { Actor } from "../../actor.ts";
import type { EventsService } from "../events/service.ts";
import type { LibraryImportWriter } from "../library/import-writer.ts";
import type { LibraryReader } from "../library/reader.ts";
import type { NotebooksService } from "../library/notebooks/service.ts";
import type { NotesService } from "../library/notes/service.ts";
import { normalizeUrl } from "../library/sources/normalize.ts";
import { parseTags, toPublicSource } from "../library/sources/public.ts";
import type { SourcesService } from "../library/sources/service.ts";
import { readSavedAt } from "./dates.ts";
import type { ImportItem } from "./formats/index.ts";
import type { FetchPolicy } from "../../net/fetch-policy.ts";
import { checkImportUrl } from "./url-check.ts";

export interface ApplyDeps {
  /** What an import reads of the library: folders by name, sources by address, notes already there, its own progress. */
  library: Pick<
    LibraryReader,
    | "notebookIdsByName"
    | "hasSameNote"
    | "sourceByNormalizedUrl"
    | "sourceByIdUnscoped"
    | "notebookIdsOfSources"
    | "sourceStatusCountsOfImport"
    | "pendingSourcesOfImport"
  >;
  /** The bulk writes no library service offers (pending sources, links, merged tags, descriptions). */
  importWrites: LibraryImportWriter;
  /** Merged tags of an already saved source are indexed again through the sources service. */
  sourcesService: Pick<SourcesService, "indexedFieldsChanged">;
  notebooks: NotebooksService;
  notes: NotesService;
  events: EventsService;
  /** What may be fetched (the server's one rule): links and feeds it refuses are reported, not saved. */
  fetchPolicy: FetchPolicy;
  feeds: FeedWatcher;
}

/** The feed side of OPML imports: subscriptions, the same one watch per feed the Feeds page and watch_feed use. */
export interface FeedWatcher {
  /** Feed URLs the user already watches (as given, and as polled). */
  watched(actor: Actor): Promise<Set<string>>;
  /** The user's watch of the feed, made now as a subscription when there is none; its id. Its first poll
   * records a baseline, so old entries are not imported. */
  subscribe(actor: Actor, feedUrl: string, title?: string): Promise<string>;
}

export type Outcome = "created" | "already_saved" | "invalid" | "failed" | "notebook" | "notebook_created" | "feed";
export interface Problem {
  entry: number;
  line: number | null;
  url: string | null;
  reason: string;
}

const NAME_MAX = 200;

/** State kept across the slices of one run: notebook ids by name. */
export function createApplier(
  deps: ApplyDeps,
  actor: Actor,
  now: () => number,
  importId: string,
  feedWorkflows: Record<string, string> = {},
) {
  let nbByName: Map<string, string> | undefined;

  async function notebookId(name: string): Promise<{ id: string; created: boolean }> {
    nbByName ??= await deps.library.notebookIdsByName(actor.userId);
    const key = name.trim().slice(0, NAME_MAX) || "Untitled folder";
    const found = nbByName.get(key);
    if (found) return { id: found, created: false };
    const nb = await deps.notebooks.create(actor, { name: key });
    nbByName.set(key, nb.id);
    return { id: nb.id, created: true };
  }

  return async function apply(item: ImportItem, entry: number, problems: Problem[]): Promise<Outcome> {
    const problem = (reason: string, url?: string) =>
      problems.push({
        entry,
        line: item.line ?? null,
        url: url ?? ("url" in item ? (item.url ?? null) : null),
        reason,
      });
    switch (item.kind) {
      case "bad":
        problem(item.reason);
        return "invalid";
      case "notebook": {
        const r = await notebookId(item.name);
        if (r.created && item.description) await deps.importWrites.describeNotebook(r.id, item.description);
        return r.created ? "notebook_created" : "notebook";
      }
      case "feed": {
        const checked = checkImportUrl(item.url, deps.fetchPolicy);
        if (!checked.ok) {
          problem(checked.reason);
          return "invalid";
        }
        // Feeds this import found new when the file was accepted; the others were watched already.
        if (!feedWorkflows[checked.url.href]) return "already_saved";
        await deps.feeds.subscribe(actor, checked.url.href);
        return "feed";
      }
      case "note": {
        if (await deps.library.hasSameNote(actor.userId, item.title?.trim() || null, item.content))
          return "already_saved";
        const sourceIds: string[] = [];
        for (const u of item.sourceUrls) {
          const c = checkImportUrl(u, null);
          const id = c.ok
            ? (await deps.library.sourceByNormalizedUrl(actor.userId, normalizeUrl(c.url)))?.id
            : undefined;
          if (id) sourceIds.push(id);
        }
        await deps.notes.create(actor, {
          content: item.content,
          title: item.title?.trim().slice(0, 500) || undefined,
          notebook_id: item.notebook ? (await notebookId(item.notebook)).id : undefined,
          source_ids: [...new Set(sourceIds)],
        });
        return "created";
      }
      case "link":
        return applyLink(item, problem);
    }
  };

  async function applyLink(
    item: Extract<ImportItem, { kind: "link" }>,
    problem: (reason: string, url?: string) => void,
  ): Promise<Outcome> {
    const checked = checkImportUrl(item.url, deps.fetchPolicy);
    if (!checked.ok) {
      problem(checked.reason, item.url.slice(0, 300));
      return "invalid";
    }
    const url = checked.url;
    const normalized = normalizeUrl(url);
    const nbIds: string[] = [];
    for (const n of item.notebooks) nbIds.push((await notebookId(n)).id);
    const tags = item.tags.map((x) => x.slice(0, 100)).filter(Boolean);
    const at = new Date(now()).toISOString();
    const existing = await deps.library.sourceByNormalizedUrl(actor.userId, normalized);
    if (existing) {
      // Already saved (by hand, by an earlier import, or twice in this file): add what is new, change nothing else.
      const links = (await deps.library.notebookIdsOfSources([existing.id])).get(existing.id) ?? [];
      const before = toPublicSource(existing, links);
      let changed = false;
      for (const nb of nbIds) changed = (await deps.importWrites.linkSource(nb, existing.id, at)) || changed;
      const old = parseTags(existing.tags);
      const merged = [...new Set([...old, ...tags])];
      if (merged.length !== old.length) {
        await deps.importWrites.updateSource(existing.id, { tags: JSON.stringify(merged) });
        changed = true;
      }
      if (changed) {
        await deps.importWrites.updateSource(existing.id, { updatedAt: at });
        const row = (await deps.library.sourceByIdUnscoped(existing.id))!;
        await deps.sourcesService.indexedFieldsChanged(existing, row);
        await deps.events.record(
          actor,
          "source.updated",
          toPublicSource(row, (await deps.library.notebookIdsOfSources([row.id])).get(row.id) ?? []),
          before,
        );
      }
      return "already_saved";
    }
    const saved = readSavedAt(item.savedAt, now());
    if (saved && "error" in saved) problem(saved.error);
    const id = newId("source");
    await deps.importWrites.insertImportedSource({
      id,
      userId: actor.userId,
      url: url.href,
      normalizedUrl: normalized,
      title: item.title?.trim().slice(0, 500) || null,
      tags: JSON.stringify(tags),
      archived: item.archived ?? false,
      // Carried content waits in the row for the ingest job, which extracts it instead of fetching.
      content: item.content?.text ?? null,
      savedAt: saved && "ms" in saved ? new Date(saved.ms).toISOString() : at,
      createdAt: at,
      updatedAt: at,
      importId,
    });
    for (const nb of nbIds) await deps.importWrites.linkSource(nb, id, at);
    await deps.events.record(
      actor,
      "source.created",
      toPublicSource((await deps.library.sourceByIdUnscoped(id))!, nbIds),
    );
    // Its fetch is queued once every record of the import exists (fetches.ts).
    return "created";
  }
}

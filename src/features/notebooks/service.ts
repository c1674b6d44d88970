// Notebooks: named groups of sources and notes. Deleting one keeps its sources and notes.
import type { Database } from "bun:sqlite";
import { inTransaction } from "../../db/tx.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { EventsService } from "../events/service.ts";
import type { NotebooksRepo, NotebookWithCounts } from "./repo.ts";
import type { NotebookCreate, NotebookPublic, NotebookUpdate } from "./schema.ts";

export const toPublicNotebook = (r: NotebookWithCounts): NotebookPublic => ({
  id: r.id,
  name: r.name,
  description: r.description,
  source_count: r.sourceCount,
  note_count: r.noteCount,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

export function createNotebooksService(deps: { sqlite: Database; repo: NotebooksRepo; events: EventsService; clock: Clock }) {
  const { sqlite, repo, events, clock } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();

  function getRow(actor: Actor, id: string): NotebookWithCounts {
    const row = repo.byId(actor.userId, id);
    if (!row) throw notFound("Notebook");
    return row;
  }

  return {
    getRow,
    get: (actor: Actor, id: string) => toPublicNotebook(getRow(actor, id)),

    create(actor: Actor, input: NotebookCreate): NotebookPublic {
      return inTransaction(sqlite, () => {
        const at = nowIso();
        const id = newId("notebook");
        repo.insert({ id, userId: actor.userId, name: input.name.trim(), description: input.description ?? null, createdAt: at, updatedAt: at });
        const nb = toPublicNotebook(repo.byId(actor.userId, id)!);
        events.record(actor, "notebook.created", nb);
        return nb;
      });
    },

    list(actor: Actor, opts: { limit: number; before?: string }): NotebookPublic[] {
      return repo.list(actor.userId, opts).map(toPublicNotebook);
    },

    update(actor: Actor, id: string, input: NotebookUpdate): NotebookPublic {
      return inTransaction(sqlite, () => {
        const before = toPublicNotebook(getRow(actor, id));
        repo.update(id, {
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          updatedAt: nowIso(),
        });
        const after = toPublicNotebook(repo.byId(actor.userId, id)!);
        events.record(actor, "notebook.updated", after, before);
        return after;
      });
    },

    delete(actor: Actor, id: string): NotebookPublic {
      return inTransaction(sqlite, () => {
        const before = toPublicNotebook(getRow(actor, id));
        repo.delete(actor.userId, id);
        events.record(actor, "notebook.deleted", before);
        return before;
      });
    },
  };
}
export type NotebooksService = ReturnType<typeof createNotebooksService>;

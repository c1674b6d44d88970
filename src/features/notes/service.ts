// Notes: Markdown written by the user, optionally in a notebook and about some sources.
import type { Transactor } from "../../db/port.ts";
import type { NoteRow } from "../../db/schema/index.ts";
import { invalid, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { EventsService } from "../events/service.ts";
import type { NotebooksRepo } from "../notebooks/repo.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import type { NotesRepo } from "./repo.ts";
import type { NoteCreate, NotePublic, NoteUpdate } from "./schema.ts";

export const toPublicNote = (r: NoteRow, sourceIds: string[]): NotePublic => ({
  id: r.id,
  title: r.title,
  content: r.content,
  notebook_id: r.notebookId,
  source_ids: sourceIds,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** Hooks run inside the note's transaction (the search index keeps itself in step). */
export interface NoteHooks {
  onSaved: ((note: NoteRow) => void)[];
}

export function createNotesService(deps: {
  db: Transactor;
  repo: NotesRepo;
  notebooks: NotebooksRepo;
  sources: SourcesRepo;
  events: EventsService;
  clock: Clock;
  hooks?: NoteHooks;
}) {
  const { db, repo, notebooks, sources, events, clock } = deps;
  const hooks = deps.hooks ?? { onSaved: [] };
  const nowIso = () => new Date(clock.now()).toISOString();

  const publicOf = (r: NoteRow) => toPublicNote(r, repo.sourceIds([r.id]).get(r.id) ?? []);

  function checkRefs(actor: Actor, notebookId: string | null | undefined, sourceIds: string[] | undefined) {
    if (notebookId && notebooks.existingIds(actor.userId, [notebookId]).size === 0) {
      throw invalid("notebook_id", `notebook ${notebookId} does not exist`);
    }
    if (sourceIds?.length) {
      const found = new Set(sources.byIds(actor.userId, sourceIds).map((s) => s.id));
      sourceIds.forEach((id, i) => {
        if (!found.has(id)) throw invalid(`source_ids[${i}]`, `source ${id} does not exist`);
      });
    }
  }

  function getRow(actor: Actor, id: string): NoteRow {
    const row = repo.byId(actor.userId, id);
    if (!row) throw notFound("Note");
    return row;
  }

  return {
    getRow,
    get: (actor: Actor, id: string) => publicOf(getRow(actor, id)),

    create(actor: Actor, input: NoteCreate): NotePublic {
      checkRefs(actor, input.notebook_id, input.source_ids);
      return db.tx(() => {
        const at = nowIso();
        const row: NoteRow = {
          id: newId("note"),
          userId: actor.userId,
          notebookId: input.notebook_id ?? null,
          title: input.title?.trim() || null,
          content: input.content,
          createdAt: at,
          updatedAt: at,
        };
        repo.insert(row);
        repo.setSources(row.id, input.source_ids ?? []);
        for (const h of hooks.onSaved) h(row);
        const note = publicOf(row);
        events.record(actor, "note.created", note);
        return note;
      });
    },

    list(actor: Actor, opts: { limit: number; before?: string; notebookId?: string; sourceId?: string }): NotePublic[] {
      const rows = repo.list(actor.userId, opts);
      const links = repo.sourceIds(rows.map((r) => r.id));
      return rows.map((r) => toPublicNote(r, links.get(r.id) ?? []));
    },

    listRows(actor: Actor, opts: { limit: number; before?: string; notebookId?: string }): NoteRow[] {
      return repo.list(actor.userId, opts);
    },

    update(actor: Actor, id: string, input: NoteUpdate): NotePublic {
      checkRefs(actor, input.notebook_id, input.source_ids);
      return db.tx(() => {
        const before = publicOf(getRow(actor, id));
        const patch: Partial<NoteRow> = { updatedAt: nowIso() };
        if (input.content !== undefined) patch.content = input.content;
        if (input.title !== undefined) patch.title = input.title?.trim() || null;
        if (input.notebook_id !== undefined) patch.notebookId = input.notebook_id;
        repo.update(id, patch);
        if (input.source_ids !== undefined) repo.setSources(id, input.source_ids);
        const row = repo.byId(actor.userId, id)!;
        if (input.content !== undefined || input.title !== undefined) for (const h of hooks.onSaved) h(row);
        const after = publicOf(row);
        events.record(actor, "note.updated", after, before);
        return after;
      });
    },

    delete(actor: Actor, id: string): NotePublic {
      return db.tx(() => {
        const before = publicOf(getRow(actor, id));
        repo.delete(actor.userId, id);
        events.record(actor, "note.deleted", before);
        return before;
      });
    },
  };
}
export type NotesService = ReturnType<typeof createNotesService>;

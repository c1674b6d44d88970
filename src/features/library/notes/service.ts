// Notes: Markdown written by the user, optionally in a notebook and about some sources.
import type { Transactor } from "../../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../../paging.ts";
import type { NoteRow } from "../../../db/schema/index.ts";
import { invalid, notFound } from "../../../errors.ts";
import { newId } from "../../../ids.ts";
import type { Clock } from "../../../time.ts";
import type { Actor } from "../../../actor.ts";
import type { EventsService } from "../../events/service.ts";
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
  onSaved: readonly ((note: NoteRow) => void | Promise<void>)[];
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

  const publicOf = async (r: NoteRow) => toPublicNote(r, (await repo.sourceIds([r.id])).get(r.id) ?? []);

  async function checkRefs(actor: Actor, notebookId: string | null | undefined, sourceIds: string[] | undefined) {
    if (notebookId && (await notebooks.existingIds(actor.userId, [notebookId])).size === 0) {
      throw invalid("notebook_id", `notebook ${notebookId} does not exist`);
    }
    if (sourceIds?.length) {
      const found = new Set((await sources.byIds(actor.userId, sourceIds)).map((s) => s.id));
      sourceIds.forEach((id, i) => {
        if (!found.has(id)) throw invalid(`source_ids[${i}]`, `source ${id} does not exist`);
      });
    }
  }

  async function getRow(actor: Actor, id: string): Promise<NoteRow> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Note");
    return row;
  }

  return {
    getRow,
    get: async (actor: Actor, id: string) => publicOf(await getRow(actor, id)),

    async create(actor: Actor, input: NoteCreate): Promise<NotePublic> {
      return db.tx(async () => {
        // Inside the transaction: a notebook or source deleted meanwhile would fail a foreign key (500).
        await checkRefs(actor, input.notebook_id, input.source_ids);
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
        await repo.insert(row);
        await repo.setSources(row.id, input.source_ids ?? []);
        for (const h of hooks.onSaved) await h(row);
        const note = await publicOf(row);
        await events.record(actor, "note.created", note);
        return note;
      });
    },

    async list(actor: Actor, q: PageQuery & { notebookId?: string; sourceId?: string }): Promise<Page<NotePublic>> {
      const { limit, cursor, ...filters } = q;
      const page = await paginate(limit, cursor, (o) => repo.list(actor.userId, { ...filters, ...o }));
      return mapPage(page, async (rows) => {
        const links = await repo.sourceIds(rows.map((r) => r.id));
        return rows.map((r) => toPublicNote(r, links.get(r.id) ?? []));
      });
    },

    async listRows(actor: Actor, opts: { limit: number; before?: string; notebookId?: string }): Promise<NoteRow[]> {
      return repo.list(actor.userId, opts);
    },

    async update(actor: Actor, id: string, input: NoteUpdate): Promise<NotePublic> {
      return db.tx(async () => {
        await checkRefs(actor, input.notebook_id, input.source_ids);
        const before = await publicOf(await getRow(actor, id));
        const patch: Partial<NoteRow> = { updatedAt: nowIso() };
        if (input.content !== undefined) patch.content = input.content;
        if (input.title !== undefined) patch.title = input.title?.trim() || null;
        if (input.notebook_id !== undefined) patch.notebookId = input.notebook_id;
        await repo.update(id, patch);
        if (input.source_ids !== undefined) await repo.setSources(id, input.source_ids);
        const row = (await repo.byId(actor.userId, id))!;
        if (input.content !== undefined || input.title !== undefined) for (const h of hooks.onSaved) await h(row);
        const after = await publicOf(row);
        await events.record(actor, "note.updated", after, before);
        return after;
      });
    },

    async delete(actor: Actor, id: string): Promise<NotePublic> {
      return db.tx(async () => {
        const before = await publicOf(await getRow(actor, id));
        await repo.delete(actor.userId, id);
        await events.record(actor, "note.deleted", before);
        return before;
      });
    },
  };
}
export type NotesService = ReturnType<typeof createNotesService>;

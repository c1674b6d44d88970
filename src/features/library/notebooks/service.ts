// Notebooks: named groups of sources and notes. Deleting one keeps its sources and notes.
import type { Transactor } from "../../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../../paging.ts";
import { notFound } from "../../../errors.ts";
import { newId } from "../../../ids.ts";
import type { Clock } from "../../../time.ts";
import type { Actor } from "../../../actor.ts";
import type { EventsService } from "../../events/service.ts";
import type { NotesRepo } from "../notes/repo.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import { notebookZip, type ExportPages } from "./export.ts";
import { slugify } from "../../../slug.ts";
import type { HighlightsRepo } from "../highlights/repo.ts";
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

export function createNotebooksService(deps: {
  db: Transactor;
  repo: NotebooksRepo;
  events: EventsService;
  clock: Clock;
  /** What the Markdown export reads, page by page (a notebook's sources and notes). */
  exportRows: {
    sources: Pick<SourcesRepo, "list">;
    notes: Pick<NotesRepo, "list">;
    highlights?: Pick<HighlightsRepo, "ofSource">;
  };
}) {
  const { db, repo, events, clock } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();

  async function getRow(actor: Actor, id: string): Promise<NotebookWithCounts> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Notebook");
    return row;
  }

  return {
    getRow,
    get: async (actor: Actor, id: string) => toPublicNotebook(await getRow(actor, id)),

    async create(actor: Actor, input: NotebookCreate): Promise<NotebookPublic> {
      return db.tx(async () => {
        const at = nowIso();
        const id = newId("notebook");
        await repo.insert({
          id,
          userId: actor.userId,
          name: input.name.trim(),
          description: input.description ?? null,
          createdAt: at,
          updatedAt: at,
        });
        const nb = toPublicNotebook((await repo.byId(actor.userId, id))!);
        await events.record(actor, "notebook.created", nb);
        return nb;
      });
    },

    /** The notebook as a zip of Markdown files (the API's export and the web page's), streamed as it is read. */
    async exportMarkdown(actor: Actor, id: string): Promise<{ filename: string; zip: ReadableStream<Uint8Array> }> {
      const nb = await getRow(actor, id);
      const { sources, notes, highlights } = deps.exportRows;
      const pages: ExportPages = {
        sources: (before, limit) => sources.list(actor.userId, { limit, before, notebookId: nb.id }),
        notes: (before, limit) => notes.list(actor.userId, { limit, before, notebookId: nb.id }),
        highlights: highlights
          ? async (sourceId) => (await highlights.ofSource(actor.userId, sourceId)).map((r) => r.h)
          : undefined,
      };
      return { filename: `${slugify(nb.name, "notebook")}.zip`, zip: notebookZip(nb, pages) };
    },

    async list(actor: Actor, q: PageQuery): Promise<Page<NotebookPublic>> {
      const page = await paginate(q.limit, q.cursor, (o) => repo.list(actor.userId, o));
      return mapPage(page, (rows) => rows.map(toPublicNotebook));
    },

    async update(actor: Actor, id: string, input: NotebookUpdate): Promise<NotebookPublic> {
      return db.tx(async () => {
        const before = toPublicNotebook(await getRow(actor, id));
        await repo.update(id, {
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          updatedAt: nowIso(),
        });
        const after = toPublicNotebook((await repo.byId(actor.userId, id))!);
        await events.record(actor, "notebook.updated", after, before);
        return after;
      });
    },

    async delete(actor: Actor, id: string): Promise<NotebookPublic> {
      return db.tx(async () => {
        const before = toPublicNotebook(await getRow(actor, id));
        await repo.delete(actor.userId, id);
        await events.record(actor, "notebook.deleted", before);
        return before;
      });
    },
  };
}
export type NotebooksService = ReturnType<typeof createNotebooksService>;

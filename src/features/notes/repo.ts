// SQL for notes and the sources they reference.
import { and, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { notes, noteSources, type NoteRow } from "../../db/schema/index.ts";
import { createNotesPgRepo } from "./pg-repo.ts";

export function createNotesRepo(db: Db): NotesRepo {
  return db.pg ? createNotesPgRepo(db.pg) : createNotesSqliteRepo(db);
}

function createNotesSqliteRepo(db: Db) {
  return {
    /** A note with this exact title and content exists: re-importing a file adds no copies. */
    async hasSame(userId: string, title: string | null, content: string): Promise<boolean> {
      const t = title === null ? isNull(notes.title) : eq(notes.title, title);
      return (
        (await db.query((c) =>
          c.orm
            .select({ id: notes.id })
            .from(notes)
            .where(and(eq(notes.userId, userId), t, eq(notes.content, content)))
            .limit(1)
            .get(),
        )) !== undefined
      );
    },
    async insert(row: NoteRow): Promise<void> {
      await db.exec((c) => c.orm.insert(notes).values(row).run());
    },
    async byId(userId: string, id: string): Promise<NoteRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(notes)
          .where(and(eq(notes.id, id), eq(notes.userId, userId)))
          .get(),
      );
    },
    async list(
      userId: string,
      opts: { limit: number; before?: string; notebookId?: string; sourceId?: string },
    ): Promise<NoteRow[]> {
      const conds = [eq(notes.userId, userId)];
      if (opts.before) conds.push(lt(notes.id, opts.before));
      if (opts.notebookId) conds.push(eq(notes.notebookId, opts.notebookId));
      // Notes about a source: those whose source_ids contain it.
      return db.query((c) => {
        if (opts.sourceId)
          conds.push(
            inArray(
              notes.id,
              c.orm.select({ id: noteSources.noteId }).from(noteSources).where(eq(noteSources.sourceId, opts.sourceId)),
            ),
          );
        return c.orm
          .select()
          .from(notes)
          .where(and(...conds))
          .orderBy(desc(notes.id))
          .limit(opts.limit)
          .all();
      });
    },
    async update(id: string, patch: Partial<NoteRow>): Promise<void> {
      await db.exec((c) => c.orm.update(notes).set(patch).where(eq(notes.id, id)).run());
    },
    async delete(userId: string, id: string): Promise<void> {
      await db.exec((c) =>
        c.orm
          .delete(notes)
          .where(and(eq(notes.id, id), eq(notes.userId, userId)))
          .run(),
      );
    },
    async sourceIds(noteIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      if (noteIds.length === 0) return out;
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(noteSources)
          .where(inArray(noteSources.noteId, noteIds))
          .orderBy(noteSources.sourceId)
          .all(),
      );
      for (const r of rows) out.set(r.noteId, [...(out.get(r.noteId) ?? []), r.sourceId]);
      return out;
    },
    async setSources(noteId: string, sourceIds: string[]): Promise<void> {
      await db.exec((c) => {
        c.orm.delete(noteSources).where(eq(noteSources.noteId, noteId)).run();
        if (sourceIds.length)
          c.orm
            .insert(noteSources)
            .values(sourceIds.map((sourceId) => ({ noteId, sourceId })))
            .run();
      });
    },
  };
}
export type NotesRepo = ReturnType<typeof createNotesSqliteRepo>;

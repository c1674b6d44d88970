// SQL for notes and the sources they reference, written once for both engines (src/db/shared.ts).
import { and, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Db } from "../../../db/port.ts";
import { notes, noteSources, type NoteRow } from "../../../db/schema/index.ts";

export interface NotesRepo {
  /** A note with this exact title and content exists: re-importing a file adds no copies. */
  hasSame(userId: string, title: string | null, content: string): Promise<boolean>;
  insert(row: NoteRow): Promise<void>;
  byId(userId: string, id: string): Promise<NoteRow | undefined>;
  /** Newest first; in a notebook, or about a source (citing it), when asked. */
  list(
    userId: string,
    opts: { limit: number; before?: string; notebookId?: string; sourceId?: string },
  ): Promise<NoteRow[]>;
  update(id: string, patch: Partial<NoteRow>): Promise<void>;
  delete(userId: string, id: string): Promise<void>;
  /** The sources each note cites, in id order. */
  sourceIds(noteIds: string[]): Promise<Map<string, string[]>>;
  /** Replaces the sources a note cites. */
  setSources(noteId: string, sourceIds: string[]): Promise<void>;
}

export function createNotesRepo(db: Db): NotesRepo {
  const orm = db.shared;
  return {
    async hasSame(userId, title, content) {
      const t = title === null ? isNull(notes.title) : eq(notes.title, title);
      const row = await orm
        .select({ id: notes.id })
        .from(notes)
        .where(and(eq(notes.userId, userId), t, eq(notes.content, content)))
        .limit(1)
        .get();
      return row !== undefined;
    },
    async insert(row) {
      await orm.insert(notes).values(row);
    },
    byId(userId, id) {
      return orm
        .select()
        .from(notes)
        .where(and(eq(notes.id, id), eq(notes.userId, userId)))
        .get();
    },
    list(userId, opts) {
      const conds = [eq(notes.userId, userId)];
      if (opts.before) conds.push(lt(notes.id, opts.before));
      if (opts.notebookId) conds.push(eq(notes.notebookId, opts.notebookId));
      // Notes about a source: those whose source_ids contain it.
      if (opts.sourceId)
        conds.push(
          inArray(
            notes.id,
            orm.select({ id: noteSources.noteId }).from(noteSources).where(eq(noteSources.sourceId, opts.sourceId)),
          ),
        );
      return orm
        .select()
        .from(notes)
        .where(and(...conds))
        .orderBy(desc(notes.id))
        .limit(opts.limit);
    },
    async update(id, patch) {
      await orm.update(notes).set(patch).where(eq(notes.id, id));
    },
    async delete(userId, id) {
      await orm.delete(notes).where(and(eq(notes.id, id), eq(notes.userId, userId)));
    },
    async sourceIds(noteIds) {
      const out = new Map<string, string[]>();
      if (noteIds.length === 0) return out;
      const rows = await orm
        .select()
        .from(noteSources)
        .where(inArray(noteSources.noteId, noteIds))
        .orderBy(noteSources.sourceId);
      for (const r of rows) out.set(r.noteId, [...(out.get(r.noteId) ?? []), r.sourceId]);
      return out;
    },
    async setSources(noteId, sourceIds) {
      // Both statements in one transaction (a savepoint inside the caller's): the note never shows half a list.
      await db.tx(async () => {
        await orm.delete(noteSources).where(eq(noteSources.noteId, noteId));
        if (sourceIds.length) await orm.insert(noteSources).values(sourceIds.map((sourceId) => ({ noteId, sourceId })));
      });
    },
  };
}

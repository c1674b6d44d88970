// SQL for notes and the sources they reference on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { notes, noteSources } from "../../db/pg/schema/index.ts";
import type { NotesRepo } from "./repo.ts";

export function createNotesPgRepo(db: PgDb): NotesRepo {
  return {
    async hasSame(userId, title, content) {
      const t = title === null ? isNull(notes.title) : eq(notes.title, title);
      const rows = await db.query((c) =>
        c.orm
          .select({ id: notes.id })
          .from(notes)
          .where(and(eq(notes.userId, userId), t, eq(notes.content, content)))
          .limit(1),
      );
      return rows.length > 0;
    },
    async insert(row) {
      await db.exec((c) => c.orm.insert(notes).values(row));
    },
    async byId(userId, id) {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(notes)
          .where(and(eq(notes.id, id), eq(notes.userId, userId))),
      );
      return rows[0];
    },
    async list(userId, opts) {
      const conds = [eq(notes.userId, userId)];
      if (opts.before) conds.push(lt(notes.id, opts.before));
      if (opts.notebookId) conds.push(eq(notes.notebookId, opts.notebookId));
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
          .limit(opts.limit);
      });
    },
    async update(id, patch) {
      await db.exec((c) => c.orm.update(notes).set(patch).where(eq(notes.id, id)));
    },
    async delete(userId, id) {
      await db.exec((c) => c.orm.delete(notes).where(and(eq(notes.id, id), eq(notes.userId, userId))));
    },
    async sourceIds(noteIds) {
      const out = new Map<string, string[]>();
      if (noteIds.length === 0) return out;
      const rows = await db.query((c) =>
        c.orm.select().from(noteSources).where(inArray(noteSources.noteId, noteIds)).orderBy(noteSources.sourceId),
      );
      for (const r of rows) out.set(r.noteId, [...(out.get(r.noteId) ?? []), r.sourceId]);
      return out;
    },
    async setSources(noteId, sourceIds) {
      // Both statements in one transaction (a savepoint inside the caller's): the note never shows half a list.
      await db.tx(async () => {
        await db.exec((c) => c.orm.delete(noteSources).where(eq(noteSources.noteId, noteId)));
        if (sourceIds.length)
          await db.exec((c) => c.orm.insert(noteSources).values(sourceIds.map((sourceId) => ({ noteId, sourceId }))));
      });
    },
  };
}
